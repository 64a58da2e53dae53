// Markdown of the price sheet and of one model's price on it, with the billing terms.
#include "render/markdown.hpp"
#include "render/resources.hpp"

#include "render/compact.hpp"
#include "render/markdown_prices.hpp"
#include "render/markdown_text.hpp"

#include "pricing/rules.hpp"

#include <vector>

namespace lcg::render {

namespace {

namespace json = boost::json;
namespace rules = pricing::rules;
using namespace md::reading;

std::string rules_sentence(language l)
{
    return say(l, "sheet.rules", {{"on_demand", md::percent(l, rules::on_demand_of_median)},
                                  {"mill", dollars(l, "0.001")},
                                  {"spot", md::percent(l, rules::spot_of_on_demand)},
                                  {"months", std::to_string(rules::reserved_term_months)},
                                  {"reserved", md::percent(l, rules::reserved_of_on_demand)}});
}

// "In effect from … until …" of a sheet or a price.
std::string in_effect(json::object const& o, language l)
{
    return say(l, "sheet.in_effect", {{"from", md::when(text(o, "effective_from"))}, {"until", md::when(text(o, "effective_until"))}});
}

// "synthetic-alpha 2.300 (1), synthetic-bravo 2.400 (3)": each source's price and its listings.
std::string source_prices(md::amounts const& money, json::object const& row)
{
    std::string out;
    for (auto const& v : md::array_at(row, "by_source")) {
        auto const& s = v.get_object();
        out += (out.empty() ? "" : ", ") + escape(text(s, "source")) + " " + money(s, "price") + " (" +
               text(s, "listings") + ")";
    }
    return out;
}

}

std::string billing_section(json::object const& b, language l)
{
    auto const& account = md::object_at(b, "account");
    auto const& sla = md::object_at(b, "sla");
    std::string out = "## " + say(l, "billing.title") + "\n\n";
    out += "- " + say(l, "billing.granularity", {{"text", escape(text(b, "billing_granularity"))}}) + "\n";
    out += "- " + say(l, "billing.instances", {{"text", escape(text(b, "multi_gpu"))}}) + "\n";
    out += "- " + say(l, "billing.storage", {{"price", dollars(l, text(b, "storage_per_gb_month"))},
                                             {"text", escape(text(b, "storage_note"))}}) + "\n";
    out += "- " + say(l, "billing.network", {{"price", dollars(l, text(b, "network_per_gb"))},
                                             {"text", escape(text(b, "network_note"))}}) + "\n";
    out += "- " + say(l, "billing.regions", {{"text", escape(text(b, "regions_note"))}}) + "\n";
    out += "- " + say(l, "billing.reserved", {{"months", text(b, "reserved_term_months")},
                                              {"percent", locale::percent(l, shown(l, b, "reserved_break_even_utilisation_percent"))}}) +
           "\n";
    auto const& locked = md::object_at(b, "rate_locked");
    out += "- " + say(l, "billing.locked", {{"on_demand", escape(text(locked, "on_demand"))},
                                            {"reserved", escape(text(locked, "reserved"))}}) + "\n";
    auto const& spot = md::object_at(b, "spot");
    auto const yes_no = [&](json::object const& o, std::string_view key) { return say(l, text(o, key) == "yes" ? "yes" : "no"); };
    out += "- " + say(l, "billing.spot", {{"bidding", yes_no(spot, "bidding")},
                                          {"disk_kept", yes_no(spot, "disk_kept_when_interrupted")},
                                          {"requeued", yes_no(spot, "requeued_automatically")}}) + "\n";
    out += "- " + say(l, "billing.tenancy", {{"text", escape(text(md::object_at(b, "tenancy"), "note"))},
                                             {"tier", escape(text(b, "data_centre_tier"))}}) + "\n";
    std::string assets;
    for (auto const& a : md::array_at(account, "payment_assets"))
        assets += (assets.empty() ? "" : ", ") + text(a.get_object(), "asset") + " (" +
                  md::list(md::array_at(a.get_object(), "networks")) + ")";
    out += "- " + say(l, "billing.account", {{"text", escape(text(account, "balance"))},
                                             {"refundable", yes_no(account, "balance_refundable")},
                                             {"price", dollars(l, text(account, "minimum_top_up"))},
                                             {"identity", escape(text(account, "identity"))},
                                             {"assets", assets}}) + "\n";
    std::string tiers;
    for (auto const& t : md::array_at(sla, "applies_to"))
        tiers += (tiers.empty() ? "" : say(l, "and")) + md::tier_name(l, text(t));
    out += "- " + say(l, "billing.sla", {{"percent", locale::percent(l, shown(l, sla, "monthly_target_percent"))},
                                         {"tiers", tiers},
                                         {"remedy", escape(text(sla, "remedy"))}}) + "\n";
    return out;
}

// How the sheet came to be, from its `publication` member: late (how long after its Monday) and
// corrected (each earlier version, linked, with the reason given), or nothing to say.
std::string publication_notes(json::object const& s, language l)
{
    auto const& p = md::object_at(s, "publication");
    if (p.empty())
        return {};
    std::string out;
    if (auto const late = md::at(p, "late_by_seconds"); late.is_int64() && late.as_int64() > 0) {
        auto const hours = late.as_int64() / 3600;
        out += say(l, "sheet.late", {{"days", std::to_string(hours / 24)}, {"hours", std::to_string(hours % 24)}}) + "\n\n";
    }
    if (!md::at(p, "corrected").is_bool() || !md::at(p, "corrected").as_bool())
        return out;
    std::string versions;
    for (auto const& v : md::array_at(p, "versions")) {
        auto const& version = v.as_object();
        if (text(version, "kind") == "signature")
            continue;
        versions += "\n- " + md::link(md::when(text(version, "published_at")), text(version, "signed_bytes")) + " (" +
                    say(l, "sheet.version_" + text(version, "kind")) +
                    (md::at(version, "reason").is_string() ? ": " + md::escape(text(version, "reason")) : "") + ")";
    }
    return out + say(l, "sheet.corrected") + versions + "\n\n";
}

std::string sheet_markdown(json::object const& s, links const& to)
{
    auto const l = to.lang;
    std::string const week = text(s, "week");
    std::string out = "# " + say(l, "sheet.title", {{"week", week}}) + "\n\n";
    out += in_effect(s, l) + say(l, "sheet.published", {{"at", md::when(text(s, "published_at"))}}) + "\n\n";
    out += publication_notes(s, l);
    out += say(l, "sheet.unit") + " " + rules_sentence(l) + md::rounding_note(to) + "\n\n";
    if (is_compact(s))
        return out + compact_markdown(s);
    std::string const cap_column = ">" + say(l, "col.cap_of_median", {{"percent", md::percent(l, rules::on_demand_of_median)}});
    // The HTML page adds each model's on-demand trend, a small chart linking to its history.
    bool const trend = to.target == render::format::html;
    // Under rules version 2 a row counts listings from sources, and shows their range.
    auto const& version = at(s, "rules_version");
    bool const market = version.is_int64() && version.get_int64() >= 2;
    std::vector<std::string> columns{say(l, "col.gpu"),       ">" + say(l, "col.market_median"), cap_column,
                                     ">" + say(l, "rate.on_demand"), ">" + say(l, "col.spot"),  ">" + say(l, "col.reserved"),
                                     ">" + say(l, "col.headroom")};
    if (market)
        columns.insert(columns.end(), {">" + say(l, "col.sources"), ">" + say(l, "col.listings"), ">" + say(l, "col.market_range")});
    else
        columns.push_back(">" + say(l, "col.observations"));
    if (trend)
        columns.push_back(say(l, "col.trend"));
    md::table t(columns);
    std::string by_model;
    for (auto const& v : md::array_at(s, "prices")) {
        auto const& row = v.get_object();
        md::amounts const money(to, text(row, "gpu"), week);
        std::vector<std::string> cells;
        if (at(row, "available").is_bool() && at(row, "available").get_bool())
            cells = {md::gpu_link(row, to), money(row, "median"), money(row, "cap"), money(row, "on_demand"),
                     money(row, "spot"), money(row, "reserved"), money(row, "headroom")};
        else
            cells = {md::gpu_link(row, to), row.contains("median") ? money(row, "median") : "—", "—",
                     say(l, "not_priced", {{"reason", md::unpriced_reason(l, row)}}), "—", "—", "—"};
        if (market)
            cells.insert(cells.end(), {row.contains("sources") ? shown(l, row, "sources") : "0",
                                       shown(l, row, "observations"), md::market_range(money, row)});
        else
            cells.push_back(shown(l, row, "observations"));
        if (trend) {
            std::string const id = text(row, "gpu");
            cells.push_back("[![" + say(l, "sheet.trend_alt") + "](/v1/prices/" + id + "/sparkline.svg" +
                            language_query("", l) + ")](" + to(path_of(resource::price_history, id)) + ")");
        }
        t.row(std::move(cells));
        if (md::has_market(row))
            by_model += "- " + say(l, "market.model", {{"model", md::gpu_link(row, to)},
                                                       {"figures", md::market_figures(money, row)},
                                                       {"sources", source_prices(money, row)}}) + "\n";
    }
    out += t.str();
    // A filtered sheet (/v1/prices?vendor=…) shows fewer rows than the sheet prices: say both.
    out += "\n" + say(l, "sheet.rows", {{"rows", std::to_string(md::array_at(s, "prices").size())},
                                       {"priced", text(s, "priced_models")}}) + "\n\n";
    if (!by_model.empty())
        out += "## " + say(l, "market.title") + "\n\n" + say(l, "market.intro") + "\n\n" + by_model + "\n";
    out += billing_section(md::object_at(s, "billing"), l);
    out += "\n## " + say(l, "audit.title") + "\n\n";
    out += "- " + say(l, "audit.computed_from",
                      {{"count", shown(l, s, "observations")},
                       {"inputs", md::link(say(l, "audit.the_inputs"), to(path_of(resource::observations, week)))},
                       {"csv", md::link(say(l, "audit.canonical_csv"), path_of(resource::observations, week) + ".csv")},
                       {"sha", md::code(text(s, "inputs_sha256"))}}) + "\n";
    if (at(s, "signature").is_string())
        out += "- " + say(l, "audit.signed", {{"key", md::code(text(s, "key_id"))},
                                              {"bytes", md::link(say(l, "audit.these_bytes"), text(s, "signed_bytes_url"))},
                                              {"signature", md::code(text(s, "signature"))}}) + "\n";
    else
        out += "- " + say(l, "audit.not_signed") + "\n";
    out += "- " + say(l, "audit.rules", {{"link", md::link(say(l, "audit.methodology"), to(path_of(resource::methodology)))}}) + "\n";
    out += "- " + say(l, "audit.other_weeks", {{"link", md::link(say(l, "audit.sheets_history"), to(path_of(resource::sheets)))}}) + "\n";
    return out;
}

std::string price_markdown(json::object const& p, links const& to)
{
    auto const l = to.lang;
    std::string const id = text(p, "gpu");
    std::string const name = p.contains("name") ? text(p, "name") : id;
    std::string out = "# " + say(l, "price.title", {{"model", escape(name)}, {"week", text(p, "week")}}) + "\n\n";
    out += in_effect(p, l) + ". " + rules_sentence(l) + md::rounding_note(to) + "\n\n";
    md::amounts const money(to, id, text(p, "week"));
    bool const priced = at(p, "available").is_bool() && at(p, "available").get_bool();
    if (priced) {
        out += md::rates_table(p, l) + "\n";
        out += "- " + say(l, "price.median", {{"median", money(p, "median")}, {"count", shown(l, p, "observations")}}) + "\n";
        out += "- " + say(l, "price.cap", {{"percent", md::percent(l, rules::on_demand_of_median)},
                                           {"cap", money(p, "cap")},
                                           {"headroom", money(p, "headroom")}}) + "\n";
    } else {
        out += say(l, "price.not_priced", {{"reason", md::unpriced_reason(l, p)}}) + "\n\n";
    }
    if (md::has_market(p))
        out += (priced ? "\n" : "") + md::market_section(p, money);
    out += "\n" + md::link(say(l, "price.specifications", {{"model", name}}), to(path_of(resource::gpu, id))) + " · " +
           md::link(say(l, "price.every_price"), to(path_of(resource::prices))) + "\n";
    return out;
}

}
