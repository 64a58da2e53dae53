// lowcostgpu: the command line of the pricing service (see README.md and `lowcostgpu --help`).
#include "server/archive/archive.hpp"
#include "server/cli/arguments.hpp"
#include "server/cli/commands.hpp"
#include "server/cli/publication.hpp"
#include "server/audit/audit.hpp"
#include "server/audit/raw_inputs.hpp"
#include "server/http/headers.hpp"
#include "server/http/server.hpp"
#include "server/mcp_bridge/snapshot_view.hpp"
#include "server/mirror/follower.hpp"
#include "server/mirror/key_pin.hpp"
#include "server/ops/log_writer.hpp"
#include "server/ops/stop_deadline.hpp"
#include "server/snapshot/refresher.hpp"
#include "server/store/database.hpp"
#include "server/tlog/entry.hpp"
#include "server/tlog/note.hpp"
#include "server/trust/trust.hpp"

#include "render/json.hpp"

#include <boost/json/serialize.hpp>

#include "mcp/stdio.hpp"

#include "pricing/calendar.hpp"

#include <boost/json.hpp>

#include <chrono>
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <iostream>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <sys/resource.h>
#include <unistd.h>
#include <vector>

namespace lcg::migrations {
std::span<const embedded_file> all();
}

namespace {

using namespace lcg;
using namespace lcg::cli;

constexpr char const* usage = R"(lowcostgpu - the LowCostGPU public price sheet service

Usage:
  lowcostgpu migrate                          apply database migrations and reference data
  lowcostgpu import-listings --format skypilot-vms --source NAME --observed-at RFC3339 [--json] FILE|-
                                              import one raw file of market offers (all or nothing); every
                                              row is imported, duplicate, not_gpu, no_price, not_in_catalog
                                              or ambiguous, and the counts are printed
  lowcostgpu collect --sources FILE [--observed-at RFC3339] [--timeout S] [--total S] [--json]
                                              fetch every source of FILE (http, https or a path) and
                                              import each whole or not at all, one line per source;
                                              --timeout: silence allowed (30 s), --total: per source
                                              (120 s); exit 1 if any source was not imported
  lowcostgpu import-observations FILE|-       import a market observations CSV (all or nothing)
  lowcostgpu export-inputs --week YYYY-Www --out DIR
                                              write a published sheet, its observations and the raw files
                                              and mappings they came from, for audit --raw-inputs
  lowcostgpu publish [--week YYYY-Www] [--replace [--reason TEXT]] [--signing-key FILE | --unsigned]
                     [--public-keys KEYS.json] [--log-origin ORIGIN]
                                              compute, sign and publish a weekly sheet (default: this week),
                                              once its window has closed, with the catalog and the sheet index,
                                              and append it to the publication log (a correction with its reason)
  lowcostgpu sign --all [--resign] [--signing-key FILE] [--public-keys KEYS.json] [--log-origin ORIGIN]
                                              sign every published sheet that has no signature (--resign: every
                                              one another key signed), and the catalog and sheet index if they
                                              changed (all or nothing), logging each signing
  lowcostgpu public-key [--signing-key FILE] [--valid-from TIME] [--keys KEYS.json]
                                              print the public keys document (for serve --public-keys):
                                              the keys of KEYS.json, those still open closed at TIME,
                                              and the signing key's public key valid from TIME (default now)
  lowcostgpu serve [--listen ADDR:PORT] [--threads N] [--public-keys KEYS.json] [--public-url URL]
                                              serve the HTTP API and MCP at POST /mcp (default 127.0.0.1:8080);
                                              --public-url (PUBLIC_URL): where clients reach it, for
                                              the client configurations of / and llms.txt
  lowcostgpu mcp [--public-keys KEYS.json]    serve MCP over stdio (one JSON-RPC message per line)
  lowcostgpu serve|mcp --upstream http://HOST:PORT [--upstream-keys KEYS.json | --upstream-key-id ID,...]
                     [--upstream-interval S]  a mirror: the same, from another instance's public
                                              documents, each sheet's signature and figures
                                              checked; no database. Without --upstream-keys the
                                              origin's keys are pinned on first use (printed, kept
                                              under XDG_STATE_HOME or ~/.local/state/lowcostgpu/)
                     [--witness-checkpoint FILE] [--witness-key FILE --witness-name NAME]
                                              witness the origin's publication log: refuse a checkpoint
                                              that does not extend the one accepted last (kept in FILE
                                              across restarts) and cosign the ones it checked
  lowcostgpu audit --url http://HOST:PORT [--week YYYY-Www | --all] [--keys KEYS.json] [--timeout S]
                   [--log-checkpoint FILE]
  lowcostgpu audit --observations FILE.csv --sheet FILE.json [--raw-inputs DIR/sources.json] [--keys KEYS.json]
                                              recompute published sheets from their inputs and check
                                              their signatures (with the service's published keys
                                              unless --keys) and, over --url, the publication log
                                              (extending the checkpoint in FILE, then kept there);
                                              exit 0 only if everything matches

