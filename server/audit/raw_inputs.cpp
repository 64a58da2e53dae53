#include "server/audit/raw_inputs.hpp"

#include "server/market/offers.hpp"
#include "server/digest/digest.hpp"

#include "pricing/audit.hpp"
#include "pricing/listing_mapping.hpp"
#include "pricing/rules.hpp"
#include "pricing/observation.hpp"

#include <boost/json.hpp>

#include <limits>
#include <map>
#include <set>
#include <stdexcept>
#include <tuple>
#include <utility>

namespace lcg::audit {

namespace {

namespace json = boost::json;

class manifest_error : public std::runtime_error {
    using std::runtime_error::runtime_error;
};

std::string text(json::object const& o, char const* key)
{
    auto const* v = o.if_contains(key);
    if (!v || !v->is_string())
        throw manifest_error(std::string("a manifest entry has no ") + key);
    return std::string(v->as_string());
}

// The reader revision a file was read with; a server older than revisions read every file with the first.
int reader_of(json::object const& f)
{
    auto const* v = f.if_contains("reader");
    if (!v)
        return 1;
    if (!v->is_int64() || v->as_int64() < 1 || v->as_int64() > std::numeric_limits<int>::max())
        throw manifest_error("file " + text(f, "sha256") + ": its reader is not a revision (a whole number from 1)");
    return static_cast<int>(v->as_int64());
}

// Where an entry's bytes are: always "sources/" and its SHA-256, which must be 64 hex digits, so that
// a manifest (or a server) cannot send the auditor elsewhere ("sha256": "../../x" would).
std::string path_of(json::object const& entry)
{
    std::string const path = text(entry, "path");
    if (!pricing::is_sha256_hex(text(entry, "sha256")))
        throw manifest_error("an entry's sha256 " + text(entry, "sha256") + " is not 64 lower-case hex digits");
    if (path != "sources/" + text(entry, "sha256"))
        throw manifest_error("an entry's path " + path + " is not sources/ and its sha256");
    return path;
}

json::array const& entries(json::object const& manifest, char const* key)
{
    auto const* v = manifest.if_contains(key);
    if (!v || !v->is_array())
        throw manifest_error(std::string("the manifest has no ") + key + " array");
    return v->as_array();
}

// Each mapping the manifest names, checked against its SHA-256 and parsed.
std::map<std::string, std::vector<pricing::alias_rule>> read_mappings(json::object const& manifest,
                                                                     raw_reader const& read, std::ostream& report,
                                                                     bool& ok)
{
    std::map<std::string, std::vector<pricing::alias_rule>> out;
    for (auto const& v : entries(manifest, "mappings")) {
        auto const& m = v.as_object();
        std::string const sha256 = text(m, "sha256");
        std::string const csv = read(path_of(m), pricing::rules::max_listings_file_bytes);
        if (digest::sha256_hex(csv) != sha256) {
            report << "  DIFF mapping " << sha256 << ": its bytes hash to " << digest::sha256_hex(csv) << "\n";
            ok = false;
            continue;
        }
        auto rules = pricing::parse_mapping_csv(csv);
        if (!rules)
            throw manifest_error("mapping " + sha256 + ": " + rules.err().message);
        out.emplace(sha256, std::move(rules).value());
    }
    return out;
}

// The observations one raw file gives, appended to `out` unless its (source, listing id, time)
// came earlier.
void rederive_file(json::object const& f, std::string const& bytes, std::vector<pricing::alias_rule> const& rules,
                   std::set<std::tuple<std::string, std::string, pricing::instant>>& seen,
                   std::vector<pricing::observation>& out)
{
    auto const format = market::parse_offer_format(text(f, "format"));
    auto const memory = market::parse_memory_convention(text(f, "memory_convention"));
    auto const at = pricing::parse_utc_timestamp(text(f, "observed_at"));
    if (!format || !memory || !at)
        throw manifest_error("file " + text(f, "path") + ": its format, memory convention or time is not readable");
    auto const offers = market::read_offers(*format, bytes, *memory, reader_of(f));
    if (!offers)
        throw manifest_error("file " + text(f, "path") + " is refused: " + offers.err().message);
    std::string const source = text(f, "source");
    for (auto const& l : pricing::classify_offers(*offers, rules))
        if (l.outcome == pricing::listing_outcome::imported && seen.emplace(source, l.listing_id, *at).second)
            out.push_back({*at, l.gpu, l.price, source, l.listing_id, ""});
}

}

bool audit_raw_inputs(std::string const& manifest_text, raw_reader const& read, std::string const& observations_sha256,
                      long observations, std::ostream& report)
{
    bool ok = true;
    try {
        auto const manifest = json::parse(manifest_text).as_object();
        auto const mappings = read_mappings(manifest, read, report, ok);
        std::set<std::tuple<std::string, std::string, pricing::instant>> seen;
        std::vector<pricing::observation> derived;
        auto const& files = entries(manifest, "files");
        for (auto const& v : files) {
            auto const& f = v.as_object();
            std::string const bytes = read(path_of(f), pricing::rules::max_listings_file_bytes);
            if (digest::sha256_hex(bytes) != text(f, "sha256")) {
                report << "  DIFF raw file " << text(f, "path") << " (" << text(f, "source") << "): published sha256 "
                       << text(f, "sha256") << ", its bytes hash to " << digest::sha256_hex(bytes) << "\n";
                ok = false;
                continue;
            }
            auto const mapping = mappings.find(text(f, "mapping_sha256"));
            if (mapping == mappings.end()) {
                report << "  DIFF raw file " << text(f, "path") << ": its mapping is not published whole\n";
                ok = false;
                continue;
            }
            rederive_file(f, bytes, mapping->second, seen, derived);
            if (std::cmp_greater(derived.size(), observations))
                throw manifest_error("the raw files give more observations than the sheet's " +
                                     std::to_string(observations) + " (re-reading stopped at file " +
                                     text(f, "path") + ")");
        }
        pricing::sort_canonically(derived);
        digest::sha256_hasher canonical;
        pricing::write_canonical_observations_csv(derived, [&](std::string_view piece) { canonical.update(piece); });
        std::string const canonical_sha256 = canonical.finish();
        report << "raw files: " << files.size() << " re-read with " << mappings.size() << " mapping(s), giving "
               << derived.size() << " observations\n";
        if (ok && canonical_sha256 != observations_sha256) {
            report << "  DIFF the raw files do not give the sheet's observations (their canonical CSV hashes to "
                   << canonical_sha256 << ", the observations to " << observations_sha256 << ")\n";
            ok = false;
        }
    } catch (std::exception const& e) {
        report << "  BAD raw inputs: " << e.what() << "\n";
        return false;
    }
    report << (ok ? "raw files: OK, they give the sheet's observations byte for byte\n" : "raw files: FAILED\n");
    return ok;
}

}
