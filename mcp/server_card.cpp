#include "mcp/server_card.hpp"

#include "mcp/tool_calls.hpp"

namespace lcg::mcp {

boost::json::object server_card(implementation const& info, std::string_view endpoint)
{
    namespace json = boost::json;
    json::array versions;
    for (auto v : supported_versions)
        versions.emplace_back(v);
    return {{"$schema", "https://static.modelcontextprotocol.io/schemas/mcp-server-card/v1.json"},
            {"version", "1.0"},
            {"name", info.name},
            {"title", info.title},
            {"description", "LowCostGPU's public GPU price sheet, catalog and glossary: per-GPU hourly rates capped "
                            "at 70 % of the public market median, job cost estimates, model sizing and comparisons. "
                            "Read-only, no account, stateless (any replica answers any request)."},
            {"serverInfo", {{"name", info.name}, {"title", info.title}, {"version", info.version}}},
            {"protocolVersion", modern_version},
            {"protocolVersions", std::move(versions)},
            {"transport", {{"type", "streamable-http"}, {"endpoint", endpoint}}},
            {"authentication", {{"required", false}}},
            {"capabilities", server_capabilities(true)},
            {"tools", tool_definitions()}};
}

}
