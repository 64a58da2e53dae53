#include "server/mirror/documents.hpp"

#include "pricing/money.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace lcg::mirror {

namespace {

namespace json = boost::json;

// A document that does not have the shape it should: the message names the member.
class bad_document : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

json::object parse_object(std::string_view text, char const* what)
{
    json::error_code ec;
    auto v = json::parse(text, ec);
    if (ec || !v.is_object())
        throw bad_document(std::string(what) + " is not a JSON object");
    return std::move(v.as_object());
}

json::value const& member(json::object const& o, std::string_view key)
{
    auto const* v = o.if_contains(key);
    if (!v)
        throw bad_document("'" + std::string(key) + "' is missing");
    return *v;
}

std::string text(json::object const& o, std::string_view key)
{
    auto const& v = member(o, key);
    if (!v.is_string())
        throw bad_document("'" + std::string(key) + "' is not a string");
    return std::string(v.as_string());
}

// A string that render/ writes as null when empty (a synthetic source's homepage).
std::string text_or_empty(json::object const& o, std::string_view key)
{
    return member(o, key).is_null() ? std::string() : text(o, key);
}

std::int64_t integer(json::object const& o, std::string_view key)
{
    auto const& v = member(o, key);
    if (!v.is_int64() && !v.is_uint64())
        throw bad_document("'" + std::string(key) + "' is not a whole number");
    return v.is_int64() ? v.as_int64() : static_cast<std::int64_t>(std::min<std::uint64_t>(v.as_uint64(), INT64_MAX));
}

int small_integer(json::object const& o, std::string_view key)
{
    auto const n = integer(o, key);
    if (n < 0 || n > std::numeric_limits<int>::max())
        throw bad_document("'" + std::string(key) + "' is out of range");
    return static_cast<int>(n);
}

bool boolean(json::object const& o, std::string_view key)
{
    auto const& v = member(o, key);
    if (!v.is_bool())
        throw bad_document("'" + std::string(key) + "' is not true or false");
    return v.as_bool();
}

json::array const& array(json::object const& o, std::string_view key)
{
    auto const& v = member(o, key);
    if (!v.is_array())
        throw bad_document("'" + std::string(key) + "' is not an array");
    return v.as_array();
}

json::object const& object(json::value const& v, std::string_view what)
{
    if (!v.is_object())
        throw bad_document(std::string(what) + " is not an object");
    return v.as_object();
}

json::object const& object(json::object const& o, std::string_view key) { return object(member(o, key), key); }

std::vector<std::string> strings(json::array const& a, std::string_view what)
{
    std::vector<std::string> out;
    for (auto const& v : a) {
        if (!v.is_string())
            throw bad_document(std::string(what) + " holds a non-string");
        out.emplace_back(v.as_string());
    }
    return out;
}

template <class T>
T checked(pricing::outcome<T> r, std::string_view what)
{
    if (!r)
        throw bad_document(std::string(what) + ": " + r.err().message);
    return std::move(r).value();
}

// {"value": "989.4", "confirmed": false} back into the figure the facts file wrote ("989.4?").
pricing::figure figure(json::object const& o)
{
    return {text(o, "value"), boolean(o, "confirmed")};
}

std::optional<pricing::figure> optional_figure(json::object const& o, std::string_view key)
{
    auto const& v = member(o, key);
    if (v.is_null())
        return std::nullopt;
    return figure(object(v, key));
}

pricing::gpu_model gpu(json::object const& o)
{
    pricing::gpu_model m;
    m.id = text(o, "id");
    m.name = text(o, "name");
    m.vendor = text(o, "vendor");
    m.architecture = text(o, "architecture");
    m.form_factor = text(o, "form_factor");
    m.vram_gb = small_integer(o, "vram_gb");
    m.memory_type = text(o, "memory_type");
    m.memory_bandwidth_gbs = small_integer(o, "memory_bandwidth_gbs");
    m.sm_count = small_integer(o, "sm_count");
    m.fp16_dense_tflops = figure(object(o, "fp16_dense_tflops"));
    m.fp8_dense_tflops = optional_figure(o, "fp8_dense_tflops");
    m.tdp_w = figure(object(o, "tdp_w"));
    m.interconnect_gbs = optional_figure(o, "interconnect_gbs");
    if (m.interconnect_gbs)
        m.interconnect_kind = text(o, "interconnect_kind");
    m.notes = text(o, "notes");
    m.source = text(o, "source");
    auto const& mig = object(o, "mig");
    m.mig_max_instances = small_integer(mig, "max_instances");
    for (auto const& p : array(mig, "profiles")) {
        auto const& profile = object(p, "a MIG profile");
        m.mig_profiles.push_back({text(profile, "name"), small_integer(profile, "memory_gb"),
                                  small_integer(profile, "compute_slices"), small_integer(profile, "max_instances")});
    }
    auto const& limits = object(o, "instance_limits");
    m.max_gpus_per_instance = small_integer(limits, "max_gpus");
    m.max_vcpus = small_integer(limits, "max_vcpus");
    m.max_memory_gib = small_integer(limits, "max_memory_gib");
    m.cpu_generations = strings(array(limits, "cpu_generations"), "cpu_generations");
    for (auto const& [region, generations] : object(limits, "extra_cpu_generations_by_region")) {
        if (!generations.is_array())
            throw bad_document("extra_cpu_generations_by_region." + std::string(region) + " is not an array");
        m.extra_cpu_generations.push_back(
            {std::string(region), strings(generations.as_array(), "extra_cpu_generations_by_region")});
    }
    std::sort(m.extra_cpu_generations.begin(), m.extra_cpu_generations.end(),
              [](auto const& a, auto const& b) { return a.region < b.region; });
    m.regions = strings(array(object(o, "regions"), "codes"), "regions.codes");
    return m;
}

// A figure the sheet publishes, in units of 10^-scale dollars.
std::int64_t decimal_units(json::object const& o, std::string_view key, int scale)
{
    return checked(pricing::parse_decimal_units(text(o, key), scale), key);
}

pricing::money price_of(json::object const& o, std::string_view key, std::string const& gpu)
{
    auto const m = checked(pricing::parse_money(text(o, key)), key);
    if (m.micros() <= 0)
        throw bad_document(gpu + ": " + std::string(key) + " is not a price");
    return m;
}

// A rules version 2 row's market, held as published: the figures must print back to the same strings.
void read_market(json::object const& o, pricing::sheet_row& row)
{
    auto const& m = object(o, "market");
    auto const median = decimal_units(m, "median", 7);
    if (median % 5 != 0)
        throw bad_document(row.gpu + ": market median is not a whole number of half micro-dollars");
    row.market = pricing::market_spread{price_of(m, "min", row.gpu), price_of(m, "p25", row.gpu), median / 5,
                                        price_of(m, "p75", row.gpu), price_of(m, "max", row.gpu)};
    row.sources = small_integer(o, "sources");
    for (auto const& v : array(o, "by_source")) {
        auto const& s = object(v, "a source price");
        row.by_source.push_back({text(s, "source"), price_of(s, "price", row.gpu), small_integer(s, "listings")});
    }
    if (small_integer(o, "listings") != row.observations ||
        pricing::published_market(row) != pricing::market_figures{text(m, "min"), text(m, "p25"), text(m, "median"),
                                                                 text(m, "p75"), text(m, "max")})
        throw bad_document(row.gpu + ": its market figures are not exact decimals of its listings");
}

pricing::sheet_row sheet_row(json::object const& o)
{
    pricing::sheet_row row;
    row.gpu = text(o, "gpu");
    row.observations = small_integer(o, "observations");
    if (o.contains("median")) {
        // The median is published to the tenth of a micro-dollar and is a whole number of halves.
        auto const tenths = decimal_units(o, "median", 7);
        if (tenths % 5 != 0)
            throw bad_document(row.gpu + ": median " + text(o, "median") + " is not a whole number of half micro-dollars");
        row.twice_median_micros = tenths / 5;
    }
    if (boolean(o, "available")) {
        auto rate = [&](std::string_view key) {
            auto const m = checked(pricing::parse_money(text(o, key)), key);
            if (!m.is_whole_mills() || m.micros() < 0)
                throw bad_document(row.gpu + ": " + std::string(key) + " is not a whole number of mills");
            return m;
        };
        row.rates = pricing::tier_rates{rate("on_demand"), rate("spot"), rate("reserved")};
    } else {
        row.unavailable_reason = text(o, "reason");
    }
    // The derived figures must be exactly what the parsed ones give, so the sheet held is the sheet published.
    auto const derived = pricing::published_figures(row);
    auto optional_text = [&](std::string_view key) { return o.contains(key) ? text(o, key) : std::string(); };
    pricing::row_figures const published{optional_text("median"),   optional_text("cap"),      optional_text("on_demand"),
                                         optional_text("spot"),     optional_text("reserved"), optional_text("headroom")};
    if (derived != published)
        throw bad_document(row.gpu + ": cap or headroom do not follow from the median and the on-demand rate");
    if (o.contains("market"))
        read_market(o, row);
    return row;
}

template <class T, class F>
pricing::outcome<T> reading(std::string_view what, F&& read)
{
    try {
        return read();
    } catch (bad_document const& e) {
        return pricing::invalid(std::string(what) + ": " + e.what());
    }
}

}

