// mcp::server_card against what the SEP-2127 draft's schema requires of a card (its schema.ts, read
// as constraints: the tests/mcp/e2e check validates the served card against a JSON Schema too), and
// the earlier drafts' document, which must keep listing every tool of tools/list.
#include "mcp/server_card.hpp"

#include "mcp/tool_calls.hpp"

#include <boost/json.hpp>
#include <doctest/doctest.h>

#include <regex>
#include <string>

using namespace lcg;
namespace json = boost::json;

namespace {

mcp::implementation const info{"lowcostgpu", "LowCostGPU pricing", "1.2.3"};
mcp::card_identity const identity{"io.github.lowcostgpu/pricing", "What the server does, in at most 100 characters"};

bool matches(json::value const& v, char const* pattern)
{
    return v.is_string() && std::regex_match(std::string(v.as_string()), std::regex(pattern));
}

}

TEST_CASE("the card has the draft's required members, within their bounds")
{
    auto const card = mcp::server_card(info, identity, "https://api.lowcostgpu.example");
    CHECK(card.at("$schema") == "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json");
    CHECK(card.at("$schema").as_string() == mcp::server_card_schema);
    CHECK(matches(card.at("name"), "[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+"));
    CHECK(card.at("name").as_string().size() >= 3);
    CHECK(card.at("name").as_string().size() <= 200);
    CHECK(card.at("version") == "1.2.3");
    CHECK(card.at("title") == "LowCostGPU pricing");
    auto const& description = card.at("description").as_string();
    CHECK_FALSE(description.empty());
    CHECK(description.size() <= 100);
    for (auto const& member : card) {
        std::string const key(member.key());  // named: doctest's lambdas cannot capture a structured binding
        CHECK_MESSAGE((key == "$schema" || key == "name" || key == "version" || key == "title" ||
                       key == "description" || key == "remotes" || key == "_meta"),
                      "a member the card does not set: ", key);
    }
}

TEST_CASE("the card's one remote is the Streamable HTTP endpoint with every protocol version the server speaks")
{
    auto const card = mcp::server_card(info, identity, "http://127.0.0.1:8080");
    auto const& remotes = card.at("remotes").as_array();
    REQUIRE(remotes.size() == 1);
    auto const& remote = remotes.at(0).as_object();
    CHECK(remote.at("type") == "streamable-http");
    CHECK(remote.at("url") == "http://127.0.0.1:8080/mcp");
    CHECK(matches(remote.at("url"), R"((https?://[^\s]+|\{[a-zA-Z_][a-zA-Z0-9_]*\}[^\s]*))"));
    auto const& versions = remote.at("supportedProtocolVersions").as_array();
    REQUIRE(versions.size() == mcp::supported_versions.size());
    for (std::size_t i = 0; i < versions.size(); ++i)
        CHECK(versions.at(i).as_string() == mcp::supported_versions.at(i));
}

TEST_CASE("the card's _meta gives the command of a local mirror, as the home page does")
{
    auto const card = mcp::server_card(info, identity, "https://api.lowcostgpu.example");
    auto const& local = card.at("_meta").at(mcp::card_local_key);
    CHECK(local.at("transport") == "stdio");
    CHECK(local.at("command") == "lowcostgpu");
    CHECK(local.at("args") == json::array{"mcp", "--upstream", "https://api.lowcostgpu.example"});
}

TEST_CASE("the card lists no tools, resources or prompts: the draft leaves them to the list methods")
{
    auto const card = mcp::server_card(info, identity, "https://api.lowcostgpu.example");
    for (char const* primitive : {"tools", "resources", "prompts", "capabilities"})
        CHECK_FALSE(card.contains(primitive));
}

TEST_CASE("the earlier drafts' document keeps every tool of tools/list with its schemas")
{
    auto const legacy = mcp::legacy_server_card(info, "/mcp");
    CHECK(legacy.at("tools") == json::value(mcp::tool_definitions()));
    CHECK(legacy.at("transport").at("endpoint") == "/mcp");
    CHECK(legacy.at("serverInfo").at("version") == "1.2.3");
}
