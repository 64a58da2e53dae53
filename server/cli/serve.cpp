// lowcostgpu serve: the HTTP API and MCP at POST /mcp, from PostgreSQL or, as a mirror, from
// another instance.
#include "server/cli/commands.hpp"
#include "server/cli/settings.hpp"
#include "server/http/server.hpp"
#include "server/mirror/follower.hpp"
#include "server/ops/log_writer.hpp"
#include "server/ops/stop_deadline.hpp"
#include "server/snapshot/refresher.hpp"

#include <boost/json.hpp>

#include <iostream>
#include <optional>

#include <sys/resource.h>

#include <unistd.h>

namespace lcg::cli {

namespace {

// Raises the soft limit on open files to the hard one (the one place that does: http::server leaves
// the process's limits to its caller), then lowers `max_connections` if even that cannot hold
// them: a connection past the descriptor limit would wait unaccepted in the backlog instead of
// getting its 503. `reserve` covers everything else the process opens.
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
    // Every line goes through one log writer: a reader that stops reading standard output costs
    // dropped lines, never a stalled server (issue 29, H3).
    ops::log_writer log_out(STDOUT_FILENO);
    ops::metrics metrics(log_out);  // /metrics: every part of this server counts here
    auto archive_options = archive_settings(args);
    archive_options.metrics = &metrics;
    archive::archive inputs(archive_options, upstream ? upstream->inputs_sources()
                                                      : archive::database_sources(database_url(args), archive_timeout));
    options.archive = &inputs;
    snapshot::holder snapshots;
    http::server server(options, snapshots, metrics);
    ops::log_stream log(log_out), background_log(log_out);
    log << "listening on http://" << options.address << ":" << server.port() << std::endl;
    std::optional<ops::stop_deadline> deadline;
    if (upstream) {
        mirror::follower follower(*upstream, snapshots, upstream_interval(args), background_log, &metrics);
        follower.start();
        server.run();
        deadline.emplace(stop_grace, "the mirror's follower or the archive (the upstream)", log_out);
        follower.stop();
    } else {
        snapshot::refresher refresher(database_url(args), snapshots, std::chrono::seconds(30), background_log,
                                      database_instance(args), &metrics);
        refresher.start();
        server.run();
        deadline.emplace(stop_grace, "the snapshot refresher or the archive (PostgreSQL)", log_out);
        refresher.stop();
    }
    inputs.stop();  // before the server goes: its last answers are posted to the workers' loops
    log << "stopped" << std::endl;
    return 0;
}

}
