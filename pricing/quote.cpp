#include "quote.hpp"

#include "estimate.hpp"
#include "history.hpp"
#include "rules.hpp"

namespace lcg::pricing {

parsed<quote_request> parse_quote(quote_parameters const& p, catalog const& cat, std::span<const price_sheet> sheets,
                                  price_sheet const* current)
{
    quote_request q;
    auto const model = find_gpu_parameter("gpu", p.gpu, cat);
    if (!model)
        return model.err();
    q.model = *model;
    auto const t = tier_parameter(p.tier);
    if (!t)
        return t.err();
    q.t = *t;
    auto const micros = units_parameter("price", p.price, 6);
    if (!micros)
        return micros.err();
    q.quoted = money::from_micros(*micros);
    auto const sheet = week_parameter(p.week, sheets, current);
    if (!sheet)
        return sheet.err();
    q.sheet = *sheet;
    return q;
}

std::string_view to_string(quote_verdict v)
{
    switch (v) {
    case quote_verdict::published: return "published";
    case quote_verdict::above: return "above";
    case quote_verdict::below: return "below";
    case quote_verdict::not_priced: return "not_priced";
    }
    return "not_priced";
}

quote_check check_quote(quote_request const& request)
{
    quote_check c;
    c.request = request;
    c.row = request.sheet->find(request.model->id);
    if (!c.row || !c.row->rates)
        return c;
    c.published = c.row->rates->of(request.t);
    c.verdict = request.quoted == *c.published ? quote_verdict::published
                : request.quoted > *c.published ? quote_verdict::above
                                                : quote_verdict::below;
    return c;
}

}
