#include "server/audit/audit.hpp"

#include "server/audit/catalog.hpp"
#include "server/audit/log.hpp"
#include "server/audit/raw_inputs.hpp"
#include "server/audit/signature.hpp"
#include "server/client/http_client.hpp"
#include "server/digest/digest.hpp"
#include "server/trust/trust.hpp"

#include "pricing/audit.hpp"
#include "pricing/inputs_tally.hpp"

#include <boost/json.hpp>

#include <iomanip>
#include <limits>
#include <stdexcept>

namespace lcg::audit {

namespace {

namespace json = boost::json;

std::string text_member(json::object const& o, char const* key)
{
    auto const* v = o.if_contains(key);
    return v && v->is_string() ? std::string(v->as_string()) : std::string();
}

// A count the sheet states, or -1 when it states none or one no sheet can hold (negative, or past
// what a count holds): -1 matches no recomputed count, where truncating 2^32 + 31 to 31 would.
int count_member(json::object const& o, char const* key)
{
    auto const* v = o.if_contains(key);
    if (!v || !v->is_int64() || v->as_int64() < 0 || v->as_int64() > std::numeric_limits<int>::max())
        return -1;
    return static_cast<int>(v->as_int64());
}

// What a rules version 2 row publishes of its market; absent members stay empty (and then differ
// from a recomputation that has them).
void read_market(json::object const& o, pricing::published_row& row)
{
    row.sources = o.contains("sources") ? count_member(o, "sources") : 0;
    if (auto const* m = o.if_contains("market"); m && m->is_object()) {
        auto const& mo = m->as_object();
        row.market = {text_member(mo, "min"), text_member(mo, "p25"), text_member(mo, "median"), text_member(mo, "p75"),
                      text_member(mo, "max")};
    }
    if (auto const* b = o.if_contains("by_source"); b && b->is_array())
        for (auto const& v : b->as_array())
            if (v.is_object())
                row.by_source.push_back({text_member(v.as_object(), "source"), text_member(v.as_object(), "price"),
                                         count_member(v.as_object(), "listings")});
}

std::vector<pricing::published_row> published_rows(json::object const& sheet)
{
    std::vector<pricing::published_row> rows;
    auto const* prices = sheet.if_contains("prices");
    if (!prices || !prices->is_array())
        throw std::runtime_error("the sheet has no prices array");
    for (auto const& v : prices->as_array()) {
        auto const& o = v.as_object();
        pricing::published_row row;
        row.gpu = text_member(o, "gpu");
        row.available = o.at("available").as_bool();
        row.observations = count_member(o, "observations");
        row.figures = {text_member(o, "median"),    text_member(o, "cap"),      text_member(o, "on_demand"),
                       text_member(o, "spot"),      text_member(o, "reserved"), text_member(o, "headroom")};
        row.reason = text_member(o, "reason");
        read_market(o, row);
        rows.push_back(std::move(row));
    }
    return rows;
}

pricing::published_sheet published_sheet(json::object const& sheet)
{
    return {text_member(sheet, "week"),          text_member(sheet, "effective_from"),
            text_member(sheet, "effective_until"), text_member(sheet, "inputs_sha256"),
            count_member(sheet, "observations"),   count_member(sheet, "priced_models"),
            count_member(sheet, "rules_version"),  published_rows(sheet)};
}

// The week's raw market files, re-read into its observations (issue 24, item 5); a sheet whose
// observations were imported as a CSV has none, and says so.
template <class Fetch>
bool audit_published_raw_inputs(std::string const& week, sheet_verdict const& inputs, Fetch const& fetch,
                                std::ostream& report)
{
    std::string const base = "/v1/sheets/" + week + "/";
    std::string const sources = fetch(base + "sources", "application/json");
    json::error_code ec;
    auto const doc = json::parse(sources, ec);
    auto const* files = !ec && doc.is_object() ? doc.as_object().if_contains("files") : nullptr;
    if (files && files->is_array() && files->as_array().empty()) {
        report << "  -    no raw files: the observations of " << week << " were imported as a CSV\n";
        return true;
    }
    auto const read = [&](std::string const& path, std::uint64_t max_bytes) { return fetch(base + path, "*/*", max_bytes); };
    return audit_raw_inputs(sources, read, inputs.inputs_sha256, inputs.observations, report);
}

// What the verified signed index says the week's inputs weigh: the most their download may bring.
std::uint64_t inputs_bound(catalog_audit const& catalog, std::string const& week)
{
    auto const w = pricing::parse_week(week);
    auto const* indexed = catalog.signature && w ? catalog.signature->find(*w) : nullptr;
    return indexed ? indexed->inputs_bytes : max_unsigned_inputs_bytes;
}

// The inputs hashed and tallied as they arrive, for the sheet of `week`.
struct streamed_inputs {
    pricing::inputs_tally tally;
    std::string sha256;

