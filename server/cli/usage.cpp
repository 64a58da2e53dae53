#include "server/cli/usage.hpp"

namespace lcg::cli {

namespace {

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

Every command but audit, public-key and a mirror takes --database-url URL (default: the DATABASE_URL environment
variable). A mirror asks its upstream what changed every --upstream-interval S (60) and also takes
--upstream-timeout S (30: the silence allowed while fetching); audit
--url takes --timeout S (30, AUDIT_TIMEOUT) for the same; either refuses an answer over 256 MiB (audit
reads a week's observations CSV as it streams, up to the length the catalog's signature gives).
audit's --sheet or --observations, like the FILE of the imports, may be - for standard input.
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
weeks' inputs held by the CSV and JSON streams in flight, a quarter of it for one client's; past
either, new ones get 503).
Environment: DATABASE_URL, LISTEN, THREADS, HEADER_TIMEOUT, IDLE_TIMEOUT, MAX_CONNECTIONS,
READY_MAX_AGE, LOG_EVERY, RATE_LIMIT, RATE_BURST, RATE_LIMIT_LOOPBACK, TRUSTED_PROXIES,
ALLOWED_HOSTS, ALLOWED_ORIGINS, LCG_PUBLIC_KEYS_FILE (--public-keys), LCG_SIGNING_KEY_FILE,
LCG_SIGNING_KEY, UPSTREAM, UPSTREAM_KEYS, UPSTREAM_INTERVAL, UPSTREAM_TIMEOUT, LCG_ARCHIVE_CACHE_BYTES,
LCG_ARCHIVE_STREAM_BYTES.
Flags override the environment.
)";

}

char const* usage_text() { return usage; }

}