The signing key (an Ed25519 private key in PEM: openssl genpkey -algorithm ed25519 -out key.pem)
comes from --signing-key FILE, else LCG_SIGNING_KEY_FILE, else LCG_SIGNING_KEY (the PEM itself);
never from the database. publish refuses to run without one unless --unsigned is given, and, given
the public keys (--public-keys, LCG_PUBLIC_KEYS_FILE), with a key they do not list as valid now.
The same key signs the publication log's checkpoints under the log's origin, which the first signed
run takes from --log-origin (LCG_LOG_ORIGIN; default lowcostgpu.local/v1/log) and no later one changes.

Every command but audit and a mirror takes --database-url URL (default: the DATABASE_URL environment
variable). A mirror asks its upstream what changed every --upstream-interval S (60) and also takes
--upstream-timeout S (30: the silence allowed while fetching); audit
--url takes --timeout S (30, AUDIT_TIMEOUT) for the same; either refuses an answer over 256 MiB (audit
reads a week's observations CSV as it streams, up to the length the catalog's signature gives).
serve also takes --header-timeout S (10), --idle-timeout S (60), --max-connections N (10000),
--max-connections-per-address N (a sixteenth of --max-connections, at least 8; a trusted proxy's
connections are not counted),
--ready-max-age S (300: /readyz turns 503 when the snapshot is older), --log-every N (1: a JSON
log line per request; 0: none), --rate-limit R (requests per second per client address; 0: off),
--rate-burst B (2R), --rate-limit-loopback true|false (false), --trusted-proxies A,B (addresses
whose X-Forwarded-For is believed), --allowed-hosts H,H and --allowed-origins O,O (who may
POST /mcp; default: localhost, 127.0.0.1 and [::1] on any port; "*" allows any),
--archive-cache-bytes N (67108864: the memory kept for weeks' inputs read back from PostgreSQL,
least recently used out first; 0: none kept), --archive-stream-bytes N (67108864: the most bytes of
weeks' inputs held by the CSV and JSON streams in flight; past it, new ones get 503).
Environment: DATABASE_URL, LISTEN, THREADS, HEADER_TIMEOUT, IDLE_TIMEOUT, MAX_CONNECTIONS,
READY_MAX_AGE, LOG_EVERY, RATE_LIMIT, RATE_BURST, RATE_LIMIT_LOOPBACK, TRUSTED_PROXIES,
ALLOWED_HOSTS, ALLOWED_ORIGINS, LCG_PUBLIC_KEYS_FILE (--public-keys), LCG_SIGNING_KEY_FILE,
LCG_SIGNING_KEY, UPSTREAM, UPSTREAM_KEYS, UPSTREAM_INTERVAL, UPSTREAM_TIMEOUT, LCG_ARCHIVE_CACHE_BYTES,
LCG_ARCHIVE_STREAM_BYTES.
Flags override the environment.
)";

pricing::instant now() { return std::chrono::time_point_cast<std::chrono::seconds>(std::chrono::system_clock::now()); }

int run_migrate(arguments const& args)
{
    allow_only(args, {"database-url"}, 0);
    store::database db(database_url(args));
    auto const applied = db.migrate(migrations::all());
    for (auto const& name : applied)
        std::cout << "applied " << name << "\n";
    std::cout << (applied.empty() ? "database is up to date\n" : "migrations done\n");
    return 0;
}

int run_import(arguments const& args)
{
    allow_only(args, {"database-url"}, 1);
    if (args.positional.size() != 1)
        throw usage_error("import-observations needs a FILE (or - for standard input)");
    std::string const& path = args.positional[0];
    std::ifstream file;
    if (path != "-") {
        file.open(path, std::ios::binary);
        if (!file)
            throw usage_error("cannot open " + path);
    }
    std::istream& in = path == "-" ? std::cin : file;
    store::database db(database_url(args));
    bool const tty = isatty(STDERR_FILENO);
    auto const summary = db.import_observations(in, [tty](long lines) {
        if (tty)
            std::cerr << "\r" << lines << " lines read" << std::flush;
    });
    if (tty)
        std::cerr << "\n";
    if (!summary.ok()) {
        std::cerr << "refused: " << summary.bad_lines << " bad line(s); nothing was imported\n";
        for (auto const& p : summary.problems)
            std::cerr << "  line " << p.line << ": " << p.reason << "\n";
        if (summary.bad_lines > static_cast<long>(summary.problems.size()))
            std::cerr << "  (only the first " << summary.problems.size() << " are listed)\n";
        return 1;
    }
    std::cout << "imported " << summary.imported << " observations";
    if (summary.duplicates > 0)
        std::cout << " (" << summary.duplicates << " already imported, skipped)";
    std::cout << "\n";
    return 0;
}

