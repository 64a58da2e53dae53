#pragma once

#include "mcp/server.hpp"

#include <iosfwd>

namespace lcg::mcp {

// The stdio transport: one JSON-RPC message per line on `in`, each answer on its own line on `out`
// (notifications get none), until end of input. Blank lines are skipped; a line longer than
// max_message_bytes is discarded unread and answered with -32600. Returns when `in` ends or `out`
// fails.
void serve_stdio(server const& mcp, std::istream& in, std::ostream& out);

}
