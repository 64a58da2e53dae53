// lowcostgpu collect: fetches the configured sources of market offers and imports each one whole or
// not at all; one source's failure (a timeout, a bad status, a truncated or oversized body, a file
// the reader refuses, an unknown source) imports nothing of it and leaves the others to be imported.
#include "server/cli/commands.hpp"
#include "server/cli/files.hpp"
#include "server/cli/listings.hpp"
#include "server/client/http_client.hpp"
#include "server/market/offers.hpp"
#include "server/ops/file_bytes.hpp"
#include "server/store/database.hpp"

#include "pricing/calendar.hpp"
#include "pricing/rules.hpp"

#include <boost/json.hpp>

#include <charconv>
#include <filesystem>
#include <iostream>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace lcg::cli {

namespace {

// A whole collection should fit a CronJob's slot: a source gets this long in all by default (a
// SkyPilot file of 2 MB arrives in a second or two), on top of --timeout's bound on silence.
constexpr int default_total_seconds = 120;
// A CDN or a moved repository redirects once or twice; more is a loop or a misconfiguration.
constexpr int max_redirects = 5;
// The sources file is configuration, not data: a few dozen entries.
constexpr std::size_t max_sources = 256;
constexpr std::uintmax_t max_sources_file_bytes = 1024 * 1024;

// One entry of the sources file: where a source's offers are, and in which format.
struct source_entry {
    std::string source;
    market::offer_format format;
    std::optional<client::base_url> url;  // else `path`
    std::filesystem::path path;

    std::string where() const { return url ? url->to_string() : path.string(); }
};

// A market_source name (the table's own CHECK): lower-case letters and digits in hyphen-joined words.
bool is_source_name(std::string_view name)
{
    if (name.empty() || name.size() > 64 || name.front() == '-' || name.back() == '-')
        return false;
    char previous = 0;
    for (char c : name) {
        bool const word = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
        if (!word && (c != '-' || previous == '-'))
            return false;
        previous = c;
    }
    return true;
}

std::string string_field(boost::json::object const& o, std::string_view key, std::string const& entry)
{
    auto const* v = o.if_contains(key);
    if (!v || !v->is_string() || v->as_string().empty())
        throw usage_error(entry + ": \"" + std::string(key) + "\" must be a non-empty string");
    return std::string(v->as_string());
}

source_entry read_entry(boost::json::value const& v, std::size_t index, std::filesystem::path const& folder,
                        std::string const& file)
{
    std::string entry = file + ": entry " + std::to_string(index);
    auto const* o = v.if_object();
    if (!o)
        throw usage_error(entry + ": expected an object {\"source\", \"format\", \"url\" or \"path\"}");
    if (auto const* name = o->if_contains("source"); name && name->is_string())
        entry += " (" + pricing::quote(name->as_string()) + ")";
    for (auto const& field : *o)
        if (field.key() != "source" && field.key() != "format" && field.key() != "url" && field.key() != "path")
            throw usage_error(entry + ": unknown key " + pricing::quote(field.key()) +
                              " (an entry has \"source\", \"format\" and one of \"url\", \"path\")");
    source_entry out{string_field(*o, "source", entry), {}, {}, {}};
    if (!is_source_name(out.source))
        throw usage_error(entry + ": \"source\" must be a market_source name (lower-case letters and digits, "
                                  "words joined by single hyphens)");
    auto const format = market::parse_offer_format(string_field(*o, "format", entry));
    if (!format)
        throw usage_error(entry + ": " + format.err().message);
    out.format = *format;
    if (o->contains("url") == o->contains("path"))
        throw usage_error(entry + ": give exactly one of \"url\" and \"path\"");
    if (o->contains("url")) {
        auto url = client::parse_url(string_field(*o, "url", entry));
        if (!url)
            throw usage_error(entry + ": " + url.err().message);
        out.url = std::move(url).value();
    } else {
        out.path = folder / string_field(*o, "path", entry);
    }
    return out;
}

// The sources file, whole: a mistake anywhere in it is refused before anything is fetched.
std::vector<source_entry> read_sources(std::string const& file)
{
    std::error_code size_error;
    if (auto const size = std::filesystem::file_size(file, size_error); !size_error && size > max_sources_file_bytes)
        throw usage_error(file + ": a sources file is at most " + std::to_string(max_sources_file_bytes) + " bytes");
    boost::system::error_code ec;
    auto const doc = boost::json::parse(read_whole_file(file), ec);
    if (ec)
        throw usage_error(file + ": not JSON: " + ec.message());
    auto const* top = doc.if_object();
    if (!top)
        throw usage_error(file + ": expected an object {\"sources\": [...]}");
    for (auto const& field : *top)
        if (field.key() != "sources")
            throw usage_error(file + ": unknown key " + pricing::quote(field.key()) + " (the file has \"sources\" only)");
    auto const* list = top->contains("sources") ? top->at("sources").if_array() : nullptr;
    if (!list || list->empty() || list->size() > max_sources)
        throw usage_error(file + ": \"sources\" must be an array of 1 to " + std::to_string(max_sources) + " entries");
    // A relative path is read from the sources file's folder, wherever collect runs.
    auto const folder = std::filesystem::path(file).parent_path();
    std::vector<source_entry> out;
    std::set<std::string, std::less<>> seen;
    for (std::size_t i = 0; i < list->size(); ++i) {
        out.push_back(read_entry((*list)[i], i + 1, folder, file));
        if (!seen.insert(out.back().source).second)
            throw usage_error(file + ": entry " + std::to_string(i + 1) + ": the source " +
                              pricing::quote(out.back().source) + " is named twice (one file per source)");
    }
    return out;
}

// The bytes of a source, or why there are none.
pricing::outcome<std::string> fetch(source_entry const& e, client::limits const& limits)
{
    if (!e.url)
        return ops::read_file(e.path, limits.max_body_bytes);
    std::string_view const accept = e.format == market::offer_format::skypilot_vms ? "text/csv, */*;q=0.1"
                                                                                   : "application/json, */*;q=0.1";
    try {
        return client::get_body(*e.url, "", accept, limits);
    } catch (client::fetch_error const& x) {
        return pricing::invalid(x.what());
    }
}

std::chrono::seconds seconds_flag(arguments const& args, std::string_view name, int fallback)
{
    auto const text = args.flag(name);
    if (!text)
        return std::chrono::seconds(fallback);
    int value = 0;
    auto const end = text->data() + text->size();
    auto const [stop, ec] = std::from_chars(text->data(), end, value);
    if (ec != std::errc() || stop != end || value < 1 || value > 3600)
        throw usage_error("--" + std::string(name) + " takes a whole number of seconds from 1 to 3600, not " +
                          pricing::quote(*text));
    return std::chrono::seconds(value);
}

// What became of one source: its import's summary, or why nothing of it was imported.
struct collected {
    store::listings_file file;
    std::optional<store::listing_import_summary> summary;
    std::string error;
};

collected collect_one(store::database& db, source_entry const& e, std::optional<pricing::instant> observed_at,
                      client::limits const& limits)
{
    auto const fetched_at = std::chrono::time_point_cast<std::chrono::seconds>(std::chrono::system_clock::now());
    collected c{{e.source, std::string(market::to_string(e.format)), observed_at.value_or(fetched_at), {}, {}}, {}, {}};
    auto bytes = fetch(e, limits);
    if (!bytes) {
        c.error = bytes.err().message;
        return c;
    }
    c.file.bytes = std::move(bytes).value();
    c.file.read = offers_reader(e.format, c.file.bytes);
    try {
        c.summary = db.import_listings(c.file);
    } catch (store::store_error const& x) {
        c.error = e.where() + ": " + x.what();
    }
    return c;
}

void print_line(collected const& c)
{
    if (!c.summary) {
        std::cout << c.file.source << ": FAILED, nothing imported: " << c.error << std::endl;
        return;
    }
    std::cout << c.file.source << ": ok, " << counts_text(*c.summary) << "; observed "
              << pricing::to_rfc3339(c.file.observed_at) << "; raw file sha256 " << c.summary->sha256
              << (c.summary->raw_file_new ? " stored" : " already stored") << std::endl;
}

boost::json::object result_json(collected const& c)
{
    boost::json::object o{{"source", c.file.source}, {"ok", c.summary.has_value()}};
    if (c.summary)
        o["summary"] = summary_json(c.file, *c.summary);
    else
        o["error"] = c.error;
    return o;
}

}

