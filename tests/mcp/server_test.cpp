#include "mcp/server.hpp"

#include "fixture_server.hpp"

#include "pricing/estimate.hpp"

#include <doctest/doctest.h>

#include <boost/json/parse.hpp>

#include <random>
#include <string>

namespace {

using namespace lcg;
namespace json = boost::json;

mcp::server const& test_server()
{
    return testing::fixture_mcp_server();
}

json::object call(std::string const& tool, std::string const& arguments)
{
    auto const r = test_server().handle(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":")" + tool +
                                            R"(","arguments":)" + arguments + "}}",
                                        {});
    return json::parse(r.body).at("result").as_object();
}

}

TEST_CASE("decode_header_value reads the Base64 sentinel form and passes plain values through")
{
    CHECK(mcp::decode_header_value("get_prices") == "get_prices");
    CHECK(mcp::decode_header_value("=?base64?SGVsbG8sIOS4lueVjA==?=") == "Hello, 世界");
    CHECK(mcp::decode_header_value("=?base64?IHBhZGRlZCA=?=") == " padded ");
    CHECK_FALSE(mcp::decode_header_value("=?base64?not base64!?=").has_value());
    CHECK_FALSE(mcp::decode_header_value("=?base64?abc?=").has_value());
}

TEST_CASE("estimate_job_cost gives the amounts of pricing::estimate_job")
{
    auto const& data = *testing::fixture_view();
    pricing::estimate_parameters params;
    params.gpu = "h100-sxm";
    params.gpus = "2";
    params.hours = "10.5";
    params.storage_gb = "250";
    params.egress_gb = "12.5";
    auto const job = pricing::parse_job(params, data.catalog());
    REQUIRE(job);
    auto const expected = pricing::estimate_job(*job, data.current_sheet()->find("h100-sxm"));
    REQUIRE(expected);

    auto const result = call("estimate_job_cost",
                             R"({"gpu":"H100-SXM","gpus":2,"hours":10.5,"storage_gb":250,"egress_gb":12.5})");
    REQUIRE(result.at("isError") == false);
    auto const& s = result.at("structuredContent").as_object();
    CHECK(s.at("total").as_string() == pricing::to_decimal(expected->total));
    auto const& lines = s.at("lines").as_array();
    REQUIRE(lines.size() == expected->lines.size());
    for (std::size_t i = 0; i < lines.size(); ++i)
        CHECK(lines[i].at("amount").as_string() == pricing::to_decimal(expected->lines[i].amount));
    for (std::size_t i = 0; i < expected->tiers.size(); ++i)
        CHECK(s.at("tiers").as_array()[i].at("total").as_string() == pricing::to_decimal(expected->tiers[i].total));
}

TEST_CASE("the pre-rendered default get_prices answer is the sheet of GET /v1/prices")
{
    auto const fast = call("get_prices", "{}");
    auto const http = testing::fixture_request("/v1/prices");
    CHECK(fast.at("structuredContent") == json::parse(http.body()));
    CHECK(fast == call("get_prices", R"({"sort":"gpu"})"));
}

TEST_CASE("no input crashes the server or goes unanswered: random bytes and mutated messages (fixed seed)")
{
    std::mt19937 rng(20261130);
    std::string const seeds[] = {
        R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"estimate_job_cost","arguments":{"gpu":"h100-sxm","hours":2}}})",
        R"({"jsonrpc":"2.0","id":"a","method":"resources/read","params":{"uri":"lowcostgpu://glossary/gpu-hour?lang=fr"}})",
        R"({"jsonrpc":"2.0","id":2,"method":"completion/complete","params":{"ref":{"type":"ref/resource","uri":"lowcostgpu://gpus/{id}"},"argument":{"name":"id","value":"h"}}})",
    };
    for (int i = 0; i < 3000; ++i) {
        std::string message = seeds[static_cast<std::size_t>(i) % 3];
        int const edits = 1 + static_cast<int>(rng() % 4);
        for (int e = 0; e < edits && !message.empty(); ++e) {
            auto const at = rng() % message.size();
            switch (rng() % 3) {
            case 0: message[at] = static_cast<char>(rng() % 256); break;
            case 1: message.erase(at, 1 + rng() % 8); break;
            default: message.insert(at, 1, "{}[]\",:0\\"[rng() % 10]); break;
            }
        }
        mcp::message_context context;
        if (i % 2)
            context.via = mcp::transport::http;
        auto const r = test_server().handle(message, context);
        if (r.body.empty()) {
            CHECK(r.http_status == 202);
            continue;
        }
        boost::system::error_code ec;
        auto const v = json::parse(r.body, ec);
        REQUIRE_MESSAGE(!ec, message);
        CHECK(v.as_object().at("jsonrpc") == "2.0");
    }
}
