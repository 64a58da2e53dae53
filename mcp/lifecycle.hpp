#pragma once

#include "mcp/dispatch.hpp"

#include <boost/json/object.hpp>

#include <string_view>

// The protocol's versions and lifecycle: which era a request is in (negotiated from its params._meta
// and, over HTTP, the MCP-Protocol-Version, Mcp-Method and Mcp-Name headers), and the methods that
// open and describe a connection: initialize, ping and logging/setLevel (legacy) and server/discover.
namespace lcg::mcp {

inline constexpr std::string_view batch_version = "2025-03-26";  // the one revision with JSON-RPC batches

bool is_known(std::string_view version);

// -32022, naming the versions this server speaks.
failure unsupported_version(std::string_view requested);

enum class era { legacy, modern };

// The era of a request whose envelope is valid. Modern when params._meta or, over HTTP, the
// MCP-Protocol-Version header names 2026-07-28; then, over HTTP, the header, Mcp-Method and (for
// tools/call, prompts/get and resources/read) Mcp-Name must mirror the body (-32020), and _meta
// must carry the version and the client's capabilities (-32602). An unknown version in the header
// or in _meta is -32022 in either era.
result_or_failure<era> negotiate(std::string_view method, boost::json::object const* params,
                                 message_context const& context);

// The lifecycle's rows of the method table (mcp/dispatch.cpp).
reply initialize(server_state const& state, request const& r);
reply ping(server_state const& state, request const& r);
reply logging_set_level(server_state const& state, request const& r);
reply server_discover(server_state const& state, request const& r);

}