pricing::outcome<pricing::catalog> parse_signed_catalog(std::string_view document)
{
    return reading<pricing::catalog>("the upstream /v1/catalog", [&] {
        pricing::catalog c;
        auto const whole = parse_object(document, "/v1/catalog");
        auto const& gpus_doc = object(whole, "gpus");
        auto const& regions_doc = object(whole, "regions");
        auto const& inventory_doc = object(whole, "inventory");
        auto const& sources_doc = object(whole, "sources");
        for (auto const& g : array(gpus_doc, "gpus"))
            c.gpus.push_back(gpu(object(g, "a GPU")));
        std::sort(c.gpus.begin(), c.gpus.end(), [](auto const& a, auto const& b) { return a.id < b.id; });
        for (auto const& r : array(regions_doc, "regions")) {
            auto const& o = object(r, "a region");
            c.regions.push_back(
                {text(o, "code"), text(o, "city"), text(o, "country"), text(o, "continent"), boolean(o, "sovereign")});
        }
        std::sort(c.regions.begin(), c.regions.end(), [](auto const& a, auto const& b) { return a.code < b.code; });
        for (auto const& g : array(inventory_doc, "gpus")) {
            auto const& o = object(g, "an inventory entry");
            std::string const id = text(o, "gpu");
            for (auto const& r : array(o, "regions")) {
                auto const& s = object(r, "an inventory region");
                c.inventory.push_back({id, text(s, "region"), small_integer(s, "available_gpus")});
            }
        }
        std::sort(c.inventory.begin(), c.inventory.end(),
                  [](auto const& a, auto const& b) { return std::tie(a.gpu, a.region) < std::tie(b.gpu, b.region); });
        for (auto const& s : array(sources_doc, "sources")) {
            auto const& o = object(s, "a source");
            c.sources.push_back({text(o, "name"), text(o, "kind"), text_or_empty(o, "homepage"), text(o, "format")});
        }
        std::sort(c.sources.begin(), c.sources.end(), [](auto const& a, auto const& b) { return a.name < b.name; });
        return c;
    });
}