// The private key sheets are signed with, if one is configured (never read from the database).
std::optional<trust::signing_key> configured_signing_key(arguments const& args)
{
    std::string pem, from;
    if (auto const file = setting(args, "signing-key", "LCG_SIGNING_KEY_FILE"); !file.empty()) {
        pem = read_whole_file(file);
        from = "signing key " + file;
    } else if (char const* text = std::getenv("LCG_SIGNING_KEY"); text && *text) {
        pem = text;
        from = "LCG_SIGNING_KEY";
    } else {
        return std::nullopt;
    }
    auto key = trust::signing_key::from_pem(pem);
    if (!key)
        throw usage_error(from + ": " + key.err().message);
    return std::move(key).value();
}

pricing::key_ring read_key_ring(std::string const& path)
{
    auto ring = trust::parse_key_ring(read_whole_file(path));
    if (!ring)
        throw usage_error(path + ": " + ring.err().message);
    return std::move(ring).value();
}

// The signing key publish and sign use must be one the published keys document (--public-keys,
// LCG_PUBLIC_KEYS_FILE) lists as valid at `at`: a key it has retired signs nothing new, and one it
// does not list would sign what nobody can verify. Without a keys document (a development set-up)
// there is nothing to check against.
void check_key_in_use(arguments const& args, trust::signing_key const& key, pricing::instant at)
{
    auto const path = setting(args, "public-keys", "LCG_PUBLIC_KEYS_FILE");
    if (path.empty())
        return;
    auto const ring = read_key_ring(path);
    auto const* listed = ring.find(key.key_id());
    if (!listed)
        throw usage_error("the signing key " + key.key_id() + " is not in the public keys " + path +
                          ": nobody could verify what it signs (add it with lowcostgpu public-key --keys)");
    if (!listed->covers(at))
        throw usage_error("the signing key " + key.key_id() + " is not valid at " + pricing::to_rfc3339(at) +
                          " (valid from " + pricing::to_rfc3339(listed->valid_from) +
                          (listed->valid_until ? " until " + pricing::to_rfc3339(*listed->valid_until) : "") +
                          " in " + path + "): a retired key signs nothing new");
}

// A signed-note signer named `name` over an Ed25519 key (tlog::note_signer wants raw signatures).
tlog::note_signer note_signer_of(std::string name, trust::signing_key const& key)
{
    return {std::move(name), tlog::raw_public_key(key.public_key_pem()).value(),
            [key](std::string_view bytes) { return *tlog::base64_decode(key.sign(bytes)); }};
}

// The log's checkpoints are signed by the sheet key under the log's origin: --log-origin
// (LCG_LOG_ORIGIN) on the first signed publication, the log's own ever after ("": keep it).
store::log_signing log_signing_of(arguments const& args, std::optional<trust::signing_key> const& key,
                                  std::string reason = {})
{
    store::log_signing out{std::nullopt, std::move(reason)};
    if (key)
        out.checkpoint = note_signer_of(setting(args, "log-origin", "LCG_LOG_ORIGIN"), *key);
    return out;
}

store::sheet_signer signer_of(trust::signing_key const& key)
{
    return [key](pricing::price_sheet& sheet) { key.sign(sheet); };
}

// Signs the /v1/catalog document of a catalog and the sheet index as of `at`.
store::catalog_signer catalog_signer_of(trust::signing_key const& key, pricing::instant at)
{
    return [key, at](pricing::catalog const& catalog, std::vector<pricing::indexed_sheet> index) {
        auto out = trust::catalog_to_sign(render::catalog_document(catalog), std::move(index), at);
        key.sign(out.signature);
        return out;
    };
}

int run_publish(arguments const& args)
{
    allow_only(args, {"database-url", "week", "replace", "reason", "signing-key", "unsigned", "public-keys", "log-origin"},
               0);
    pricing::iso_week week = pricing::week_containing(now());
    if (auto w = args.flag("week")) {
        auto parsed = pricing::parse_week(*w);
        if (!parsed)
            throw usage_error("--week: " + parsed.err().message);
        week = *parsed;
    }
    auto const key = configured_signing_key(args);
    bool const unsigned_wanted = args.flag("unsigned").has_value();
    if (key && unsigned_wanted)
        throw usage_error("--unsigned and a signing key exclude each other");
    if (!key && !unsigned_wanted)
        throw usage_error("no signing key: pass --signing-key FILE or set LCG_SIGNING_KEY_FILE (an Ed25519 key: "
                          "openssl genpkey -algorithm ed25519 -out key.pem), or publish with --unsigned and sign "
                          "later with lowcostgpu sign --all");
    std::string reason;
    if (auto r = args.flag("reason")) {
        auto checked = tlog::checked_reason(*r);
        if (!checked || !args.flag("replace"))
            throw usage_error("--reason: " + (checked ? std::string("only with --replace") : checked.err().message));
        reason = *checked;
    }
    auto const at = now();
    if (key)
        check_key_in_use(args, *key, at);
    store::database db(database_url(args));
    auto const s = publish(db, week, args.flag("replace").has_value(), at, key ? signer_of(*key) : nullptr,
                           key ? catalog_signer_of(*key, at) : nullptr, log_signing_of(args, key, reason));
    std::cout << (s.replaced ? "republished " : "published ") << pricing::to_string(s.week) << ": " << s.priced_models
              << " of " << s.models << " models priced from " << s.observations
              << " observations; inputs sha256 " << s.inputs_sha256
              << (s.key_id.empty() ? "; NOT signed" : "; signed with key " + s.key_id)
              << (s.catalog_signed ? "; the catalog and the sheet index signed" : "") << "; the publication log holds "
              << s.log_size << " entries\n";
    for (auto const& r : s.refused)
        std::cout << "  not priced: " << r.gpu << ": " << r.reason << "\n";
    return 0;
}

