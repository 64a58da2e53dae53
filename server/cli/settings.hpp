#pragma once

// What the flags and environment variables of serve and mcp settle into: where the server
// listens and its limits, the public keys and URL it states, a mirror's upstream, the archive's
// budgets, and how long the background is given to stop.
#include "server/archive/archive.hpp"
#include "server/cli/arguments.hpp"
#include "server/http/server.hpp"
#include "server/mirror/upstream.hpp"
#include "server/snapshot/snapshot.hpp"

#include "pricing/signing.hpp"

#include <chrono>
#include <optional>
#include <string>

namespace lcg::cli {

// How long a request waits for a week's inputs before it gets 503, and the bound on each read.
inline constexpr std::chrono::milliseconds archive_timeout{5000};
// What the background (refresher, follower, archive readers) is given to end once serving has
// stopped: a stop takes at most the drain timeout and this (ops/stop_deadline.hpp).
inline constexpr std::chrono::milliseconds stop_grace{5000};

// --listen, --threads and the server's other limits (see lowcostgpu --help).
http::server_options listen_options(arguments const& args);
// The public keys serve and mcp publish: --public-keys FILE or LCG_PUBLIC_KEYS_FILE; none is an
// empty list, said on standard error.
pricing::key_ring public_keys_setting(arguments const& args);
// Where clients reach this instance: --public-url URL (PUBLIC_URL), checked; empty when not given.
std::string public_url_setting(arguments const& args);
// What the snapshots of an instance reading PostgreSQL say of it.
snapshot::instance_facts database_instance(arguments const& args);
// A mirror's source: the upstream named by --upstream (UPSTREAM) with its keys and witnessing, or
// nullopt when the snapshot comes from PostgreSQL.
std::optional<mirror::upstream_options> upstream_settings(arguments const& args);
// How often a mirror asks its upstream what changed: --upstream-interval S (UPSTREAM_INTERVAL).
std::chrono::seconds upstream_interval(arguments const& args);
// The archive of the sheets' inputs: its cache budget (--archive-cache-bytes, LCG_ARCHIVE_CACHE_BYTES)
// and that of the streams in flight (--archive-stream-bytes, LCG_ARCHIVE_STREAM_BYTES).
archive::options archive_settings(arguments const& args);

}
