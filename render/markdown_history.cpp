// Markdown of the sheets' history (the index of sheets, one model's weeks, every model's weeks)
// and of a week's audit inputs (its observations, its raw market files).
#include "render/markdown.hpp"
#include "render/resources.hpp"

#include "render/chart.hpp"
#include "render/markdown_prices.hpp"
#include "render/markdown_text.hpp"

namespace lcg::render {

namespace {

namespace json = boost::json;
using namespace md::reading;

}

std::string sheet_index_markdown(json::object const& idx, links const& to)
{
    auto const l = to.lang;
    std::string out = "# " + say(l, "sheets.title") + "\n\n";
    out += say(l, "sheets.intro", {{"count", text(idx, "count")}});
    if (auto const& current = at(idx, "current"); current.is_string())
        out += " " + say(l, "sheets.in_effect", {{"week", md::link(text(current), to(path_of(resource::prices)))}});
    out += "\n\n";
    md::table t{say(l, "col.week"), say(l, "col.effective_from"), say(l, "col.until"), say(l, "col.published"),
                ">" + say(l, "col.priced_models"), ">" + say(l, "col.observations"), say(l, "col.inputs")};
    for (auto const& v : md::array_at(idx, "sheets")) {
        auto const& s = v.get_object();
        std::string const week = text(s, "week");
        bool const corrected = at(s, "corrected").is_bool() && at(s, "corrected").as_bool();
        t.row({md::link(week, to(path_of(resource::sheet, week))) + (corrected ? " " + say(l, "feed.corrected_title") : ""),
               md::when(text(s, "effective_from")),
               md::when(text(s, "effective_until")), md::when(text(s, "published_at")),
               say(l, "sheets.of", {{"priced", text(s, "priced_models")}, {"models", text(s, "models")}}),
               shown(l, s, "observations"),
               md::link(say(l, "sheets.observations"), to(path_of(resource::observations, week))) + " (" +
                   md::link("CSV", path_of(resource::observations, week) + ".csv") + ")"});
    }
    out += t.str();
    return out;
}

std::string price_history_markdown(json::object const& h, links const& to)
{
    auto const l = to.lang;
    std::string const id = text(h, "gpu");
    std::string const name = text(h, "name");
    std::string out = "# " + say(l, "history.title", {{"model", escape(name)}}) + "\n\n";
    out += say(l, "history.intro", {{"count", text(h, "count")}, {"sheet", md::link(say(l, "history.sheet"), to(path_of(resource::sheets)))}}) +
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
        md::amounts const money(to, id, week);
        bool const priced = at(w, "available").is_bool() && at(w, "available").get_bool();
        auto const& change = md::object_at(w, "change");
        auto const percent = on_demand_change(weeks, i, l);
        t.row({md::link(week, to(path_of(resource::sheet, week))), shown(l, w, "observations"), shown(l, w, "sources"),
               w.contains("median") ? money(w, "median") : "—", md::market_range(money, w),
               w.contains("cap") ? money(w, "cap") : "—",
               priced ? shown(l, w, "on_demand") : "—",
               change.empty() ? "—" : shown(l, change, "on_demand") + (percent ? " (" + *percent + ")" : ""),
               priced ? shown(l, w, "spot") : "—", priced ? shown(l, w, "reserved") : "—",
               priced ? "" : say(l, "not_priced", {{"reason", md::unpriced_reason(l, w)}})});
    }
    out += t.str() + "\n";
    out += md::link(say(l, "history.this_week", {{"model", name}}), to(path_of(resource::price, id))) + " · " +
           md::link(say(l, "history.every_model"), to(path_of(resource::history))) + " · " +
           md::link("CSV", path_of(resource::price_history, id) + ".csv") + "\n";
    return out;
}

std::string history_table_markdown(json::object const& t, links const& to)
{
    auto const l = to.lang;
    std::string const tier = text(t, "tier");
    std::string out = "# " + say(l, "history_table.title") + "\n\n";
    out += say(l, "history_table.intro",
               {{"tier", escape(md::tier_name(l, tier))},
                {"count", text(t, "count")},
                {"csv", md::link("CSV", suffixed_url(path_of(resource::history), format::csv) + std::string(tier == "on_demand" ? "" : "?tier=" + tier))}}) +
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
        table.row({md::link(id, to(path_of(resource::price_history, id))), std::to_string(priced),
                   first_week.empty() ? "—" : first_week, first_rate.empty() ? "—" : first_rate,
                   last_week.empty() ? "—" : last_week, last_rate.empty() ? "—" : last_rate});
    }
    out += table.str();
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
    out += say(l, "inputs.files", {{"csv", md::link(say(l, "inputs.csv"), path_of(resource::observations, week) + ".csv")},
                                   {"sha", md::code(text(o, "inputs_sha256"))},
                                   {"sheet", md::link(say(l, "inputs.sheet"), to(path_of(resource::sheet, week)))}}) +
           "\n\n";
    md::table t{say(l, "col.gpu"), ">" + say(l, "col.observations"), ">" + say(l, "col.lowest"), ">" + say(l, "col.highest")};
    for (auto const& v : md::array_at(o, "models")) {
        auto const& m = v.get_object();
        std::string const gpu = text(m, "gpu");
        t.row({md::link(gpu, to(path_of(resource::gpu, gpu))), text(m, "count"), shown(l, m, "lowest"), shown(l, m, "highest")});
    }
    out += t.empty() ? say(l, "inputs.none") + "\n" : t.str();
    return out;
}

std::string raw_inputs_markdown(json::object const& r, links const& to)
{
    auto const l = to.lang;
    std::string const week = text(r, "week");
    std::string const base = path_of(resource::sheet, week) + "/";
    std::string out = "# " + say(l, "raw_inputs.title", {{"week", week}}) + "\n\n";
    out += say(l, "raw_inputs.intro", {{"count", text(r, "count")},
                                       {"csv", md::link(say(l, "inputs.csv"), path_of(resource::observations, week) + ".csv")},
                                       {"sha", md::code(text(r, "inputs_sha256"))},
                                       {"sheet", md::link(say(l, "inputs.sheet"), to(path_of(resource::sheet, week)))}}) +
           "\n\n";
    md::table t{say(l, "col.source"), say(l, "col.format"), say(l, "col.observed_at"), ">" + say(l, "col.bytes"),
                say(l, "col.file"), say(l, "col.mapping")};
    for (auto const& v : md::array_at(r, "files")) {
        auto const& f = v.get_object();
        std::string const sha = text(f, "sha256"), mapping = text(f, "mapping_sha256");
        t.row({escape(text(f, "source")), md::code(text(f, "format")), md::when(text(f, "observed_at")),
               shown(l, f, "bytes"), md::link(sha.substr(0, 12), base + text(f, "path")),
               md::link(mapping.substr(0, 12), path_of(resource::raw_file, week, mapping))});
    }
    out += t.empty() ? say(l, "raw_inputs.none") + "\n" : t.str();
    return out;
}

}