pricing::outcome<std::vector<listed_sheet>> parse_sheet_index(std::string_view sheets)
{
    return reading<std::vector<listed_sheet>>("the upstream /v1/sheets", [&] {
        std::vector<listed_sheet> out;
        auto const index = parse_object(sheets, "/v1/sheets");
        for (auto const& v : array(index, "sheets")) {
            auto const& o = object(v, "a sheet");
            out.push_back({checked(pricing::parse_week(text(o, "week")), "week"),
                           checked(pricing::parse_utc_timestamp(text(o, "published_at")), "published_at"),
                           text(o, "inputs_sha256")});
        }
        return out;
    });
}

pricing::outcome<pricing::price_sheet> parse_sheet(std::string_view body)
{
    return reading<pricing::price_sheet>("an upstream sheet", [&] {
        auto const o = parse_object(body, "the sheet");
        pricing::price_sheet s;
        s.week = checked(pricing::parse_week(text(o, "week")), "week");
        s.effective_from = checked(pricing::parse_utc_timestamp(text(o, "effective_from")), "effective_from");
        s.effective_until = checked(pricing::parse_utc_timestamp(text(o, "effective_until")), "effective_until");
        s.published_at = checked(pricing::parse_utc_timestamp(text(o, "published_at")), "published_at");
        if (s.effective_from != pricing::monday_of(s.week) ||
            s.effective_until != pricing::monday_of(pricing::next_week(s.week)))
            throw bad_document(pricing::to_string(s.week) + ": its effective dates are not that week's");
        s.inputs_sha256 = text(o, "inputs_sha256");
        s.observations = small_integer(o, "observations");
        s.rules_version = small_integer(o, "rules_version");
        // An unsigned sheet says null; check_sheet refuses it.
        for (auto [member, field] : {std::pair{"signature", &s.signature}, std::pair{"key_id", &s.key_id}})
            if (auto const* v = o.if_contains(member); v && v->is_string())
                *field = std::string(v->get_string());
        for (auto const& row : array(o, "prices"))
            s.rows.push_back(sheet_row(object(row, "a price row")));
        if (s.priced_models() != small_integer(o, "priced_models"))
            throw bad_document(pricing::to_string(s.week) + ": priced_models does not count the priced rows");
        return s;
    });
}

pricing::outcome<std::vector<pricing::raw_input>> parse_raw_inputs(std::string_view body, pricing::iso_week week)
{
    return reading<std::vector<pricing::raw_input>>("the upstream's raw files", [&] {
        auto const o = parse_object(body, "the sources of a sheet");
        if (checked(pricing::parse_week(text(o, "week")), "week") != week)
            throw bad_document("the sources are not those of " + pricing::to_string(week));
        std::vector<pricing::raw_input> out;
        for (auto const& v : array(o, "files")) {
            auto const& f = object(v, "a raw file");
            pricing::raw_input r{text(f, "source"),
                                 text(f, "format"),
                                 text(f, "memory_convention"),
                                 checked(pricing::parse_utc_timestamp(text(f, "observed_at")), "observed_at"),
                                 text(f, "sha256"),
                                 integer(f, "bytes"),
                                 text(f, "mapping_sha256"),
                                 // An origin older than reader revisions read every file with the first.
                                 f.contains("reader") ? small_integer(f, "reader") : 1};
            if (r.reader < 1)
                throw bad_document("a raw file's reader revision is not a whole number from 1");
            if (text(f, "path") != "sources/" + r.sha256)
                throw bad_document("a raw file's path is not its SHA-256");
            out.push_back(std::move(r));
        }
        return out;
    });
}

}
