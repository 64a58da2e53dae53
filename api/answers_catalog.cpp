// The operations that read the price sheet and the catalog: prices, their history, a quote's check,
// the GPU models, the inventory and the methodology.
#include "api/answer_kit.hpp"

#include "render/compact.hpp"
#include "render/costing_json.hpp"
#include "render/json.hpp"
#include "render/quote.hpp"

#include "pricing/estimate.hpp"
#include "pricing/gpu_filter.hpp"
#include "pricing/inventory.hpp"
#include "pricing/price_query.hpp"
#include "pricing/quote.hpp"

#include <algorithm>

namespace lcg::api::answers {

using namespace kit;

namespace {

constexpr std::string_view orders[] = {"gpu", "price", "vram"};

// A list's compact form (render/compact.hpp): a table of the members asked, the id first.
constexpr parameter fields{"fields", vt::string_list,
                           "Only these members of each model, as a table (columns, rows): fewer tokens for a long list, "
                           "such as name,on_demand,spot; the id comes first",
                           false, {}, {}, {}, false, 1, 20};

failure not_a_member(std::string const& name, std::vector<std::string> const& accepted)
{
    std::string all;
    for (auto const& a : accepted)
        all += (all.empty() ? "" : ", ") + a;
    return refused(pricing::invalid("fields: " + pricing::quote(name) + " is not a member of a model; accepted: " + all,
                                    "fields\u202F: " + pricing::quote(name) +
                                        " n’est pas un membre d’un modèle\u202F; acceptés\u202F: " + all),
                   "fields");
}

// `doc`, the document of `tool`, in its compact form when `fields` was given (1 to 20 members: the
// decoder counted them), or the refusal of a member its items cannot hold.
std::optional<failure> compact_if_asked(argument const& asked_fields, boost::json::object& doc, std::string_view tool,
                                        std::string_view list, std::string_view key)
{
    auto const& asked = asked_fields();
    if (!asked)
        return std::nullopt;
    auto const accepted = item_columns(*find_tool(tool), list);
    std::vector<std::string> names;
    for (std::string_view rest = *asked; !rest.empty();) {
        auto const comma = rest.find(',');
        std::string const name(rest.substr(0, comma));
        if (std::find(accepted.begin(), accepted.end(), name) == accepted.end())
            return not_a_member(name, accepted);
        if (std::find(names.begin(), names.end(), name) == names.end())
            names.push_back(name);  // a name given twice is one column
        rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    }
    render::make_compact(doc, list, key, names);
    return std::nullopt;
}

struct prices_input : input {
    argument gpu{this, only_gpu};
    argument vendor{this, kit::vendor};
    argument architecture{this, kit::architecture};
    argument min_vram_gb{this, kit::min_vram_gb};
    argument max_price{this, {"max_price", vt::number, "Only models whose rate in `tier` is at most this, USD per GPU-hour",
                              false, {}, 0, rules::max_observed_price.micros() / 1'000'000}};
    argument tier{this, {"tier", vt::string, "The tier that max_price and sort=price look at (default on_demand)", false, tiers}};
    argument sort{this, {"sort", vt::string, "gpu (default, catalog order), price (cheapest first) or vram (most memory first)",
                         false, orders}};
    argument week{this, kit::week};
    argument fields{this, answers::fields};
};

result prices(request& r, prices_input const& in)
{
    // The sheet as published, the most frequent call of all, is answered without parsing a query.
    if (in.none_given())
        return r.data.current_sheet() ? result(published(render::resource::prices)) : result(no_sheet());
    auto const& cat = r.data.catalog();
    auto const query = pricing::parse_price_query({.gpu = in.gpu(), .vendor = in.vendor(), .architecture = in.architecture(),
                                                   .min_vram_gb = in.min_vram_gb(), .max_price = in.max_price(),
                                                   .tier = in.tier(), .sort = in.sort()},
                                                  cat);
    auto const priced = sheet_for(query, r, in.week, priced_sheet);
    if (!priced)
        return priced.err();
    auto const* sheet = *priced;
    if (query->empty() && sheet == r.data.current_sheet() && !in.fields.given())
        return published(render::resource::prices);
    auto doc = render::sheet_json(*sheet, cat, pricing::select_prices(*query, *sheet, cat), r.lang,
                                  r.data.publication(sheet->week));
    if (auto refusal = compact_if_asked(in.fields, doc, "get_prices", "prices", "gpu"))
        return *refusal;
    return computed(std::move(doc));
}

struct gpu_input : input {
    argument gpu{this, gpu_id};
};

result gpu(request& r, gpu_input const& in)
{
    auto const model = required_gpu(r, in.gpu);
    if (!model)
        return model.err();
    return published(render::resource::gpu, (*model)->id);
}

struct catalog_input : input {
    argument vendor{this, kit::vendor};
    argument architecture{this, kit::architecture};
    argument min_vram_gb{this, kit::min_vram_gb};
    argument mig{this, {"mig", vt::boolean, "Only models with (true) or without (false) Multi-Instance GPU"}};
    argument nvlink{this, {"nvlink", vt::boolean,
                           "Only models with (true) or without (false) NVLink, NVIDIA's GPU-to-GPU link (AMD's models have none)"}};
    argument fields{this, answers::fields};
};

result catalog(request& r, catalog_input const& in)
{
    auto const& cat = r.data.catalog();
    auto const filter = pricing::parse_gpu_filter({.vendor = in.vendor(), .architecture = in.architecture(),
                                                   .min_vram_gb = in.min_vram_gb(), .mig = in.mig(), .nvlink = in.nvlink()},
                                                  cat);
    if (!filter)
        return refused(filter.err());
    if (filter->empty() && !in.fields.given())
        return published(render::resource::gpus);
    auto doc = render::filtered_catalog_json(cat, r.data.current_sheet(), *filter, r.lang);
    if (auto refusal = compact_if_asked(in.fields, doc, "list_gpus", "gpus", "id"))
        return *refusal;
    return computed(std::move(doc));
}

struct inventory_input : input {
    argument gpu{this, only_gpu};
    argument region{this, {"region", vt::string, "Only this region code, such as eu-paris-2 (/v1/regions lists them)"}};
};

result inventory(request& r, inventory_input const& in)
{
    auto const& cat = r.data.catalog();
    auto const query = pricing::parse_inventory_query(in.gpu(), in.region(), cat);
    if (!query)
        return refused(query.err());
    if (query->empty())
        return published(render::resource::inventory);
    return computed(render::inventory_json(cat, *query, r.lang));
}

struct no_input : input {};

result methodology(request&, no_input const&) { return published(render::resource::methodology); }

result price_history(request& r, gpu_input const& in)
{
    auto const model = required_gpu(r, in.gpu);
    if (!model)
        return model.err();
    if (r.data.sheets().empty())
        return no_sheet();
    return published(render::resource::price_history, (*model)->id);
}

struct history_input : input {
    argument tier{this, {"tier", vt::string, "The rate the table shows (default on_demand)", false, tiers}};
};

result history(request& r, history_input const& in)
{
    auto const parsed = pricing::tier_parameter(in.tier());
    if (!parsed)
        return refused(parsed.err());
    if (r.data.sheets().empty())
        return no_sheet();
    return published(render::resource::history, {}, *parsed == pricing::tier::on_demand ? "" : "?tier=" + std::string(to_string(*parsed)));
}

struct quote_input : input {
    argument gpu{this, gpu_id};
    argument tier{this, kit::tier};
    argument price{this, {"price", vt::number, "The quoted rate, USD per GPU-hour (up to 6 decimals), such as 0.84", true, {},
                          0, rules::max_observed_price.micros() / 1'000'000}};
    argument week{this, kit::week};
};

result quote(request& r, quote_input const& in)
{
    auto const q = pricing::parse_quote({.gpu = *in.gpu(), .tier = in.tier(), .price = *in.price(), .week = in.week()},
                                        r.data.catalog(), r.data.sheets(), r.data.current_sheet());
    if (!q)
        return refused(q.err());
    return computed(render::quote_check_json(pricing::check_quote(*q), r.lang));
}

}

answering get_prices() { return answered_by<prices_input, prices>(); }
answering get_price_history() { return answered_by<gpu_input, price_history>(); }
answering get_history() { return answered_by<history_input, history>(); }
answering verify_quote() { return answered_by<quote_input, quote>(); }
answering get_gpu() { return answered_by<gpu_input, gpu>(); }
answering list_gpus() { return answered_by<catalog_input, catalog>(); }
answering get_inventory() { return answered_by<inventory_input, inventory>(); }
answering get_methodology() { return answered_by<no_input, methodology>(); }

}
