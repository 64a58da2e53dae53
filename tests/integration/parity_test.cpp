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
