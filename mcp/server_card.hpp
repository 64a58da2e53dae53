#pragma once

#include "mcp/server.hpp"

#include <boost/json/object.hpp>

#include <string_view>

namespace lcg::mcp {

// The MCP server card (/.well-known/mcp/server-card.json, after SEP-1649 and its successor draft):
// who the server is, where its Streamable HTTP endpoint is (`endpoint`, a path or a URL), the
// protocol versions and capabilities it speaks and its tools with their schemas, so a client or a
// registry can see all of it before connecting. Generated from the registry like tools/list.
boost::json::object server_card(implementation const& info, std::string_view endpoint);

}
