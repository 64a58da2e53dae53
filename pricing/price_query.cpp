#include "price_query.hpp"

#include "estimate.hpp"
#include "rules.hpp"

#include <algorithm>

namespace lcg::pricing {

bool price_query::empty() const
{
    return filter.empty() && !only && compared == tier::on_demand && !max_price && order == price_order::gpu;
}

parsed<price_query> parse_price_query(price_query_parameters const& p, catalog const& cat)
{
    price_query q;
    auto filter = parse_gpu_filter({p.vendor, p.architecture, p.min_vram_gb, std::nullopt, std::nullopt}, cat);
    if (!filter)
        return filter.err();
    q.filter = std::move(filter).value();
    if (p.gpu) {
        auto const model = find_gpu_parameter("gpu", *p.gpu, cat);
        if (!model)
            return model.err();
        q.only = *model;
    }
    auto const t = tier_parameter(p.tier);
    if (!t)
        return t.err();
    q.compared = *t;
    if (p.max_price) {
        auto const price = units_parameter("max_price", *p.max_price, 6);
        if (!price)
            return price.err();
        q.max_price = money::from_micros(*price);
    }
    if (p.sort) {
        auto const sort = ascii_lower(*p.sort);
        if (sort == "price")
            q.order = price_order::price;
        else if (sort == "vram")
            q.order = price_order::vram;
        else if (sort != "gpu")
            return bad_input("sort", "sort: " + quote(*p.sort) + " is not an order; accepted: gpu, price, vram",
                             "sort\u202F: " + quote(*p.sort) + " n’est pas un ordre\u202F; accepté\u202F: gpu, price, vram");
    }
    return q;
}

std::vector<sheet_row const*> select_prices(price_query const& q, price_sheet const& sheet, catalog const& cat)
{
    std::vector<sheet_row const*> priced, unpriced;
    for (auto const& row : sheet.rows) {
        auto const* m = cat.find(row.gpu);
        if (!m || (q.only && q.only != m) || !matches(q.filter, *m))
            continue;
        if (!row.available()) {
            if (!q.max_price)
                (q.order == price_order::gpu ? priced : unpriced).push_back(&row);  // in sheet order
            continue;
        }
        if (q.max_price && row.rates->of(q.compared) > *q.max_price)
            continue;
        priced.push_back(&row);
    }
    if (q.order == price_order::price)
        std::stable_sort(priced.begin(), priced.end(), [&](sheet_row const* a, sheet_row const* b) {
            return a->rates->of(q.compared) < b->rates->of(q.compared);
        });
    else if (q.order == price_order::vram)
        std::stable_sort(priced.begin(), priced.end(), [&](sheet_row const* a, sheet_row const* b) {
            return cat.find(a->gpu)->vram_gb > cat.find(b->gpu)->vram_gb;
        });
    priced.insert(priced.end(), unpriced.begin(), unpriced.end());
    return priced;
}

}
