// One operation, one document, on the sample data over real sockets: for every operation of the
// registry, tools/call through POST /mcp gives as structuredContent exactly the JSON body of the
// HTTP request for the same question, and its text block parses as that JSON.
#include "harness.hpp"

#include "../support/parity_cases.hpp"

#include <doctest/doctest.h>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

using namespace lcg::testing;
namespace json = boost::json;

TEST_CASE("every operation answers the same document over HTTP and as an MCP tool (sample data)")
{
    test_database db;
    server_process server(db.url("reader"));
    int id = 0;
    for (auto const& c : parity_cases()) {
        CAPTURE(c.tool);
        CAPTURE(c.http_target);
        auto const http = server.get(c.http_target);
        REQUIRE(http.status == 200);
        auto const expected = json::parse(http.body);

        json::object message{{"jsonrpc", "2.0"},
                             {"id", ++id},
                             {"method", "tools/call"},
                             {"params", {{"name", c.tool}, {"arguments", c.arguments}}}};
        auto const reply = http_request(server.port(), "POST", "/mcp",
                                        {{"Content-Type", "application/json"}, {"Accept", "application/json"}},
                                        json::serialize(message));
        REQUIRE(reply.status == 200);
        auto const result = json::parse(reply.body).at("result").as_object();
        REQUIRE(result.at("isError") == false);
        CHECK(result.at("structuredContent") == expected);
        CHECK(json::parse(result.at("content").at(0).at("text").as_string()) == expected);
    }
}

TEST_CASE("an MCP result past about 4,000 tokens names the arguments that narrow it, in the call's language")
{
    test_database db;
    server_process server(db.url("reader"));
    auto const call = [&](json::object arguments) {
        json::object message{{"jsonrpc", "2.0"}, {"id", 1}, {"method", "tools/call"},
                             {"params", {{"name", "list_gpus"}, {"arguments", std::move(arguments)}}}};
        auto const reply = http_request(server.port(), "POST", "/mcp",
                                        {{"Content-Type", "application/json"}, {"Accept", "application/json"}},
                                        json::serialize(message));
        REQUIRE(reply.status == 200);
        return json::parse(reply.body).at("result").at("content").as_array();
    };
    // The whole catalog of the sample data: far past 16,000 bytes.
    auto const whole = call({});
    auto const bytes = whole.at(0).at("text").as_string().size();
    REQUIRE(bytes > 16'000);
    REQUIRE(whole.size() == 2);
    CHECK(whole.at(1).at("text").as_string() ==
          "This result is about " + std::to_string(bytes / 4) +
              " tokens. To ask for less, give one of these arguments: vendor, architecture, min_vram_gb, mig, nvlink, fields.");
    auto const french = call({{"lang", "fr"}});
    REQUIRE(french.size() == 2);
    CHECK(std::string(french.at(1).at("text").as_string()).starts_with("Ce résultat fait environ "));
    // Narrowed, it says nothing more; the compact form of three members is far smaller.
    CHECK(call({{"vendor", "amd"}}).size() == 1);
    auto const compact = call({{"fields", json::array{"name", "vram_gb", "power_score"}}});
    REQUIRE(compact.size() == 1);
    CHECK(compact.at(0).at("text").as_string().size() * 20 < bytes);
}
