#pragma once

#include <string>
#include <string_view>

namespace lcg::mcp {

// A tool a message called and how that ended: "ok", "tool_error" (isError) or "rpc_error". A name
// no tool has is "(unknown)", so a client cannot mint labels. A transport counts it in its metrics,
// and counts it again when it answers the same message from a stored reply.
struct tool_call {
    std::string tool;
    std::string_view outcome;  // one of the three literals above
};

}
