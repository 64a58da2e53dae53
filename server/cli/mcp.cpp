// lowcostgpu mcp: MCP over stdio, one JSON-RPC message per line.
#include "server/cli/commands.hpp"
#include "server/cli/settings.hpp"
#include "server/mcp_bridge/snapshot_view.hpp"
#include "server/mirror/follower.hpp"
#include "server/ops/log_writer.hpp"
#include "server/ops/stop_deadline.hpp"
#include "server/snapshot/refresher.hpp"

#include "mcp/stdio.hpp"

#include "pricing/calendar.hpp"

#include <iostream>
#include <optional>
#include <stdexcept>

#include <unistd.h>

namespace lcg::cli {

// MCP over stdio: standard output carries protocol messages only, so every log line goes to
// standard error. The first snapshot is loaded before the first message (a database or an upstream
// that cannot be read is an error at start); afterwards the snapshot follows its source as serve's does.
int run_mcp(arguments const& args)
{
    allow_only(args, {"database-url", "public-keys", "public-url", "upstream", "upstream-keys", "upstream-key-id",
                      "upstream-interval", "upstream-timeout", "witness-checkpoint", "witness-key", "witness-name"}, 0);
    // Standard output is the protocol: every log line goes to standard error.
    ops::log_writer log_err(STDERR_FILENO);
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
                                log_err);
    if (follower)
        follower->stop();
    if (refresher)
        refresher->stop();
    std::cerr << "lowcostgpu mcp: end of input" << std::endl;
    return 0;
}

}
