#pragma once

#include "mcp/server.hpp"

#include <chrono>
#include <functional>
#include <iosfwd>
#include <memory>

namespace lcg::mcp {

// How often a stdio session looks for new data to announce.
inline constexpr std::chrono::milliseconds announce_interval{500};

// The stdio transport: one JSON-RPC message per line on `in`, each answer on its own line on `out`
// (notifications get none; a batch gets one line holding the array of its answers), until end of
// input. Blank lines are skipped; a line longer than max_message_bytes is discarded unread and
// answered with -32600. Returns when `in` ends or `out` fails. Each message is answered by the
// server `current` gives at that moment, so a long-lived process follows new data.
//
// The session is the one place that keeps state: the URIs the client subscribed to. When `current`
// gives a server over different data, it announces what changed, once the client has spoken:
// notifications/resources/list_changed when the published sheets changed (a sheet URI appeared or
// was replaced), and notifications/resources/updated for each subscribed URI whose contents differ.
// Each exception caught while answering is written to `log`, when given, as one JSON line
// ({"event":"caught_exception","where":"mcp","detail":…}).
void serve_stdio(std::function<std::shared_ptr<const server>()> const& current, std::istream& in, std::ostream& out,
                 std::ostream* log = nullptr, std::chrono::milliseconds interval = announce_interval);

}
