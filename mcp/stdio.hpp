#pragma once

#include "mcp/server.hpp"

#include <functional>
#include <iosfwd>
#include <memory>

namespace lcg::mcp {

// The stdio transport: one JSON-RPC message per line on `in`, each answer on its own line on `out`
// (notifications get none; a batch gets one line holding the array of its answers), until end of
// input. Blank lines are skipped; a line longer than
// max_message_bytes is discarded unread and answered with -32600. Returns when `in` ends or `out`
// fails. Each message is answered by the server `current` gives at that moment, so a long-lived
// process follows new data (the server holds no session state between messages).
// Each exception caught while answering is written to `log`, when given, as one JSON line
// ({"event":"caught_exception","where":"mcp","detail":…}).
void serve_stdio(std::function<std::shared_ptr<const server>()> const& current, std::istream& in, std::ostream& out,
                 std::ostream* log = nullptr);

}