    streamed_inputs(std::string const& week, inputs_reader const& read) : tally(week)
    {
        digest::sha256_hasher hasher;
        read([&](std::string_view bytes) {
            hasher.update(bytes);
            tally.read(bytes);
        });
        tally.finish();
        sha256 = hasher.finish();
    }
};

// The SHA-256 of the bytes the sheet's signature covers, rebuilt from its figures: what a log entry
// names. Empty when the sheet lacks what they need (check_signature reports why).
std::string signed_sha256_of(json::object const& sheet)
{
    try {
        return digest::sha256_hex(pricing::signed_bytes(signed_content_from_json(sheet)));
    } catch (std::exception const&) {
        return {};
    }
}

// Whether the sheet served for `week` is the version the log's newest entry for it names. A version
// superseded by a correction carries a signature as valid as the day it was made: without this, a
// service could serve it again (a rollback) and still pass.
bool is_logged_version(std::string const& week, sheet_verdict const& sheet, log_audit const& log, std::ostream& report)
{
    if (!log.read)
        return true;  // the log's own failure is reported, and fails the audit
    auto const logged = log.newest.find(week);
    if (logged == log.newest.end()) {
        report << "  FAIL no entry of the publication log names " << week << "\n";
        return false;
    }
    if (sheet.signed_sha256 != logged->second.signed_sha256) {
        report << "  FAIL /v1/sheets/" << week << " is not the version the log's newest entry for it names\n";
        return false;
    }
    report << "  ok   the version the log's newest entry for " << week << " names\n";
    return true;
}

void print_row(std::ostream& report, pricing::published_row const& p, pricing::row_audit const& a)
{
    report << "  " << std::left << std::setw(5) << (a.ok() ? "ok" : "DIFF") << std::setw(24) << p.gpu;
    if (!a.ok()) {
        for (std::size_t i = 0; i < a.differences.size(); ++i)
            report << (i ? "; " : "") << a.differences[i];
    } else if (p.available) {
        report << p.observations << " obs, median " << p.figures.median << ", on-demand " << p.figures.on_demand
               << ", spot " << p.figures.spot << ", reserved " << p.figures.reserved;
    } else {
        report << p.observations << " obs, not priced";
    }
    report << "\n";
}

}

sheet_verdict audit_sheet(std::string const& sheet_json, inputs_reader const& read_inputs, std::ostream& report,
                          pricing::key_ring const* keys)
{
    json::object sheet;
    try {
        sheet = json::parse(sheet_json).as_object();
    } catch (std::exception const&) {
        throw std::runtime_error("the sheet is not a JSON object");
    }
    std::string const week = text_member(sheet, "week");
    std::string const expected_sha = text_member(sheet, "inputs_sha256");
    streamed_inputs const inputs(week, read_inputs);
    bool ok = true;
    report << "sheet " << week << "\n";
    if (inputs.sha256 == expected_sha) {
        report << "  ok   inputs_sha256 " << inputs.sha256 << "\n";
    } else {
        report << "  DIFF inputs_sha256: published " << expected_sha << ", the observations hash to " << inputs.sha256
               << "\n";
        ok = false;
    }
    if (keys)
        ok = check_signature(sheet, *keys, report) && ok;
    else
        report << "  -    signature not checked (no keys given: --keys FILE)\n";
    for (auto const& p : inputs.tally.problems()) {
        report << "  BAD INPUT line " << p.line << ": " << p.reason << "\n";
        ok = false;
    }
    auto const published = published_sheet(sheet);
    auto const& rows = published.rows;
    auto const result = pricing::audit_sheet(published, inputs.tally);
    for (std::size_t i = 0; i < rows.size(); ++i)
        print_row(report, rows[i], result.rows[i]);
    for (auto const& p : result.problems)
        report << "  DIFF " << p << "\n";
    ok = ok && result.ok();
    long const differing = std::count_if(result.rows.begin(), result.rows.end(), [](auto const& r) { return !r.ok(); });
    report << "sheet " << week << ": " << rows.size() << " rows, " << inputs.tally.observations() << " observations, "
           << differing << " rows differ" << (ok ? " - PASS" : " - FAIL") << "\n";
    return {ok, inputs.sha256, inputs.tally.observations(), signed_sha256_of(sheet)};
}

bool audit_service(std::string const& base_url, std::string const& week, bool all, client::limits const& limits,
                   std::ostream& report, std::optional<pricing::key_ring> keys, log_memory* log)
{
    auto const target = client::parse_base_url(base_url);
    if (!target)
        throw std::runtime_error("--url: " + target.err().message);
    auto fetch = [&](std::string const& path, char const* accept, std::uint64_t max_bytes = pricing::rules::max_fetched_bytes) {
        return client::get_body(*target, path, accept, client::at_most(limits, max_bytes));
    };
    if (!keys) {
        auto ring = trust::parse_key_ring(fetch("/.well-known/lowcostgpu-keys.json", "application/json"));
        if (!ring)
            throw std::runtime_error("the service's /.well-known/lowcostgpu-keys.json: " + ring.err().message);
        keys = std::move(ring).value();
    }
    auto const catalog = audit_catalog(fetch, *keys, report);
    auto const logged = audit_log(fetch, *keys, log ? log->previous : std::nullopt, report);
    bool ok = catalog.ok && logged.ok;
    std::vector<std::string> weeks;
    // What clients read most, /v1/prices, must be the current week's sheet byte for byte: the audit
    // then covers it too, not only the archive (a week named outright is audited alone).
    std::string current;
    std::string current_week;
    if (week.empty()) {
        current = fetch("/v1/prices", "application/json");
        current_week = std::string(json::parse(current).as_object().at("week").as_string());
    }
    if (all) {
        auto const index = json::parse(fetch("/v1/sheets", "application/json")).as_object();
        for (auto const& s : index.at("sheets").as_array())
            weeks.emplace_back(s.at("week").as_string());
    } else if (!week.empty()) {
        weeks.push_back(week);
    } else {
        weeks.push_back(current_week);
    }
    if (weeks.empty())
        throw std::runtime_error("the service has published no sheet");
    for (auto const& w : weeks) {
        auto const sheet = fetch("/v1/sheets/" + w, "application/json");
        auto const inputs_limits = client::streamed_limits(limits, inputs_bound(catalog, w));
        auto const verdict = audit_sheet(sheet, [&](client::body_sink const& sink) {
            client::get_stream(*target, "/v1/sheets/" + w + "/observations.csv", "text/csv", inputs_limits, sink);
        }, report, &*keys);
        ok = verdict.ok && ok;
        ok = is_logged_version(w, verdict, logged, report) && ok;
        if (w == current_week && sheet != current) {
            report << "  FAIL /v1/prices is not the sheet /v1/sheets/" << w << " it names\n";
            ok = false;
        }
        ok = audit_published_raw_inputs(w, verdict, fetch, report) && ok;
    }
    report << (ok ? "audit passed: " : "audit FAILED: ") << weeks.size() << " sheet(s), the catalog and the publication log\n";
    if (ok && log)
        log->accepted = logged.checkpoint;
    return ok;
}

}
