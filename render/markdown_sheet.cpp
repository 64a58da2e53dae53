// Markdown of the price sheet, the catalog, the sheets history, the audit inputs, the regions and
// the inventory.
#include "render/markdown.hpp"

#include "render/chart.hpp"
#include "render/compact.hpp"
#include "render/markdown_text.hpp"

#include "pricing/money.hpp"
#include "pricing/rules.hpp"

#include <map>
#include <vector>

namespace lcg::render {

namespace {

namespace json = boost::json;
namespace rules = pricing::rules;
using md::at;
using md::escape;
using md::shown;
using md::text;

// What a node of eight holds, where the lesson counts otherwise, and the NVLink rack if any.
std::string node_section(json::object const& g, language l)
{
    auto const& node = md::object_at(g, "node");
    std::string out = "## " + say(l, "gpu.node") + "\n\n" +
                      say(l, "gpu.node_memory", {{"gpus", text(node, "gpus")}, {"vram", shown(l, g, "vram_gb")},
                                                  {"memory", shown(l, node, "memory_gb")}});
    if (auto const& lesson = md::object_at(node, "lesson"); !lesson.empty())
        out += " " + say(l, "gpu.node_lesson", {{"vram", shown(l, lesson, "vram_gb")},
                                                {"memory", shown(l, lesson, "memory_gb")},
                                                {"why", escape(text(lesson, "why"))}});
    out += "\n\n";
    if (auto const& rack = md::object_at(g, "rack"); !rack.empty())
        out += say(l, "gpu.rack", {{"name", escape(text(rack, "name"))}, {"gpus", text(rack, "gpus")},
                                   {"cpus", text(rack, "cpus")}, {"memory", shown(l, rack, "memory_gb")},
                                   {"domain", shown(l, rack, "nvlink_domain_gbs")}, {"note", escape(text(rack, "note"))}}) +
               "\n\n";
    return out;
}

std::string gpu_link(json::object const& row, links const& to, std::string_view id_key = "gpu")
{
    std::string const id = text(row, id_key);
    auto const& name = at(row, "name");
    return md::link(name.is_string() ? std::string(name.get_string()) : id, to("/v1/gpus/" + id));
}

std::string rules_sentence(language l)
{
    return say(l, "sheet.rules", {{"on_demand", md::percent(l, rules::on_demand_of_median)},
                                  {"mill", dollars(l, "0.001")},
                                  {"spot", md::percent(l, rules::spot_of_on_demand)},
                                  {"months", std::to_string(rules::reserved_term_months)},
                                  {"reserved", md::percent(l, rules::reserved_of_on_demand)}});
}

// A tier's name as the pages write it ("on_demand" → "on-demand", "à la demande").
std::string tier_name(language l, std::string_view tier) { return say(l, "tier." + std::string(tier)); }


// "In effect from … until …" of a sheet or a price.
std::string in_effect(json::object const& o, language l)
{
    return say(l, "sheet.in_effect", {{"from", md::when(text(o, "effective_from"))}, {"until", md::when(text(o, "effective_until"))}});
}

// The three rates of a priced model, as a table.
std::string rates_table(json::object const& p, language l)
{
    md::table t{say(l, "col.tier"), ">" + say(l, "col.usd_per_gpu_hour")};
    t.row({say(l, "rate.on_demand"), shown(l, p, "on_demand")});
    t.row({say(l, "rate.spot"), shown(l, p, "spot")});
    t.row({say(l, "rate.reserved", {{"months", std::to_string(rules::reserved_term_months)}}), shown(l, p, "reserved")});
    return t.str();
}

// A rules version 2 row's market (sheet_row_json: `market`, `by_source`), as the pages show it.
bool has_market(json::object const& row) { return !md::object_at(row, "market").empty(); }

// How a page writes the money figures of one model's week (md::amount): rounded to the mill on an
// HTML page, with a link to that week's price of the model as JSON, where every figure is exact.
struct amounts {
    links const& to;
    std::string exact_url;
    amounts(links const& page, std::string_view gpu, std::string_view week)
        : to(page), exact_url(suffixed_url("/v1/prices/" + std::string(gpu), format::json, week.empty() ? "" : "?week=" + std::string(week)))
    {
    }
    std::string operator()(json::object const& o, std::string_view key) const { return md::amount(to, o, key, exact_url); }
};

// "2.300–2.500": the lowest and highest listing.
std::string market_range(amounts const& money, json::object const& row)
{
    auto const& m = md::object_at(row, "market");
    return m.empty() ? "—" : money(m, "min") + "–" + money(m, "max");
}

// "min 2.300 · p25 2.350 · median 2.400 · p75 2.450 · max 2.500".
std::string market_figures(amounts const& money, json::object const& row)
{
    auto const& m = md::object_at(row, "market");
    return say(money.to.lang, "market.figures", {{"min", money(m, "min")},
                                                 {"p25", money(m, "p25")},
                                                 {"median", money(m, "median")},
                                                 {"p75", money(m, "p75")},
                                                 {"max", money(m, "max")}});
}

// "synthetic-alpha 2.300 (1), synthetic-bravo 2.400 (3)": each source's price and its listings.
std::string source_prices(amounts const& money, json::object const& row)
{
    std::string out;
    for (auto const& v : md::array_at(row, "by_source")) {
        auto const& s = v.get_object();
        out += (out.empty() ? "" : ", ") + escape(text(s, "source")) + " " + money(s, "price") + " (" +
               text(s, "listings") + ")";
    }
    return out;
}

// The market of one model's page: its figures, then a table of its sources.
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
                                              {"percent", render::percent(l, shown(l, b, "reserved_break_even_utilisation_percent"))}}) +
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
        tiers += (tiers.empty() ? "" : say(l, "and")) + tier_name(l, text(t));
    out += "- " + say(l, "billing.sla", {{"percent", render::percent(l, shown(l, sla, "monthly_target_percent"))},
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
        amounts const money(to, text(row, "gpu"), week);
        std::vector<std::string> cells;
        if (at(row, "available").is_bool() && at(row, "available").get_bool())
            cells = {gpu_link(row, to), money(row, "median"), money(row, "cap"), money(row, "on_demand"),
                     money(row, "spot"), money(row, "reserved"), money(row, "headroom")};
        else
            cells = {gpu_link(row, to), row.contains("median") ? money(row, "median") : "—", "—",
                     say(l, "not_priced", {{"reason", md::unpriced_reason(l, row)}}), "—", "—", "—"};
        if (market)
            cells.insert(cells.end(), {row.contains("sources") ? shown(l, row, "sources") : "0",
                                       shown(l, row, "observations"), market_range(money, row)});
        else
            cells.push_back(shown(l, row, "observations"));
        if (trend) {
            std::string const id = text(row, "gpu");
            cells.push_back("[![" + say(l, "sheet.trend_alt") + "](/v1/prices/" + id + "/sparkline.svg" +
                            language_query("", l) + ")](" + to("/v1/prices/" + id + "/history") + ")");
        }
        t.row(std::move(cells));
        if (has_market(row))
            by_model += "- " + say(l, "market.model", {{"model", gpu_link(row, to)},
                                                       {"figures", market_figures(money, row)},
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
                       {"inputs", md::link(say(l, "audit.the_inputs"), to("/v1/sheets/" + week + "/observations"))},
                       {"csv", md::link(say(l, "audit.canonical_csv"), "/v1/sheets/" + week + "/observations.csv")},
                       {"sha", md::code(text(s, "inputs_sha256"))}}) + "\n";
    if (at(s, "signature").is_string())
        out += "- " + say(l, "audit.signed", {{"key", md::code(text(s, "key_id"))},
                                              {"bytes", md::link(say(l, "audit.these_bytes"), text(s, "signed_bytes_url"))},
                                              {"signature", md::code(text(s, "signature"))}}) + "\n";
    else
        out += "- " + say(l, "audit.not_signed") + "\n";
    out += "- " + say(l, "audit.rules", {{"link", md::link(say(l, "audit.methodology"), to("/v1/methodology"))}}) + "\n";
    out += "- " + say(l, "audit.other_weeks", {{"link", md::link(say(l, "audit.sheets_history"), to("/v1/sheets"))}}) + "\n";
    return out;
}

std::string price_markdown(json::object const& p, links const& to)
{
    auto const l = to.lang;
    std::string const id = text(p, "gpu");
    std::string const name = p.contains("name") ? text(p, "name") : id;
    std::string out = "# " + say(l, "price.title", {{"model", escape(name)}, {"week", text(p, "week")}}) + "\n\n";
    out += in_effect(p, l) + ". " + rules_sentence(l) + md::rounding_note(to) + "\n\n";
    amounts const money(to, id, text(p, "week"));
    bool const priced = at(p, "available").is_bool() && at(p, "available").get_bool();
    if (priced) {
        out += rates_table(p, l) + "\n";
        out += "- " + say(l, "price.median", {{"median", money(p, "median")}, {"count", shown(l, p, "observations")}}) + "\n";
        out += "- " + say(l, "price.cap", {{"percent", md::percent(l, rules::on_demand_of_median)},
                                           {"cap", money(p, "cap")},
                                           {"headroom", money(p, "headroom")}}) + "\n";
    } else {
        out += say(l, "price.not_priced", {{"reason", md::unpriced_reason(l, p)}}) + "\n\n";
    }
    if (has_market(p))
        out += (priced ? "\n" : "") + market_section(p, money);
    out += "\n" + md::link(say(l, "price.specifications", {{"model", name}}), to("/v1/gpus/" + id)) + " · " +
           md::link(say(l, "price.every_price"), to("/v1/prices")) + "\n";
    return out;
}

std::string price_history_markdown(json::object const& h, links const& to)
{
    auto const l = to.lang;
    std::string const id = text(h, "gpu");
    std::string const name = text(h, "name");
    std::string out = "# " + say(l, "history.title", {{"model", escape(name)}}) + "\n\n";
    out += say(l, "history.intro", {{"count", text(h, "count")}, {"sheet", md::link(say(l, "history.sheet"), to("/v1/sheets"))}}) +
           md::rounding_note(to) + "\n\n";
    out += "![" + say(l, "history.chart_alt", {{"model", escape(name)}}) + "](" + text(h, "chart_url") + language_query("", l) + ")\n\n";
    md::table t{say(l, "col.week"), ">" + say(l, "col.observations"), ">" + say(l, "col.sources"),
                ">" + say(l, "col.median"), ">" + say(l, "col.market_range"), ">" + say(l, "col.cap"),
                ">" + say(l, "rate.on_demand"), ">" + say(l, "col.change"), ">" + say(l, "col.spot"),
                ">" + say(l, "col.reserved"), say(l, "col.note")};
    auto const& weeks = md::array_at(h, "weeks");
    for (std::size_t i = 0; i < weeks.size(); ++i) {
        auto const& w = weeks[i].get_object();
        std::string const week = text(w, "week");
        amounts const money(to, id, week);
        bool const priced = at(w, "available").is_bool() && at(w, "available").get_bool();
        auto const& change = md::object_at(w, "change");
        auto const percent = on_demand_change(weeks, i, l);
        t.row({md::link(week, to("/v1/sheets/" + week)), shown(l, w, "observations"), shown(l, w, "sources"),
               w.contains("median") ? money(w, "median") : "—", market_range(money, w),
               w.contains("cap") ? money(w, "cap") : "—",
               priced ? shown(l, w, "on_demand") : "—",
               change.empty() ? "—" : shown(l, change, "on_demand") + (percent ? " (" + *percent + ")" : ""),
               priced ? shown(l, w, "spot") : "—", priced ? shown(l, w, "reserved") : "—",
               priced ? "" : say(l, "not_priced", {{"reason", md::unpriced_reason(l, w)}})});
    }
    out += t.str() + "\n";
    out += md::link(say(l, "history.this_week", {{"model", name}}), to("/v1/prices/" + id)) + " · " +
           md::link(say(l, "history.every_model"), to("/v1/history")) + " · " +
           md::link("CSV", "/v1/prices/" + id + "/history.csv") + "\n";
    return out;
}

std::string history_table_markdown(json::object const& t, links const& to)
{
    auto const l = to.lang;
    std::string const tier = text(t, "tier");
    std::string out = "# " + say(l, "history_table.title") + "\n\n";
    out += say(l, "history_table.intro",
               {{"tier", escape(tier_name(l, tier))},
                {"count", text(t, "count")},
                {"csv", md::link("CSV", "/v1/history.csv" + std::string(tier == "on_demand" ? "" : "?tier=" + tier))}}) +
           "\n\n";
    auto const& weeks = md::array_at(t, "weeks");
    md::table table{say(l, "col.model"), ">" + say(l, "col.priced_weeks"), say(l, "col.first_week"),
                    ">" + say(l, "col.first_rate"), say(l, "col.latest_week"), ">" + say(l, "col.latest_rate")};
    for (auto const& id_value : md::array_at(t, "gpus")) {
        std::string const id(id_value.get_string());
        int priced = 0;
        std::string first_week, first_rate, last_week, last_rate;
        for (auto const& v : weeks) {
            auto const& rate = at(md::object_at(v.get_object(), "rates"), id);
            if (!rate.is_string())
                continue;
            ++priced;
            if (first_week.empty())
                first_week = text(v.get_object(), "week"), first_rate = shown(l, rate);
            last_week = text(v.get_object(), "week"), last_rate = shown(l, rate);
        }
        table.row({md::link(id, to("/v1/prices/" + id + "/history")), std::to_string(priced),
                   first_week.empty() ? "—" : first_week, first_rate.empty() ? "—" : first_rate,
                   last_week.empty() ? "—" : last_week, last_rate.empty() ? "—" : last_rate});
    }
    out += table.str();
    return out;
}

std::string catalog_markdown(json::object const& c, links const& to)
{
    auto const l = to.lang;
    std::string out = "# " + say(l, "catalog.title") + "\n\n";
    if (is_compact(c))
        return out + say(l, "catalog.models", {{"count", text(c, "count")}}) + "\n\n" + compact_markdown(c);
    out += say(l, "catalog.models", {{"count", text(c, "count")}});
    if (auto const& f = md::object_at(c, "filters"); !f.empty()) {
        std::string filters;
        for (auto const& [key, value] : f) {
            filters += filters.empty() ? "" : ", ";
            filters += escape(key) + " = " + escape(text(value));
        }
        out += " " + say(l, "catalog.matching", {{"filters", filters},
                                                 {"link", md::link(say(l, "catalog.whole"), to("/v1/gpus"))}});
    }
    out += ".";
    if (c.contains("prices_week"))
        out += " " + say(l, "catalog.prices_from", {{"week", md::link(text(c, "prices_week"), to("/v1/prices"))}});
    out += " " + say(l, "catalog.power_score") + " " + say(l, "unconfirmed") + "\n\n";
    md::table t{say(l, "col.gpu"), say(l, "col.vendor"), say(l, "col.architecture"), ">" + say(l, "col.vram_gb"),
                ">" + say(l, "col.bandwidth"), ">" + say(l, "col.fp16"), ">PowerScore", "NVLink", "MIG",
                ">" + say(l, "col.max_gpus"), ">" + say(l, "col.on_demand_rate")};
    for (auto const& v : md::array_at(c, "gpus")) {
        auto const& g = v.get_object();
        auto const& prices = md::object_at(g, "prices");
        std::string od = prices.contains("on_demand") ? shown(l, prices, "on_demand") : "—";
        t.row({gpu_link(g, to, "id"), escape(text(g, "vendor")), escape(text(g, "architecture")), shown(l, g, "vram_gb"),
               shown(l, g, "memory_bandwidth_gbs"), md::figure(l, at(g, "fp16_dense_tflops")), md::figure(l, at(g, "power_score")),
               shown(l, md::object_at(g, "interconnect"), "nvlink"), shown(l, md::object_at(g, "mig"), "supported"),
               text(md::object_at(g, "instance_limits"), "max_gpus"), od});
    }
    out += t.str();
    return out;
}

std::string gpu_markdown(json::object const& g, links const& to)
{
    auto const l = to.lang;
    std::string const id = text(g, "id");
    std::string out = "# " + escape(text(g, "name")) + "\n\n";
    out += say(l, "gpu.summary", {{"vendor", escape(text(g, "vendor"))},
                                  {"architecture", escape(text(g, "architecture"))},
                                  {"form_factor", escape(text(g, "form_factor"))},
                                  {"vram", shown(l, g, "vram_gb")},
                                  {"memory", escape(text(g, "memory_type"))},
                                  {"id", md::code(id)}}) + "\n\n";

    out += "## " + say(l, "gpu.prices") + "\n\n";
    if (auto const& p = md::object_at(g, "prices"); p.empty()) {
        out += say(l, "gpu.no_sheet") + "\n\n";
    } else if (at(p, "available").is_bool() && at(p, "available").get_bool()) {
        out += rates_table(p, l) + "\n" +
               say(l, "gpu.median", {{"median", amounts(to, id, "")(p, "median")},
                                     {"count", shown(l, p, "observations")},
                                     {"max", text(md::object_at(g, "instance_limits"), "max_gpus")}}) + " " +
               md::link(say(l, "gpu.this_week"), to("/v1/prices/" + id)) + ".\n\n";
    } else {
        out += say(l, "gpu.not_priced", {{"reason", md::unpriced_reason(l, p)}}) + "\n\n";
    }
    if (auto const& p = md::object_at(g, "prices"); has_market(p))
        out += market_section(p, amounts(to, id, "")) + "\n";

    out += "## " + say(l, "gpu.specifications") + "\n\n";
    auto const& tflops = md::object_at(g, "fp16_dense_tflops");
    auto const& score = at(g, "power_score");
    auto const& link = md::object_at(g, "interconnect");
    md::table spec{say(l, "col.figure"), say(l, "col.value")};
    spec.row({"VRAM", shown(l, g, "vram_gb") + " GB " + escape(text(g, "memory_type"))});
    spec.row({say(l, "gpu.bandwidth"), shown(l, g, "memory_bandwidth_gbs") + " GB/s"});
    spec.row({say(l, "gpu.fp16"), md::figure(l, tflops) + " TFLOPS" + say(l, "colon") + escape(text(tflops, "convention"))});
    spec.row({"PowerScore", md::figure(l, score) + (score.is_object() ? " (" + escape(text(score.get_object(), "reference")) + ")" : "")});
    spec.row({say(l, "gpu.fp8"), md::figure(l, at(g, "fp8_dense_tflops")) + " TFLOPS"});
    auto const& precisions = md::object_at(g, "precisions");
    spec.row({say(l, "gpu.native_precisions"),
              md::list(md::array_at(precisions, "native")) + " (" + escape(text(precisions, "source")) + ")" +
                  (at(precisions, "caveat").is_string() ? say(l, "semicolon") + " " + escape(text(precisions, "caveat")) : "")});
    spec.row({"TDP", md::figure(l, at(g, "tdp_w")) + " W"});
    spec.row({say(l, "gpu.interconnect"), at(link, "type").is_null()
                                              ? say(l, "gpu.pcie_only")
                                              : escape(text(link, "type")) + ", " + md::figure(l, at(link, "bandwidth_gbs")) +
                                                    " GB/s"});
    out += spec.str();
    out += "\n" + say(l, "unconfirmed") + " " + say(l, "gpu.source", {{"source", escape(text(g, "source"))}}) + "\n\n";

    auto const& mig = md::object_at(g, "mig");
    out += "## MIG\n\n";
    if (at(mig, "supported").is_bool() && at(mig, "supported").get_bool()) {
        out += say(l, "gpu.mig_up_to", {{"count", text(mig, "max_instances")}}) + "\n\n";
        md::table t{say(l, "col.profile"),        ">" + say(l, "col.memory_gb"),    ">" + say(l, "col.memory_fraction"),
                    ">" + say(l, "col.compute_fraction"), ">" + say(l, "col.sms"), ">FP16 TFLOPS", ">FP8 TFLOPS",
                    ">" + say(l, "col.max_instances")};
        for (auto const& v : md::array_at(mig, "profiles")) {
            auto const& p = v.get_object();
            t.row({md::code(text(p, "name")), shown(l, p, "memory_gb"), text(p, "memory_fraction"),
                   text(p, "compute_fraction"), text(p, "sms"), md::figure(l, at(p, "fp16_dense_tflops")),
                   md::figure(l, at(p, "fp8_dense_tflops")), text(p, "max_instances")});
        }
        out += t.str() + "\n" + escape(text(mig, "note")) + ".";
        if (auto const& split = md::object_at(mig, "even_split"); !split.empty())
            out += " " + say(l, "gpu.mig_even_split", {{"sms", text(split, "sms")},
                                                       {"slices", text(split, "slices")},
                                                       {"per_slice", text(split, "sms_per_slice")},
                                                       {"idle", text(split, "idle_sms")}});
        out += "\n\n";
    } else {
        out += say(l, "gpu.mig_unsupported") + "\n\n";
    }

    out += node_section(g, l);

    auto const& limits = md::object_at(g, "instance_limits");
    out += "## " + say(l, "gpu.limits") + "\n\n";
    out += "- " + say(l, "gpu.gpus_per_instance", {{"max", text(limits, "max_gpus")}}) + "\n";
    out += "- " + say(l, "gpu.per_instance", {{"vcpus", shown(l, limits, "max_vcpus")},
                                              {"memory", shown(l, limits, "max_memory_gib")}}) + "\n";
    out += "- " + say(l, "gpu.cpu_generations", {{"list", md::list(md::array_at(limits, "cpu_generations"))}}) + "\n";
    for (auto const& [region, gens] : md::object_at(limits, "extra_cpu_generations_by_region"))
        out += "- " + say(l, "gpu.also_in", {{"region", md::code(region)}, {"list", md::list(gens.as_array())}}) + "\n";
    // An example at the model's limits, which the check accepts.
    auto const& generations = md::array_at(limits, "cpu_generations");
    std::string const example = "?gpu=" + id + "&gpus=" + text(limits, "max_gpus") + "&vcpus=" + text(limits, "max_vcpus") +
                                "&memory_gib=" + text(limits, "max_memory_gib") + "&cpu_generation=" +
                                (generations.empty() ? std::string("v7") : text(generations.front()));
    out += "- " + say(l, "gpu.check", {{"link", md::link(say(l, "gpu.instance_check"), to("/v1/instances/check", example))}}) +
           "\n\n";

    auto const& regions = md::object_at(g, "regions");
    out += "## " + say(l, "gpu.regions") + "\n\n" +
           say(l, "gpu.offered_in", {{"count", text(regions, "count")}, {"list", md::list(md::array_at(regions, "codes"))}}) +
           " " + md::link(say(l, "gpu.all_regions"), to("/v1/regions")) + " · " +
           md::link(say(l, "gpu.the_catalog"), to("/v1/gpus")) + "\n";
    return out;
}

std::string sheet_index_markdown(json::object const& idx, links const& to)
{
    auto const l = to.lang;
    std::string out = "# " + say(l, "sheets.title") + "\n\n";
    out += say(l, "sheets.intro", {{"count", text(idx, "count")}});
    if (auto const& current = at(idx, "current"); current.is_string())
        out += " " + say(l, "sheets.in_effect", {{"week", md::link(text(current), to("/v1/prices"))}});
    out += "\n\n";
    md::table t{say(l, "col.week"), say(l, "col.effective_from"), say(l, "col.until"), say(l, "col.published"),
                ">" + say(l, "col.priced_models"), ">" + say(l, "col.observations"), say(l, "col.inputs")};
    for (auto const& v : md::array_at(idx, "sheets")) {
        auto const& s = v.get_object();
        std::string const week = text(s, "week");
        bool const corrected = at(s, "corrected").is_bool() && at(s, "corrected").as_bool();
        t.row({md::link(week, to("/v1/sheets/" + week)) + (corrected ? " " + say(l, "feed.corrected_title") : ""),
               md::when(text(s, "effective_from")),
               md::when(text(s, "effective_until")), md::when(text(s, "published_at")),
               say(l, "sheets.of", {{"priced", text(s, "priced_models")}, {"models", text(s, "models")}}),
               shown(l, s, "observations"),
               md::link(say(l, "sheets.observations"), to("/v1/sheets/" + week + "/observations")) + " (" +
                   md::link("CSV", "/v1/sheets/" + week + "/observations.csv") + ")"});
    }
    out += t.str();
    return out;
}

std::string observations_markdown(json::object const& o, links const& to)
{
    auto const l = to.lang;
    std::string const week = text(o, "week");
    std::string out = "# " + say(l, "inputs.title", {{"week", week}}) + "\n\n";
    out += say(l, "inputs.count", {{"count", text(o, "count")},
                                   {"from", md::when(text(o, "window_from"))},
                                   {"until", md::when(text(o, "window_until"))}}) +
           "\n\n";
    out += say(l, "inputs.files", {{"csv", md::link(say(l, "inputs.csv"), "/v1/sheets/" + week + "/observations.csv")},
                                   {"sha", md::code(text(o, "inputs_sha256"))},
                                   {"sheet", md::link(say(l, "inputs.sheet"), to("/v1/sheets/" + week))}}) +
           "\n\n";
    md::table t{say(l, "col.gpu"), ">" + say(l, "col.observations"), ">" + say(l, "col.lowest"), ">" + say(l, "col.highest")};
    for (auto const& v : md::array_at(o, "models")) {
        auto const& m = v.get_object();
        std::string const gpu = text(m, "gpu");
        t.row({md::link(gpu, to("/v1/gpus/" + gpu)), text(m, "count"), shown(l, m, "lowest"), shown(l, m, "highest")});
    }
    out += t.empty() ? say(l, "inputs.none") + "\n" : t.str();
    return out;
}

std::string regions_markdown(json::object const& r, links const& to)
{
    auto const l = to.lang;
    std::string out = "# " + say(l, "regions.title") + "\n\n";
    out += say(l, "regions.intro", {{"count", text(r, "count")},
                                    {"continents", text(r, "continents")},
                                    {"note", escape(text(r, "note"))},
                                    {"link", md::link(say(l, "regions.prices"), to("/v1/prices"))}}) +
           "\n\n";
    md::table t{say(l, "col.code"), say(l, "col.city"), say(l, "col.country"), say(l, "col.continent"),
                say(l, "col.sovereign")};
    for (auto const& v : md::array_at(r, "regions")) {
        auto const& reg = v.get_object();
        t.row({md::code(text(reg, "code")), escape(text(reg, "city")), escape(text(reg, "country")),
               escape(text(reg, "continent")), shown(l, reg, "sovereign")});
    }
    out += t.str();
    return out;
}

std::string sources_markdown(json::object const& s, links const& to)
{
    auto const l = to.lang;
    std::string out = "# " + say(l, "sources.title") + "\n\n";
    out += say(l, "sources.intro", {{"count", text(s, "count")},
                                    {"version", text(s, "rules_version")},
                                    {"link", md::link(say(l, "sources.methodology"), to("/v1/methodology"))}}) +
           " " + escape(text(s, "note")) + "\n\n";
    out += md::sources_table(l, md::array_at(s, "sources"));
    return out;
}

std::string raw_inputs_markdown(json::object const& r, links const& to)
{
    auto const l = to.lang;
    std::string const week = text(r, "week");
    std::string const base = "/v1/sheets/" + week + "/";
    std::string out = "# " + say(l, "raw_inputs.title", {{"week", week}}) + "\n\n";
    out += say(l, "raw_inputs.intro", {{"count", text(r, "count")},
                                       {"csv", md::link(say(l, "inputs.csv"), base + "observations.csv")},
                                       {"sha", md::code(text(r, "inputs_sha256"))},
                                       {"sheet", md::link(say(l, "inputs.sheet"), to("/v1/sheets/" + week))}}) +
           "\n\n";
    md::table t{say(l, "col.source"), say(l, "col.format"), say(l, "col.observed_at"), ">" + say(l, "col.bytes"),
                say(l, "col.file"), say(l, "col.mapping")};
    for (auto const& v : md::array_at(r, "files")) {
        auto const& f = v.get_object();
        std::string const sha = text(f, "sha256"), mapping = text(f, "mapping_sha256");
        t.row({escape(text(f, "source")), md::code(text(f, "format")), md::when(text(f, "observed_at")),
               shown(l, f, "bytes"), md::link(sha.substr(0, 12), base + text(f, "path")),
               md::link(mapping.substr(0, 12), base + "sources/" + mapping)});
    }
    out += t.empty() ? say(l, "raw_inputs.none") + "\n" : t.str();
    return out;
}

std::string inventory_markdown(json::object const& inv, links const& to)
{
    auto const l = to.lang;
    std::string out = "# " + say(l, "inventory.title") + "\n\n";
    out += say(l, "inventory.intro", {{"note", escape(text(inv, "note"))}}) + "\n\n";
    md::table t{say(l, "col.gpu"), ">" + say(l, "col.free_gpus"), ">" + say(l, "col.regions_with_stock"),
                ">" + say(l, "col.max_gpus")};
    std::string detail;
    for (auto const& v : md::array_at(inv, "gpus")) {
        auto const& g = v.get_object();
        std::string const id = text(g, "gpu");
        auto const& regions = md::array_at(g, "regions");
        t.row({md::link(id, to("/v1/gpus/" + id)), shown(l, g, "available_gpus"), std::to_string(regions.size()),
               text(g, "max_gpus_per_instance")});
        if (regions.empty())
            continue;
        detail += "- **" + escape(id) + "**" + say(l, "colon");
        bool first = true;
        for (auto const& rv : regions) {
            auto const& reg = rv.get_object();
            detail += first ? "" : ", ";
            detail += text(reg, "region") + " " + shown(l, reg, "available_gpus");
            first = false;
        }
        detail += "\n";
    }
    out += t.str();
    if (!detail.empty())
        out += "\n## " + say(l, "inventory.by_region") + "\n\n" + detail;
    return out;
}

}