int run_sign(arguments const& args)
{
    allow_only(args, {"database-url", "all", "resign", "signing-key", "public-keys", "log-origin"}, 0);
    if (!args.flag("all"))
        throw usage_error("sign takes --all: it signs every published sheet that has no signature yet, and the "
                          "catalog and the sheet index if they changed since they were last signed");
    auto const key = configured_signing_key(args);
    if (!key)
        throw usage_error("no signing key: pass --signing-key FILE or set LCG_SIGNING_KEY_FILE");
    auto const at = now();
    check_key_in_use(args, *key, at);
    store::database db(database_url(args));
    // --resign: every sheet another key signed is signed again (a rotation after a compromise: the
    // new key valid from before the first sheet, the old one closed).
    auto const done = db.sign_unsigned(signer_of(*key), catalog_signer_of(*key, at), at, log_signing_of(args, key),
                                       args.flag("resign") ? key->key_id() : std::string());
    for (auto const& w : done.weeks)
        std::cout << "signed " << pricing::to_string(w) << "\n";
    if (done.catalog)
        std::cout << "signed the catalog and the sheet index\n";
    std::cout << done.weeks.size() << " sheet(s) signed with key " << key->key_id() << "; the publication log holds "
              << done.log_size << " entries\n";
    return 0;
}

// The keys document with the signing key added from --valid-from: a rotation closes the keys still
// open at that instant, so each publication time has one key.
int run_public_key(arguments const& args)
{
    allow_only(args, {"signing-key", "valid-from", "keys"}, 0);
    auto const key = configured_signing_key(args);
    if (!key)
        throw usage_error("public-key needs the signing key: --signing-key FILE or LCG_SIGNING_KEY_FILE");
    pricing::instant from = now();
    if (auto const text = args.flag("valid-from")) {
        auto const parsed = pricing::parse_utc_timestamp(*text);
        if (!parsed)
            throw usage_error("--valid-from: " + parsed.err().message);
        from = *parsed;
    }
    pricing::key_ring ring = args.flag("keys") ? read_key_ring(*args.flag("keys")) : pricing::key_ring{};
    if (ring.find(key->key_id()))
        throw usage_error("the key " + key->key_id() + " is already in " + *args.flag("keys"));
    for (auto& k : ring.keys) {
        if (!k.valid_until && k.valid_from >= from)
            throw usage_error("the key " + k.key_id + " is valid from " + pricing::to_rfc3339(k.valid_from) +
                              ": --valid-from must be later");
        if (!k.valid_until)
            k.valid_until = from;
    }
    ring.keys.push_back({key->key_id(), key->public_key_pem(), from, std::nullopt});
    std::cout << boost::json::serialize(render::keys_json(ring)) << "\n";
    return 0;
}

// The public keys serve and mcp publish: --public-keys FILE or LCG_PUBLIC_KEYS_FILE (none: an
// empty list, and the server says so on standard error, whose first line of standard output
// scripts read for the bound port).
pricing::key_ring public_keys_setting(arguments const& args)
{
    auto& log = std::cerr;
    auto const path = setting(args, "public-keys", "LCG_PUBLIC_KEYS_FILE");
    if (path.empty()) {
        log << R"({"event":"no_public_keys","detail":"no --public-keys FILE (LCG_PUBLIC_KEYS_FILE): )"
            << R"(/.well-known/lowcostgpu-keys.json lists no key, so nobody can verify the sheets"})" << std::endl;
        return {};
    }
    return read_key_ring(path);
}

// Where clients reach this instance: --public-url URL (PUBLIC_URL), an http:// or https:// base
// URL, which the home page and llms.txt write into their client configurations. Empty when not
// given: they show a placeholder.
std::string public_url_setting(arguments const& args)
{
    std::string const url = setting(args, "public-url", "PUBLIC_URL");
    if (url.empty())
        return url;
    auto const parsed = client::parse_base_url(url);
    if (!parsed)
        throw usage_error("--public-url: " + parsed.err().message);
    return parsed->to_string();
}

// What the snapshots of an instance reading PostgreSQL say of it.
snapshot::instance_facts database_instance(arguments const& args)
{
    return {public_keys_setting(args), public_url_setting(args)};
}

