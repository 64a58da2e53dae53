#include "render/markdown_prices.hpp"
#include "render/resources.hpp"

#include "pricing/rules.hpp"

namespace lcg::render::md {

namespace json = boost::json;
namespace rules = pricing::rules;

std::string gpu_link(json::object const& row, links const& to, std::string_view id_key)
{
    std::string const id = text(row, id_key);
    auto const& name = at(row, "name");
    return md::link(name.is_string() ? std::string(name.get_string()) : id, to(path_of(resource::gpu, id)));
}

std::string tier_name(language l, std::string_view tier) { return say(l, "tier." + std::string(tier)); }

std::string rates_table(json::object const& p, language l)
{
    md::table t{say(l, "col.tier"), ">" + say(l, "col.usd_per_gpu_hour")};
    t.row({say(l, "rate.on_demand"), shown(l, p, "on_demand")});
    t.row({say(l, "rate.spot"), shown(l, p, "spot")});
    t.row({say(l, "rate.reserved", {{"months", std::to_string(rules::reserved_term_months)}}), shown(l, p, "reserved")});
    return t.str();
}

bool has_market(json::object const& row) { return !md::object_at(row, "market").empty(); }

std::string market_range(amounts const& money, json::object const& row)
{
    auto const& m = md::object_at(row, "market");
    return m.empty() ? "—" : money(m, "min") + "–" + money(m, "max");
}

std::string market_figures(amounts const& money, json::object const& row)
{
    auto const& m = md::object_at(row, "market");
    return say(money.to.lang, "market.figures", {{"min", money(m, "min")},
                                                 {"p25", money(m, "p25")},
                                                 {"median", money(m, "median")},
                                                 {"p75", money(m, "p75")},
                                                 {"max", money(m, "max")}});
}

std::string market_section(json::object const& row, amounts const& money)
{
    auto const l = money.to.lang;
    std::string out = say(l, "market.of_model", {{"listings", shown(l, row, "listings")},
                                                 {"sources", shown(l, row, "sources")},
                                                 {"figures", market_figures(money, row)}}) + "\n\n";
    md::table t{say(l, "col.source"), ">" + say(l, "col.source_price"), ">" + say(l, "col.listings")};
    for (auto const& v : md::array_at(row, "by_source")) {
        auto const& s = v.get_object();
        t.row({escape(text(s, "source")), money(s, "price"), shown(l, s, "listings")});
    }
    return out + t.str();
}

}
