#include "mcp/server_card.hpp"

#include "mcp/tool_calls.hpp"

#include "render/site.hpp"

namespace lcg::mcp {

namespace {

boost::json::array versions_spoken()
{
    boost::json::array versions;
    for (auto v : supported_versions)
        versions.emplace_back(v);
    return versions;
}

}

boost::json::object server_card(implementation const& info, card_identity const& id, std::string_view base_url)
{
    std::string const endpoint_url = std::string(base_url) + "/mcp";
    boost::json::object local{{"transport", "stdio"}};
    for (auto const& member : render::local_mirror_command(base_url))
        local.emplace(member.key(), member.value());
    local.emplace("package", "deb");
    // The card's version is the implementation's, so that it agrees with serverInfo as the draft
    // asks; its name is the registry's, since serverInfo.name is free-form.
    return {{"$schema", server_card_schema},
            {"name", id.name},
            {"version", info.version},
            {"title", info.title},
            {"description", id.description},
            {"remotes",
             boost::json::array{{{"type", "streamable-http"},
                                 {"url", endpoint_url},
                                 {"supportedProtocolVersions", versions_spoken()}}}},
            {"_meta", {{card_local_key, std::move(local)}}}};
}

boost::json::object legacy_server_card(implementation const& info, std::string_view endpoint)
{
    return {{"$schema", "https://static.modelcontextprotocol.io/schemas/mcp-server-card/v1.json"},
            {"version", "1.0"},
            {"name", info.name},
            {"title", info.title},
            {"description", "LowCostGPU's public GPU price sheet, catalog and glossary: per-GPU hourly rates capped "
                            "at 70 % of the public market median, job cost estimates, model sizing and comparisons. "
                            "Read-only, no account, stateless (any replica answers any request)."},
            {"serverInfo", {{"name", info.name}, {"title", info.title}, {"version", info.version}}},
            {"protocolVersion", modern_version},
            {"protocolVersions", versions_spoken()},
            {"transport", {{"type", "streamable-http"}, {"endpoint", endpoint}}},
            {"authentication", {{"required", false}}},
            {"capabilities", server_capabilities(true)},
            {"tools", tool_definitions()}};
}

}
