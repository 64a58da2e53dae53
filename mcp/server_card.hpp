#pragma once

#include "mcp/server.hpp"

#include <boost/json/object.hpp>

#include <string>
#include <string_view>

namespace lcg::mcp {

// The media type of a server card (SEP-2127, the "MCP Server Cards" extension), and the URL its
// `$schema` must name: the card schema's v1 family.
inline constexpr std::string_view server_card_media_type = "application/mcp-server-card+json";
inline constexpr std::string_view server_card_schema =
    "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json";

// What a card says of the server besides its implementation (serverInfo): the name the MCP
// registry knows it by, in reverse-DNS form with exactly one slash ("io.github.owner/name"), and a
// description of 1 to 100 characters. deploy/server.json, the registry entry, states the same two.
struct card_identity {
    std::string name;
    std::string description;
};

// The server card of SEP-2127: identity (`name`, `version`, `title`, `description`) and one remote,
// the Streamable HTTP endpoint at `base_url` + "/mcp" (`base_url`: where clients reach the service,
// an absolute http:// or https:// URL) with the protocol versions it answers. It lists no tools,
// resources or prompts: the draft leaves those to the list methods, so the card cannot go stale
// when they change. Its `_meta` gives, under card_local_key, the command a client starts for a
// local mirror of the service over stdio (`lowcostgpu mcp --upstream base_url`), as the home page
// and llms.txt do.
inline constexpr std::string_view card_local_key = "io.github.lowcostgpu/local";
boost::json::object server_card(implementation const& info, card_identity const& id, std::string_view base_url);

// The document of the earlier drafts (SEP-1649), still served at /.well-known/mcp/server-card.json
// and /.well-known/mcp.json for the clients that read it: serverInfo, the endpoint (`endpoint`, a
// path or a URL), the protocol versions, the capabilities and every tool with its schemas, generated
// from the registry like tools/list.
boost::json::object legacy_server_card(implementation const& info, std::string_view endpoint);

}