int run_collect(arguments const& args)
{
    allow_only(args, {"database-url", "sources", "observed-at", "json", "timeout", "total"}, 0);
    auto const sources = args.flag("sources");
    if (!sources || sources->empty())
        throw usage_error("collect needs --sources FILE (a JSON document: docs/market-data.md, \"Collecting\")");
    std::optional<pricing::instant> observed_at;
    if (auto const text = args.flag("observed-at")) {
        auto const parsed = pricing::parse_utc_timestamp(*text);
        if (!parsed)
            throw usage_error("--observed-at: " + parsed.err().message);
        observed_at = *parsed;
    }
    client::limits limits;
    limits.timeout = seconds_flag(args, "timeout", pricing::rules::fetch_timeout_seconds);
    limits.total = seconds_flag(args, "total", default_total_seconds);
    limits.max_body_bytes = pricing::rules::max_listings_file_bytes;
    limits.max_redirects = max_redirects;
    auto const entries = read_sources(*sources);

    store::database db(database_url(args));
    bool const json = args.flag("json").has_value();
    boost::json::array results;
    std::size_t failed = 0;
    for (auto const& e : entries) {
        auto const c = collect_one(db, e, observed_at, limits);
        failed += c.summary ? 0 : 1;
        if (json)
            results.push_back(result_json(c));
        else
            print_line(c);
    }
    if (json)
        std::cout << boost::json::serialize(boost::json::object{{"sources", std::move(results)}}) << "\n";
    if (failed > 0)
        std::cerr << "lowcostgpu collect: " << failed << " of " << entries.size() << " sources not imported\n";
    return failed > 0 ? 1 : 0;
}

}
