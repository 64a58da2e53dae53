#include "render/csv.hpp"

#include "render/compact.hpp"

#include "render/markdown_text.hpp"

#include "pricing/observation.hpp"

#include <algorithm>
#include <string_view>

namespace lcg::render {

namespace {

namespace json = boost::json;
using md::at;

// A scalar as a CSV field: no "—" for null, true/false for booleans.
std::string field(json::value const& v)
{
    switch (v.kind()) {
    case json::kind::null: return "";
    case json::kind::bool_: return v.get_bool() ? "true" : "false";
    default: return md::text(v);
    }
}

std::string field(json::object const& o, std::string_view key) { return field(at(o, key)); }

std::string joined(json::array const& items)
{
    std::string out;
    for (auto const& v : items) {
        if (!out.empty())
            out += "; ";
        out += field(v);
    }
    return out;
}

std::string figure_value(json::value const& v) { return v.is_object() ? field(v.get_object(), "value") : ""; }
std::string figure_confirmed(json::value const& v) { return v.is_object() ? field(v.get_object(), "confirmed") : ""; }

// The columns a sheet row's market adds (render::sheet_row_json), after the row's own, and the
// document's `sample`. `by_source` is "source:price:listings" for each source, space-separated.
constexpr std::string_view market_columns[] = {"sources",    "listings",   "market_min", "market_p25", "market_median",
                                               "market_p75", "market_max", "by_source",  "sample"};

// A source name as a by_source item writes it: the separators it may hold (space, colon) and the
// escape itself percent-encoded, so that every item splits back unambiguously.
std::string item_name(std::string_view source)
{
    std::string out;
    for (char c : source) {
        if (c == '%')
            out += "%25";
        else if (c == ' ')
            out += "%20";
        else if (c == ':')
            out += "%3A";
        else
            out += c;
    }
    return out;
}

std::vector<std::string> with_market_columns(std::vector<std::string> header)
{
    header.insert(header.end(), std::begin(market_columns), std::end(market_columns));
    return header;
}

std::vector<std::string> with_market(std::vector<std::string> record, json::object const& row, std::string const& sample)
{
    auto const& m = md::object_at(row, "market");
    std::string by_source;
    for (auto const& v : md::array_at(row, "by_source")) {
        auto const& s = v.get_object();
        by_source += (by_source.empty() ? "" : " ") + item_name(field(s, "source")) + ":" + field(s, "price") + ":" +
                     field(s, "listings");
    }
    record.insert(record.end(), {field(row, "sources"), field(row, "listings"), field(m, "min"), field(m, "p25"),
                                 field(m, "median"), field(m, "p75"), field(m, "max"), std::move(by_source), sample});
    return record;
}

}

namespace {

bool is_plain_number(std::string_view s)
{
    if (!s.empty() && (s.front() == '-' || s.front() == '+'))
        s.remove_prefix(1);
    auto const dot = s.find('.');
    auto const digits = [](std::string_view d) {
        return !d.empty() && std::all_of(d.begin(), d.end(), [](char c) { return c >= '0' && c <= '9'; });
    };
    return dot == std::string_view::npos ? digits(s) : digits(s.substr(0, dot)) && digits(s.substr(dot + 1));
}

// OWASP's CSV-injection advice: a cell a spreadsheet would read as a formula (it starts with = + - @,
// a tab or a carriage return) gets a leading apostrophe, unless it is a plain signed number.
std::string neutralised(std::string const& cell)
{
    if (cell.empty() || std::string_view("=+-@\t\r").find(cell.front()) == std::string_view::npos ||
        is_plain_number(cell))
        return cell;
    return "'" + cell;
}

}

std::string csv_record(std::vector<std::string> const& fields)
{
    std::string out;
    for (auto const& f : fields) {
        if (&f != &fields.front())
            out += ',';
        pricing::append_csv_field(out, neutralised(f));
    }
    return out + "\n";
}

std::string sheet_csv(json::object const& s)
{
    if (is_compact(s))
        return compact_csv(s);
    std::string out = csv_record(with_market_columns({"week", "gpu", "name", "available", "observations", "median", "cap",
                                                      "on_demand", "spot", "reserved", "headroom", "currency", "unit",
                                                      "reason"}));
    std::string const week = field(s, "week");
    std::string const sample = field(s, "sample");
    for (auto const& v : md::array_at(s, "prices")) {
        auto const& r = v.get_object();
        out += csv_record(with_market({week, field(r, "gpu"), field(r, "name"), field(r, "available"),
                                       field(r, "observations"), field(r, "median"), field(r, "cap"),
                                       field(r, "on_demand"), field(r, "spot"), field(r, "reserved"),
                                       field(r, "headroom"), "USD", "per GPU-hour", field(r, "reason")},
                                      r, sample));
    }
    return out;
}

std::string price_history_csv(json::object const& h)
{
    std::string out = csv_record(with_market_columns({"gpu", "week", "effective_from", "effective_until", "available",
                                                      "observations", "median", "cap", "on_demand", "spot", "reserved",
                                                      "on_demand_change", "spot_change", "reserved_change", "currency",
                                                      "unit", "reason"}));
    std::string const gpu = field(h, "gpu");
    std::string const sample = field(h, "sample");
    for (auto const& v : md::array_at(h, "weeks")) {
        auto const& w = v.get_object();
        auto const& change = md::object_at(w, "change");
        out += csv_record(with_market({gpu, field(w, "week"), field(w, "effective_from"), field(w, "effective_until"),
                                       field(w, "available"), field(w, "observations"), field(w, "median"),
                                       field(w, "cap"), field(w, "on_demand"), field(w, "spot"), field(w, "reserved"),
                                       field(change, "on_demand"), field(change, "spot"), field(change, "reserved"),
                                       "USD", "per GPU-hour", field(w, "reason")},
                                      w, sample));
    }
    return out;
}

std::string history_table_csv(json::object const& t)
{
    std::vector<std::string> header{"week", "effective_from"};
    for (auto const& id : md::array_at(t, "gpus"))
        header.push_back(field(id));
    std::string out = csv_record(header);
    for (auto const& v : md::array_at(t, "weeks")) {
        auto const& w = v.get_object();
        auto const& rates = md::object_at(w, "rates");
        std::vector<std::string> record{field(w, "week"), field(w, "effective_from")};
        for (auto const& id : md::array_at(t, "gpus"))
            record.push_back(field(rates, id.get_string()));
        out += csv_record(record);
    }
    return out;
}

std::string catalog_csv(json::object const& c)
{
    if (is_compact(c))
        return compact_csv(c);
    std::string out = csv_record({"id", "name", "vendor", "architecture", "form_factor", "vram_gb", "memory_type",
                                  "memory_bandwidth_gbs", "fp16_dense_tflops", "fp16_dense_tflops_confirmed",
                                  "power_score", "fp8_dense_tflops", "tdp_w", "nvlink", "nvlink_gbs", "mig",
                                  "mig_max_instances", "max_gpus_per_instance", "max_vcpus", "max_memory_gib",
                                  "cpu_generations", "regions", "prices_week", "on_demand", "spot", "reserved",
                                  "sample"});
    std::string const week = field(c, "prices_week");
    std::string const sample = field(c, "sample");
    for (auto const& v : md::array_at(c, "gpus")) {
        auto const& g = v.get_object();
        auto const& link = md::object_at(g, "interconnect");
        auto const& mig = md::object_at(g, "mig");
        auto const& limits = md::object_at(g, "instance_limits");
        auto const& prices = md::object_at(g, "prices");
        out += csv_record({field(g, "id"), field(g, "name"), field(g, "vendor"), field(g, "architecture"),
                           field(g, "form_factor"), field(g, "vram_gb"), field(g, "memory_type"),
                           field(g, "memory_bandwidth_gbs"), figure_value(at(g, "fp16_dense_tflops")),
                           figure_confirmed(at(g, "fp16_dense_tflops")), figure_value(at(g, "power_score")),
                           figure_value(at(g, "fp8_dense_tflops")), figure_value(at(g, "tdp_w")), field(link, "nvlink"),
                           figure_value(at(link, "bandwidth_gbs")), field(mig, "supported"), field(mig, "max_instances"),
                           field(limits, "max_gpus"), field(limits, "max_vcpus"), field(limits, "max_memory_gib"),
                           joined(md::array_at(limits, "cpu_generations")),
                           joined(md::array_at(md::object_at(g, "regions"), "codes")), week, field(prices, "on_demand"),
                           field(prices, "spot"), field(prices, "reserved"), sample});
    }
    return out;
}

std::string sheet_index_csv(json::object const& idx)
{
    std::string out = csv_record({"week", "effective_from", "effective_until", "published_at", "priced_models",
                                  "models", "observations", "inputs_sha256", "current"});
    std::string const current = field(idx, "current");
    for (auto const& v : md::array_at(idx, "sheets")) {
        auto const& s = v.get_object();
        out += csv_record({field(s, "week"), field(s, "effective_from"), field(s, "effective_until"),
                           field(s, "published_at"), field(s, "priced_models"), field(s, "models"),
                           field(s, "observations"), field(s, "inputs_sha256"),
                           field(s, "week") == current ? "true" : "false"});
    }
    return out;
}

std::string regions_csv(json::object const& r)
{
    std::string out = csv_record({"code", "city", "country", "continent", "sovereign"});
    for (auto const& v : md::array_at(r, "regions")) {
        auto const& reg = v.get_object();
        out += csv_record({field(reg, "code"), field(reg, "city"), field(reg, "country"), field(reg, "continent"),
                           field(reg, "sovereign")});
    }
    return out;
}

std::string sources_csv(json::object const& s)
{
    std::string out = csv_record({"name", "kind", "homepage", "format"});
    for (auto const& v : md::array_at(s, "sources")) {
        auto const& src = v.get_object();
        out += csv_record({field(src, "name"), field(src, "kind"), field(src, "homepage"), field(src, "format")});
    }
    return out;
}

std::string raw_inputs_csv(json::object const& r)
{
    std::string out = csv_record({"source", "format", "memory_convention", "observed_at", "sha256", "bytes",
                                  "mapping_sha256", "reader", "path"});
    for (auto const& v : md::array_at(r, "files")) {
        auto const& f = v.get_object();
        out += csv_record({field(f, "source"), field(f, "format"), field(f, "memory_convention"),
                           field(f, "observed_at"), field(f, "sha256"), field(f, "bytes"), field(f, "mapping_sha256"),
                           field(f, "reader"), field(f, "path")});
    }
    return out;
}

std::string inventory_csv(json::object const& inv)
{
    std::string out = csv_record({"gpu", "region", "available_gpus", "largest_instance_gpus", "max_gpus_per_instance"});
    for (auto const& v : md::array_at(inv, "gpus")) {
        auto const& g = v.get_object();
        for (auto const& rv : md::array_at(g, "regions")) {
            auto const& r = rv.get_object();
            out += csv_record({field(g, "gpu"), field(r, "region"), field(r, "available_gpus"),
                               field(r, "largest_instance_gpus"), field(g, "max_gpus_per_instance")});
        }
    }
    return out;
}

std::string glossary_csv(json::object const& g)
{
    std::string out = csv_record({"lang", "slug", "name", "category", "category_name", "definition", "aliases", "related"});
    std::string const lang = field(g, "lang");
    for (auto const& v : md::array_at(g, "terms")) {
        auto const& t = v.get_object();
        out += csv_record({lang, field(t, "slug"), field(t, "name"), field(t, "category"), field(t, "category_name"),
                           field(t, "definition"), joined(md::array_at(t, "aliases")), joined(md::array_at(t, "related"))});
    }
    return out;
}

}