// A whole number from a flag or the environment, within [low, high].
long number_setting(arguments const& args, std::string_view flag, char const* env, long fallback, long low, long high)
{
    std::string const text = setting(args, flag, env, std::to_string(fallback));
    std::size_t used = 0;
    long value = 0;
    try {
        value = std::stol(text, &used);
    } catch (std::logic_error const&) {
        used = 0;
    }
    if (used != text.size() || text.empty() || value < low || value > high)
        throw usage_error("--" + std::string(flag) + " (" + env + ") takes a whole number from " + std::to_string(low) +
                          " to " + std::to_string(high) + ", not '" + text + "'");
    return value;
}

http::server_options listen_options(arguments const& args)
{
    http::server_options o;
    std::string const listen = setting(args, "listen", "LISTEN", "127.0.0.1:8080");
    auto const colon = listen.rfind(':');
    if (colon == std::string::npos)
        throw usage_error("--listen expects ADDRESS:PORT, such as 127.0.0.1:8080");
    o.address = listen.substr(0, colon);
    if (o.address.size() > 2 && o.address.front() == '[')
        o.address = o.address.substr(1, o.address.size() - 2);
    try {
        int const port = std::stoi(listen.substr(colon + 1));
        if (port < 0 || port > 65535)
            throw std::out_of_range("range");
        o.port = static_cast<unsigned short>(port);
    } catch (std::logic_error const&) {
        throw usage_error("--listen needs a port from 0 to 65535");
    }
    o.threads = static_cast<int>(number_setting(args, "threads", "THREADS", 1, 1, 256));
    o.header_timeout = std::chrono::seconds(number_setting(args, "header-timeout", "HEADER_TIMEOUT", 10, 1, 600));
    o.idle_timeout = std::chrono::seconds(number_setting(args, "idle-timeout", "IDLE_TIMEOUT", 60, 1, 3600));
    o.max_connections =
        static_cast<std::size_t>(number_setting(args, "max-connections", "MAX_CONNECTIONS", 10'000, 1, 1'000'000));
    o.max_connections_per_address = static_cast<std::size_t>(
        number_setting(args, "max-connections-per-address", "MAX_CONNECTIONS_PER_ADDRESS", 0, 0, 1'000'000));
    o.max_snapshot_age = std::chrono::seconds(number_setting(args, "ready-max-age", "READY_MAX_AGE", 300, 1, 86'400));
    o.log_every = static_cast<int>(number_setting(args, "log-every", "LOG_EVERY", 1, 0, 1'000'000));
    long const rate = number_setting(args, "rate-limit", "RATE_LIMIT", 0, 0, 1'000'000);
    if (rate > 0) {
        ops::rate_limit_options limit;
        limit.per_second = static_cast<double>(rate);
        limit.burst = static_cast<double>(number_setting(args, "rate-burst", "RATE_BURST", 2 * rate, 1, 10'000'000));
        limit.limit_loopback = setting(args, "rate-limit-loopback", "RATE_LIMIT_LOOPBACK", "false") == "true";
        o.rate_limit = limit;
    }
    std::string const proxies = setting(args, "trusted-proxies", "TRUSTED_PROXIES");
    for (auto proxy : http::list_items(proxies))
        o.trusted_proxies.emplace_back(proxy);
    auto policy = std::make_shared<http::mcp_access>();
    policy->allowed_hosts = http::mcp_access::parse_list(setting(args, "allowed-hosts", "ALLOWED_HOSTS"));
    policy->allowed_origins = http::mcp_access::parse_list(setting(args, "allowed-origins", "ALLOWED_ORIGINS"));
    o.mcp_policy = std::move(policy);
    return o;
}

int run_audit(arguments const& args)
{
    allow_only(args, {"url", "week", "all", "observations", "sheet", "keys", "timeout", "raw-inputs", "log-checkpoint"}, 0);
    std::optional<pricing::key_ring> keys;
    if (auto const path = args.flag("keys"))
        keys = read_key_ring(*path);
    if (args.flag("observations") || args.flag("sheet")) {
        if (!args.flag("observations") || !args.flag("sheet") || args.flag("url"))
            throw usage_error("offline audit takes both --observations FILE.csv and --sheet FILE.json, and no --url");
        auto const verdict = audit::audit_sheet(
            read_whole_file(*args.flag("sheet")),
            [&](client::body_sink const& sink) { read_file_in_pieces(*args.flag("observations"), sink); }, std::cout,
            keys ? &*keys : nullptr);
        bool ok = verdict.ok;
        if (auto const manifest = args.flag("raw-inputs")) {
            auto const folder = std::filesystem::path(*manifest).parent_path();
            auto const read = [&](std::string const& path, std::uint64_t max_bytes) {
                auto const file = folder / path;
                if (std::filesystem::file_size(file) > max_bytes)
                    throw std::runtime_error(file.string() + " is longer than " + std::to_string(max_bytes) + " bytes");
                return read_whole_file(file.string());
            };
            ok = audit::audit_raw_inputs(read_whole_file(*manifest), read, verdict.inputs_sha256, verdict.observations,
                                         std::cout) &&
                 ok;
        }
        return ok ? 0 : 1;
    }
    auto const url = args.flag("url");
    if (!url)
        throw usage_error("audit needs --url http://HOST:PORT, or --observations and --sheet");
    if (args.flag("week") && args.flag("all"))
        throw usage_error("--week and --all exclude each other");
    if (auto w = args.flag("week"); w && !pricing::parse_week(*w))
        throw usage_error("--week: " + pricing::parse_week(*w).err().message);
    client::limits limits;
    limits.timeout = std::chrono::seconds(
        number_setting(args, "timeout", "AUDIT_TIMEOUT", pricing::rules::fetch_timeout_seconds, 1, 3600));
    // --log-checkpoint FILE: the log's checkpoint this auditor accepted last, which the log must
    // extend; the new one replaces it once the audit passes (an auditor as a witness).
    audit::log_memory log;
    auto const remembered = args.flag("log-checkpoint");
    if (remembered && std::filesystem::exists(*remembered))
        log.previous = read_whole_file(*remembered);
    bool const ok = audit::audit_service(*url, args.flag("week").value_or(""), args.flag("all").has_value(), limits,
                                         std::cout, std::move(keys), &log);
    if (ok && remembered)
        std::ofstream(*remembered, std::ios::binary | std::ios::trunc) << log.accepted;
    return ok ? 0 : 1;
}

// Raises the soft limit on open files to the hard one, then lowers `max_connections` if even that
// cannot hold them: a connection past the descriptor limit would wait unaccepted in the backlog
// instead of getting its 503. `reserve` covers everything else the process opens.
void fit_connections_to_descriptors(http::server_options& o)
{
    rlimit limit{};
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0)
        return;
    rlim_t const before = limit.rlim_cur;
    if (limit.rlim_cur < limit.rlim_max) {
        limit.rlim_cur = limit.rlim_max;
        if (setrlimit(RLIMIT_NOFILE, &limit) != 0)
            limit.rlim_cur = before;
    }
    // Standard streams, listeners, each worker's event loop and the memory files of its stored
    // answers, the database connections, and one descriptor to accept and refuse with a 503.
    std::size_t const reserve = 32 + http::descriptors_per_thread * static_cast<std::size_t>(o.threads);
    if (limit.rlim_cur == RLIM_INFINITY || limit.rlim_cur >= o.max_connections + reserve)
        return;
    std::size_t const fitting = limit.rlim_cur > reserve + 1 ? limit.rlim_cur - reserve : 1;
    boost::json::object line{{"event", "max_connections_lowered"},
                             {"detail", "the open-file limit cannot hold --max-connections; lowered to fit"},
                             {"requested", o.max_connections},
                             {"max_connections", fitting},
                             {"open_files_limit", limit.rlim_cur},
                             {"open_files_hard_limit", limit.rlim_max},
                             {"reserved_descriptors", reserve}};
    std::cout << boost::json::serialize(line) << std::endl;
    o.max_connections = fitting;
}

// The keys every sheet of a mirror must verify with (without them it could not tell the origin's
// sheets from altered ones): those of --upstream-keys (UPSTREAM_KEYS), kept from a download the
// operator trusts; else those pinned on the first use of this upstream (mirror::key_pin), narrowed
// to --upstream-key-id (UPSTREAM_KEY_ID: ids given out of band, comma-separated) when given.
pricing::key_ring upstream_keys(arguments const& args, mirror::upstream_options const& o)
{
    std::string const ids = setting(args, "upstream-key-id", "UPSTREAM_KEY_ID");
    if (std::string const keys = setting(args, "upstream-keys", "UPSTREAM_KEYS"); !keys.empty()) {
        if (!ids.empty())
            throw usage_error("--upstream-key-id pins keys on first use; with --upstream-keys the keys are given whole");
        return read_key_ring(keys);
    }
    std::filesystem::path state;
    if (char const* xdg = std::getenv("XDG_STATE_HOME"); xdg && *xdg)
        state = xdg;
    else if (char const* home = std::getenv("HOME"); home && *home)
        state = std::filesystem::path(home) / ".local" / "state";
    else
        throw usage_error("--upstream without --upstream-keys pins the origin's keys under XDG_STATE_HOME or "
                          "HOME/.local/state, and neither is set");
    mirror::key_pin pin{mirror::pin_file_for(o.origin, state), {}};
    for (auto id : http::list_items(ids))
        pin.expected_ids.emplace_back(id);
    return mirror::pinned_keys(o.origin, o.limits, pin, std::cerr);
}

// How a mirror witnesses its upstream's log: where it keeps the checkpoint it accepted last
// (--witness-checkpoint, WITNESS_CHECKPOINT) and the key it cosigns with (--witness-key FILE, an
// Ed25519 PEM, named by --witness-name, WITNESS_NAME).
mirror::witness_options witness_settings(arguments const& args)
{
    mirror::witness_options w;
    if (auto const file = setting(args, "witness-checkpoint", "WITNESS_CHECKPOINT"); !file.empty())
        w.checkpoint_file = file;
    std::string const key_file = setting(args, "witness-key", "WITNESS_KEY_FILE");
    std::string const name = setting(args, "witness-name", "WITNESS_NAME");
    if (key_file.empty() != name.empty())
        throw usage_error("--witness-key and --witness-name go together: the cosignature names its key");
    if (key_file.empty())
        return w;
    auto key = trust::signing_key::from_pem(read_whole_file(key_file));
    if (!key)
        throw usage_error("--witness-key " + key_file + ": " + key.err().message);
    w.cosigner = note_signer_of(name, *key);
    return w;
}

// A mirror's source: the upstream named by --upstream (UPSTREAM), or nothing when the snapshot comes
// from PostgreSQL. A mirror reads no database, so --database-url with it is a mistake.
std::optional<mirror::upstream_options> upstream_settings(arguments const& args)
{
    std::string const url = setting(args, "upstream", "UPSTREAM");
    if (url.empty()) {
        for (char const* flag : {"upstream-keys", "upstream-key-id", "upstream-interval", "upstream-timeout",
                                 "witness-checkpoint", "witness-key", "witness-name"})
            if (args.flag(flag))
                throw usage_error(std::string("--") + flag + " needs --upstream");
        return std::nullopt;
    }
    if (args.flag("database-url"))
        throw usage_error("--upstream and --database-url exclude each other: a mirror reads no database");
    auto origin = client::parse_base_url(url);
    if (!origin)
        throw usage_error("--upstream: " + origin.err().message);
    mirror::upstream_options o;
    o.origin = *origin;
    if (args.flag("public-keys"))
        throw usage_error("--public-keys and --upstream exclude each other: a mirror publishes the keys it verifies "
                          "with (--upstream-keys)");
    o.limits.timeout = std::chrono::seconds(
        number_setting(args, "upstream-timeout", "UPSTREAM_TIMEOUT", pricing::rules::fetch_timeout_seconds, 1, 3600));
    // An upstream that drips its answers is given up, not waited on for the whole total.
    o.limits.min_bytes_per_second = pricing::rules::upstream_min_bytes_per_second;
    o.pinned_keys = upstream_keys(args, o);
    o.public_url = public_url_setting(args);
    o.witness = witness_settings(args);
    return o;
}

// How long a request waits for a week's inputs before it gets 503, and the bound on each read.
constexpr std::chrono::milliseconds archive_timeout{5000};
// What the background (refresher, follower, archive readers) is given to end once serving has
// stopped: a stop takes at most the drain timeout and this (ops/stop_deadline.hpp).
constexpr std::chrono::milliseconds stop_grace{5000};

// The archive of the sheets' inputs: its cache budget (--archive-cache-bytes, LCG_ARCHIVE_CACHE_BYTES)
// and that of the streams in flight (--archive-stream-bytes, LCG_ARCHIVE_STREAM_BYTES).
archive::options archive_settings(arguments const& args)
{
    archive::options o;  // its defaults are the settings' defaults
    o.cache_bytes = static_cast<std::size_t>(number_setting(args, "archive-cache-bytes", "LCG_ARCHIVE_CACHE_BYTES",
                                                            static_cast<long>(o.cache_bytes), 0, 1L << 40));
    o.stream_bytes = static_cast<std::size_t>(number_setting(args, "archive-stream-bytes", "LCG_ARCHIVE_STREAM_BYTES",
                                                             static_cast<long>(o.stream_bytes), 1L << 20, 1L << 40));
    o.timeout = archive_timeout;
    return o;
}

std::chrono::seconds upstream_interval(arguments const& args)
{
    return std::chrono::seconds(number_setting(args, "upstream-interval", "UPSTREAM_INTERVAL",
                                               pricing::rules::upstream_interval_seconds, 1, 86'400));
}

int run_serve(arguments const& args)
{
    allow_only(args, {"database-url", "listen", "threads", "header-timeout", "idle-timeout", "max-connections",
                      "ready-max-age", "log-every", "rate-limit", "rate-burst", "rate-limit-loopback",
                      "max-connections-per-address",
                      "trusted-proxies", "allowed-hosts", "allowed-origins", "public-keys", "upstream",
                      "upstream-keys", "upstream-key-id", "upstream-interval", "upstream-timeout", "archive-cache-bytes",
                      "public-url", "witness-checkpoint", "witness-key", "witness-name",
                      "archive-stream-bytes"},
               0);
    auto options = listen_options(args);
    fit_connections_to_descriptors(options);
    auto const mirrored = upstream_settings(args);
    std::optional<mirror::upstream> upstream;
    if (mirrored)
        upstream.emplace(*mirrored);
    // The sheets' inputs, read on demand: from the upstream for a mirror, else from PostgreSQL.
    archive::archive inputs(archive_settings(args), upstream ? upstream->inputs_sources()
                                                             : archive::database_sources(database_url(args), archive_timeout));
    options.archive = &inputs;
    snapshot::holder snapshots;
    http::server server(options, snapshots);
    // Every line from here on goes through the process's log writer: a reader that stops reading
    // standard output costs dropped lines, never a stalled server (issue 29, H3).
    ops::log_stream log(ops::process_log()), background_log(ops::process_log());
    log << "listening on http://" << options.address << ":" << server.port() << std::endl;
    std::optional<ops::stop_deadline> deadline;
    if (upstream) {
        mirror::follower follower(*upstream, snapshots, upstream_interval(args), background_log);
        follower.start();
        server.run();
        deadline.emplace(stop_grace, "the mirror's follower or the archive (the upstream)", ops::process_log());
        follower.stop();
    } else {
        snapshot::refresher refresher(database_url(args), snapshots, std::chrono::seconds(30), background_log,
                                      database_instance(args));
        refresher.start();
        server.run();
        deadline.emplace(stop_grace, "the snapshot refresher or the archive (PostgreSQL)", ops::process_log());
        refresher.stop();
    }
    inputs.stop();  // before the server goes: its last answers are posted to the workers' loops
    log << "stopped" << std::endl;
    return 0;
}

// MCP over stdio: standard output carries protocol messages only, so every log line goes to
// standard error. The first snapshot is loaded before the first message (a database or an upstream
// that cannot be read is an error at start); afterwards the snapshot follows its source as serve's does.
int run_mcp(arguments const& args)
{
    allow_only(args, {"database-url", "public-keys", "public-url", "upstream", "upstream-keys", "upstream-key-id",
                      "upstream-interval", "upstream-timeout", "witness-checkpoint", "witness-key", "witness-name"}, 0);
    // Standard output is the protocol: every log line goes to standard error.
    ops::process_log().redirect(STDERR_FILENO);
    auto const mirrored = upstream_settings(args);
    snapshot::holder snapshots;
    std::optional<mirror::upstream> source;
    std::optional<mirror::follower> follower;
    std::optional<snapshot::refresher> refresher;
    if (mirrored) {
        source.emplace(*mirrored);
        follower.emplace(*source, snapshots, upstream_interval(args), std::cerr);
        if (!follower->follow_once())
            throw std::runtime_error("the upstream " + source->url() + " offered no state that could be accepted (" +
                                     snapshots.upstream()->detail + ")");
        follower->start();
    } else {
        auto const self = database_instance(args);
        snapshots.set(snapshot::load_once(database_url(args), self));
        refresher.emplace(database_url(args), snapshots, std::chrono::seconds(30), std::cerr, self);
        refresher->start();
    }
    auto const first = snapshots.get();
    std::cerr << "lowcostgpu mcp: serving MCP on stdio; sheet in effect: "
              << (first->current ? pricing::to_string(first->current->week) : std::string("none")) << std::endl;
    mcp_bridge::server_cache servers;
    mcp::serve_stdio([&] { return servers.get(snapshots.get()); }, std::cin, std::cout, &std::cerr);
    ops::stop_deadline deadline(stop_grace, mirrored ? "the mirror's follower (the upstream)" : "the snapshot refresher (PostgreSQL)",
                                ops::process_log());
    if (follower)
        follower->stop();
    if (refresher)
        refresher->stop();
    std::cerr << "lowcostgpu mcp: end of input" << std::endl;
    return 0;
}

}

int main(int argc, char** argv)
{
    std::string const command = argc > 1 ? argv[1] : "";
    try {
        if (command == "migrate")
            return run_migrate(parse_arguments(argc, argv, {}));
        if (command == "import-observations")
            return run_import(parse_arguments(argc, argv, {}));
        if (command == "import-listings")
            return run_import_listings(parse_arguments(argc, argv, {"json"}));
        if (command == "collect")
            return run_collect(parse_arguments(argc, argv, {"json"}));
        if (command == "export-inputs")
            return run_export_inputs(parse_arguments(argc, argv, {}));
        if (command == "publish")
            return run_publish(parse_arguments(argc, argv, {"replace", "unsigned"}));
        if (command == "sign")
            return run_sign(parse_arguments(argc, argv, {"all", "resign"}));
        if (command == "public-key")
            return run_public_key(parse_arguments(argc, argv, {}));
        if (command == "audit")
            return run_audit(parse_arguments(argc, argv, {"all"}));
        if (command == "mcp")
            return run_mcp(parse_arguments(argc, argv, {}));
        if (command == "serve")
            return run_serve(parse_arguments(argc, argv, {}));
        if (command == "--help" || command == "-h" || command == "help") {
            std::cout << usage;
            return 0;
        }
        std::cerr << (command.empty() ? "" : "unknown command '" + command + "'\n\n") << usage;
        return 2;
    } catch (usage_error const& e) {
        std::cerr << "lowcostgpu " << command << ": " << e.what() << "\n";
        return 2;
    } catch (store::store_error const& e) {
        std::cerr << "lowcostgpu " << command << ": " << e.what() << "\n";
        return 1;
    } catch (std::exception const& e) {
        std::cerr << "lowcostgpu " << command << ": " << e.what() << "\n";
        return 1;
    }
}
