// /mcp through http::handle on the fixture: the CORS preflight (OPTIONS), the CORS headers of POST,
// the Host and Origin allow-lists, and the 405 of the other methods; and the server card at
// /mcp/server-card (and the earlier drafts' at /.well-known). Over a real socket, see
// tests/integration/serve_test.cpp; in a real browser, tests/web/mcp_browser_test.py.
#include "fixture.hpp"

#include "server/http/mcp_access.hpp"
#include "server/ops/metrics.hpp"

#include <boost/json.hpp>
#include <doctest/doctest.h>

#include <map>
#include <memory>
#include <string>

using namespace lcg;
using namespace lcg::testing;
namespace bh = http::beast_http;

namespace {

constexpr char const* ping = R"({"jsonrpc":"2.0","id":1,"method":"ping"})";
constexpr char const* allowed_request_headers =
    "Content-Type, Accept, MCP-Protocol-Version, Mcp-Method, Mcp-Name, Last-Event-ID";
constexpr char const* exposed_headers = "MCP-Protocol-Version, Mcp-Session-Id";

// `method` /mcp with `headers` (and `body`) under `policy`; null is the default, localhost only.
http::response ask_mcp(bh::verb method, std::map<std::string, std::string> const& headers, std::string const& body = {},
                       std::shared_ptr<http::mcp_access const> policy = nullptr)
{
    http::request req{method, "/mcp", 11};
    req.set(bh::field::host, "127.0.0.1:8080");
    for (auto const& [k, v] : headers)
        req.set(k, v);
    if (!body.empty()) {
        req.body() = body;
        req.prepare_payload();
    }
    http::request_context ctx{fixture_snapshot(), fixture_now()};
    ctx.mcp_policy = std::move(policy);
    ctx.metrics = &fixture_metrics();
    return http::handle(req, ctx);
}

http::response post(std::map<std::string, std::string> headers, std::shared_ptr<http::mcp_access const> policy = nullptr)
{
    headers.emplace("Content-Type", "application/json");
    headers.emplace("Accept", "application/json, text/event-stream");
    return ask_mcp(bh::verb::post, headers, ping, std::move(policy));
}

// What a browser sends before a cross-origin POST with Content-Type: application/json.
http::response preflight(std::string const& origin, std::shared_ptr<http::mcp_access const> policy = nullptr)
{
    return ask_mcp(bh::verb::options,
                   {{"Origin", origin},
                    {"Access-Control-Request-Method", "POST"},
                    {"Access-Control-Request-Headers", "content-type,mcp-protocol-version"}},
                   {}, std::move(policy));
}

std::shared_ptr<http::mcp_access const> origins(std::string const& list)
{
    auto policy = std::make_shared<http::mcp_access>();
    policy->allowed_origins = http::mcp_access::parse_list(list);
    return policy;
}

bool has(http::response const& r, bh::field f) { return r.find(f) != r.end(); }

// A refusal is a JSON-RPC error without id, which the page cannot read (no CORS header).
void check_forbidden(http::response const& r)
{
    CHECK(r.result() == bh::status::forbidden);
    CHECK(r[bh::field::content_type] == "application/json");
    auto const body = boost::json::parse(r.body()).as_object();
    CHECK(body.at("id").is_null());
    CHECK(body.at("error").at("code").as_int64() == -32600);
    CHECK_FALSE(has(r, bh::field::access_control_allow_origin));
    CHECK_FALSE(has(r, bh::field::access_control_allow_methods));
    CHECK(r[bh::field::vary] == "Origin");
}

}

TEST_CASE("the preflight from an allowed origin is 204 with the CORS headers of /mcp")
{
    for (auto const* origin : {"http://localhost:6274", "http://127.0.0.1:5173", "https://[::1]"}) {
        CAPTURE(origin);
        auto const r = preflight(origin);
        CHECK(r.result() == bh::status::no_content);
        CHECK(r[bh::field::access_control_allow_origin] == origin);
        CHECK(r[bh::field::access_control_allow_methods] == "GET, POST, DELETE");
        CHECK(r[bh::field::access_control_allow_headers] == allowed_request_headers);
        CHECK(r[bh::field::access_control_expose_headers] == exposed_headers);
        CHECK(r[bh::field::access_control_max_age] == "86400");
        CHECK(r[bh::field::vary] == "Origin");
        CHECK(r[bh::field::allow] == "POST, OPTIONS");
        CHECK_FALSE(has(r, bh::field::access_control_allow_credentials));
        CHECK_FALSE(has(r, bh::field::content_length));  // a 204 has no content
        CHECK(r.body().empty());
    }
}

TEST_CASE("the preflight follows --allowed-origins, and never answers with *")
{
    auto const policy = origins("http://127.0.0.1:8123, https://app.example");
    CHECK(preflight("http://127.0.0.1:8123", policy)[bh::field::access_control_allow_origin] == "http://127.0.0.1:8123");
    CHECK(preflight("https://APP.example:443", policy).result() == bh::status::no_content);
    for (auto const* refused : {"http://127.0.0.1:8124", "http://localhost:8123", "https://127.0.0.1:8123",
                                "http://app.example", "null"}) {
        CAPTURE(refused);
        check_forbidden(preflight(refused, policy));
    }
    auto const any = preflight("https://elsewhere.example", origins("*"));
    CHECK(any.result() == bh::status::no_content);
    CHECK(any[bh::field::access_control_allow_origin] == "https://elsewhere.example");
}

TEST_CASE("a preflight from a disallowed origin or to a disallowed Host is 403")
{
    check_forbidden(preflight("http://evil.example.com"));
    check_forbidden(preflight("http://localhost.evil.example.com:6274"));
    check_forbidden(ask_mcp(bh::verb::options, {{"Origin", "http://localhost:6274"}, {"Host", "evil.example.com"}}));
    check_forbidden(ask_mcp(bh::verb::options, {{"Host", "evil.example.com"}}));
}

TEST_CASE("OPTIONS without Origin is 204 with Allow and grants no page anything")
{
    auto const r = ask_mcp(bh::verb::options, {});
    CHECK(r.result() == bh::status::no_content);
    CHECK(r[bh::field::allow] == "POST, OPTIONS");
    CHECK(r[bh::field::vary] == "Origin");
    for (auto f : {bh::field::access_control_allow_origin, bh::field::access_control_allow_methods,
                   bh::field::access_control_allow_headers, bh::field::access_control_expose_headers,
                   bh::field::access_control_max_age, bh::field::content_length})
        CHECK_FALSE(has(r, f));
}

TEST_CASE("POST from an allowed origin names it, without Origin there is no CORS header at all")
{
    auto const browser = post({{"Origin", "http://localhost:6274"}});
    CHECK(browser.result() == bh::status::ok);
    CHECK(boost::json::parse(browser.body()).at("result").is_object());
    CHECK(browser[bh::field::access_control_allow_origin] == "http://localhost:6274");
    CHECK(browser[bh::field::access_control_expose_headers] == exposed_headers);
    CHECK(browser[bh::field::vary] == "Origin");
    CHECK(browser[bh::field::cache_control] == "no-store");

    auto const configured = post({{"Origin", "http://127.0.0.1:8123"}}, origins("http://127.0.0.1:8123"));
    CHECK(configured.result() == bh::status::ok);
    CHECK(configured[bh::field::access_control_allow_origin] == "http://127.0.0.1:8123");

    auto const plain = post({});
    CHECK(plain.result() == bh::status::ok);
    CHECK(plain[bh::field::vary] == "Origin");
    CHECK_FALSE(has(plain, bh::field::access_control_allow_origin));
    CHECK_FALSE(has(plain, bh::field::access_control_expose_headers));

    check_forbidden(post({{"Origin", "http://evil.example.com"}}));
    check_forbidden(post({{"Origin", "http://localhost:6274"}}, origins("http://127.0.0.1:8123")));
}

TEST_CASE("a transport error after the origin check is readable by the page")
{
    auto const r = ask_mcp(bh::verb::post, {{"Origin", "http://localhost:6274"}, {"Content-Type", "text/plain"}}, ping);
    CHECK(r.result() == bh::status::unsupported_media_type);
    CHECK(r[bh::field::access_control_allow_origin] == "http://localhost:6274");
    auto const notification = ask_mcp(bh::verb::post,
                                      {{"Origin", "http://localhost:6274"}, {"Content-Type", "application/json"}},
                                      R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
    CHECK(notification.result() == bh::status::accepted);
    CHECK(notification[bh::field::access_control_allow_origin] == "http://localhost:6274");
}

TEST_CASE("a notification is 202 whatever its params, and 400 under a protocol version the server does not speak")
{
    std::map<std::string, std::string> const json_headers{{"Content-Type", "application/json"},
                                                         {"Accept", "application/json, text/event-stream"}};
    auto const with_array = ask_mcp(bh::verb::post, json_headers,
                                    R"({"jsonrpc":"2.0","method":"notifications/initialized","params":[]})");
    CHECK(with_array.result() == bh::status::accepted);
    CHECK(with_array.body().empty());
    auto headers = json_headers;
    headers["MCP-Protocol-Version"] = "1999-01-01";
    auto const unknown = ask_mcp(bh::verb::post, headers, R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
    CHECK(unknown.result() == bh::status::bad_request);
    auto const body = boost::json::parse(unknown.body()).as_object();
    CHECK(body.at("id").is_null());
    CHECK(body.at("error").at("code").as_int64() == -32022);
}

TEST_CASE("POST /mcp with a query answers the message: the query is not read, nor refused, malformed or not")
{
    for (std::string const query : {"?token=abc&x=1", "?t=1&t=1", "?t=%ZZ", "?t=%FF"}) {
        CAPTURE(query);
        http::request req{bh::verb::post, "/mcp" + query, 11};
        req.set(bh::field::host, "127.0.0.1:8080");
        req.set(bh::field::content_type, "application/json");
        req.set(bh::field::accept, "application/json, text/event-stream");
        req.body() = ping;
        req.prepare_payload();
        http::request_context ctx{fixture_snapshot(), fixture_now()};
        auto const r = http::handle(req, ctx);
        CHECK(r.result() == bh::status::ok);
        CHECK(r.body() == R"({"jsonrpc":"2.0","id":1,"result":{}})");
    }
}

TEST_CASE("GET, DELETE, HEAD and PUT /mcp are 405 with Allow: POST, OPTIONS, readable by an allowed origin only")
{
    for (auto method : {bh::verb::get, bh::verb::delete_, bh::verb::head, bh::verb::put}) {
        CAPTURE(bh::to_string(method));
        auto const r = ask_mcp(method, {{"Origin", "http://localhost:6274"}, {"Accept", "text/event-stream"}});
        CHECK(r.result() == bh::status::method_not_allowed);
        CHECK(r[bh::field::allow] == "POST, OPTIONS");
        // A page's client must read the 405 (it then uses POST alone), not fail with "Failed to fetch".
        CHECK(r[bh::field::access_control_allow_origin] == "http://localhost:6274");
        CHECK(r[bh::field::vary] == "Origin");
        auto const other = ask_mcp(method, {{"Origin", "http://evil.example.com"}});
        CHECK(other.result() == bh::status::forbidden);
        CHECK_FALSE(has(other, bh::field::access_control_allow_origin));
        auto const no_origin = ask_mcp(method, {});
        CHECK(no_origin.result() == bh::status::method_not_allowed);
        CHECK_FALSE(has(no_origin, bh::field::access_control_allow_origin));  // /mcp never says *
    }
}

TEST_CASE("the read API is public to every origin: preflight answered, the headers a client reads exposed")
{
    auto const prices = fixture_request("/v1/prices", {{"Origin", "http://evil.example.com"}});
    CHECK(prices[bh::field::access_control_allow_origin] == "*");
    for (char const* exposed : {"ETag", "Last-Modified", "Link", "Retry-After", "RateLimit", "RateLimit-Policy"})
        CHECK(std::string(prices[bh::field::access_control_expose_headers]).find(exposed) != std::string::npos);
    for (char const* target : {"/v1/prices", "/v1/sheets/2026-W49/observations.csv", "/v1/glossary/mig", "/healthz"}) {
        CAPTURE(target);
        auto const preflight = fixture_request(target,
                                               {{"Origin", "http://page.example"},
                                                {"Access-Control-Request-Method", "GET"},
                                                {"Access-Control-Request-Headers", "if-none-match"}},
                                               bh::verb::options);
        CHECK(preflight.result() == bh::status::no_content);
        CHECK(preflight[bh::field::access_control_allow_origin] == "*");
        CHECK(preflight[bh::field::access_control_allow_methods] == "GET, HEAD");
        CHECK(std::string(preflight[bh::field::access_control_allow_headers]).find("If-None-Match") !=
              std::string::npos);
        CHECK(preflight[bh::field::access_control_max_age] == "86400");
        CHECK(preflight[bh::field::allow] == "GET, HEAD, OPTIONS");
        CHECK(preflight.body().size() == 0);
    }
    // Refusals carry them too: a page reads why it was refused.
    auto const missing = fixture_request("/v1/gpus/no-such-gpu", {{"Origin", "http://page.example"}});
    CHECK(missing.result() == bh::status::not_found);
    CHECK(missing[bh::field::access_control_allow_origin] == "*");
    CHECK(has(missing, bh::field::access_control_expose_headers));
    auto const put = fixture_request("/v1/prices", {{"Origin", "http://page.example"}}, bh::verb::put);
    CHECK(put.result() == bh::status::method_not_allowed);
    CHECK(put[bh::field::allow] == "GET, HEAD, OPTIONS");
    CHECK(put[bh::field::access_control_allow_origin] == "*");
}

TEST_CASE("POST /mcp feeds the MCP call counter of /metrics, by tool and outcome")
{
    auto const count = [](std::string const& series) {
        std::string const text = fixture_metrics().render(0);
        auto const at = text.find(series + " ");
        return at == std::string::npos ? 0L : std::stol(text.substr(at + series.size() + 1));
    };
    std::string const ok = R"(lowcostgpu_mcp_calls_total{tool="get_gpu",outcome="ok"})";
    std::string const refused = R"(lowcostgpu_mcp_calls_total{tool="get_gpu",outcome="tool_error"})";
    long const ok_before = count(ok), refused_before = count(refused);
    std::map<std::string, std::string> const headers{{"Content-Type", "application/json"}, {"Accept", "application/json"}};
    auto const call = [](char const* gpu) {
        return std::string(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_gpu","arguments":{"gpu":")") +
               gpu + "\"}}}";
    };
    CHECK(ask_mcp(bh::verb::post, headers, call("h100-sxm")).result() == bh::status::ok);
    CHECK(ask_mcp(bh::verb::post, headers, call("nope")).result() == bh::status::ok);
    CHECK(count(ok) == ok_before + 1);
    CHECK(count(refused) == refused_before + 1);
}

TEST_CASE("a caught exception is logged as JSON and counted in /metrics")
{
    auto const count = [] {
        std::string const text = fixture_metrics().render(0);
        std::string const series = R"(lowcostgpu_caught_exceptions_total{where="http"} )";
        auto const at = text.find(series);
        REQUIRE(at != std::string::npos);  // shown from the start, at 0
        return std::stol(text.substr(at + series.size()));
    };
    long const before = count();
    ops::report_caught_exception(&fixture_metrics(), "http", "GET /v1/prices: something unforeseen");
    CHECK(count() == before + 1);
}

namespace {

// GET (or `method`) `target` with `host` and `headers` under `policy` (null: localhost only).
http::response card_request(std::string const& host, std::map<std::string, std::string> const& headers = {},
                            std::shared_ptr<http::mcp_access const> policy = nullptr,
                            bh::verb method = bh::verb::get, std::string const& target = "/mcp/server-card")
{
    http::request req{method, target, 11};
    req.set(bh::field::host, host);
    for (auto const& [k, v] : headers)
        req.set(k, v);
    http::request_context ctx{fixture_snapshot(), fixture_now()};
    ctx.mcp_policy = std::move(policy);
    ctx.metrics = &fixture_metrics();
    return http::handle(req, ctx);
}

}

TEST_CASE("GET /mcp/server-card: the SEP-2127 card, its media type, the draft's caching and CORS")
{
    auto const res = card_request("127.0.0.1:8080", {{"Accept", "application/mcp-server-card+json"}});
    REQUIRE(res.result() == bh::status::ok);
    CHECK(res[bh::field::content_type] == "application/mcp-server-card+json");
    CHECK(res[bh::field::cache_control] == "public, max-age=3600");
    CHECK(res[bh::field::access_control_allow_origin] == "*");
    CHECK(std::string(res[bh::field::access_control_allow_methods]).starts_with("GET"));
    for (char const* h : {"Content-Type", "If-None-Match"})
        CHECK(std::string(res[bh::field::access_control_allow_headers]).find(h) != std::string::npos);
    CHECK(std::string(res[bh::field::access_control_expose_headers]).find("ETag") != std::string::npos);
    auto const card = boost::json::parse(res.body()).as_object();
    CHECK(card.at("$schema") == "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json");
    CHECK(card.at("remotes").at(0).at("url") == "http://127.0.0.1:8080/mcp");
    CHECK_FALSE(card.contains("tools"));

    auto const etag = std::string(res[bh::field::etag]);
    REQUIRE(etag.size() > 2);
    auto const again = card_request("127.0.0.1:8080", {{"If-None-Match", etag}});
    CHECK(again.result() == bh::status::not_modified);
    CHECK(again.body().empty());
    // The same bytes whatever the order of the requests: the ETag is the body's.
    CHECK(card_request("127.0.0.1:8080")[bh::field::etag] == etag);
}

TEST_CASE("the card negotiates: plain JSON for a client that asks only for it, 406 for anything else")
{
    auto const json = card_request("localhost", {{"Accept", "application/json"}});
    REQUIRE(json.result() == bh::status::ok);
    CHECK(json[bh::field::content_type] == "application/json");
    auto const card = card_request("localhost", {{"Accept", "*/*"}});
    CHECK(card[bh::field::content_type] == "application/mcp-server-card+json");
    CHECK(json.body() == card.body());
    CHECK(json[bh::field::etag] != card[bh::field::etag]);  // two representations, two validators
    auto const html = card_request("localhost", {{"Accept", "text/html"}});
    CHECK(html.result() == bh::status::not_acceptable);
    CHECK(html[bh::field::content_type] == "application/problem+json");
}

TEST_CASE("the card names /mcp on the Host asked, https behind a public name, and only for a Host /mcp accepts")
{
    auto const public_name = std::make_shared<http::mcp_access const>(
        http::mcp_access{{"api.lowcostgpu.example"}, {}});
    auto const res = card_request("api.lowcostgpu.example", {}, public_name);
    REQUIRE(res.result() == bh::status::ok);
    CHECK(boost::json::parse(res.body()).at("remotes").at(0).at("url") == "https://api.lowcostgpu.example/mcp");
    CHECK(boost::json::parse(card_request("[::1]:9000").body()).at("remotes").at(0).at("url") == "http://[::1]:9000/mcp");

    auto const refused = card_request("evil.example");  // the default policy: loopback only
    CHECK(refused.result() == bh::status::forbidden);
    CHECK(refused[bh::field::content_type] == "application/problem+json");
    CHECK(card_request("localhost", {}, public_name).result() == bh::status::forbidden);
}

TEST_CASE("the card's preflight allows the request headers the draft lists")
{
    auto const preflight = card_request("127.0.0.1",
                                        {{"Origin", "http://page.example"},
                                         {"Access-Control-Request-Method", "GET"},
                                         {"Access-Control-Request-Headers", "content-type,if-none-match"}},
                                        nullptr, bh::verb::options);
    CHECK(preflight.result() == bh::status::no_content);
    CHECK(preflight[bh::field::access_control_allow_origin] == "*");
    CHECK(preflight[bh::field::access_control_allow_methods] == "GET, HEAD");
    CHECK(preflight[bh::field::access_control_allow_headers] == "Accept, Content-Type, If-None-Match, If-Modified-Since");
}

TEST_CASE("the earlier drafts' card still answers at both of its URLs, and links to the current one")
{
    for (char const* target : {"/.well-known/mcp/server-card.json", "/.well-known/mcp.json"}) {
        CAPTURE(target);
        auto const res = card_request("127.0.0.1", {}, nullptr, bh::verb::get, target);
        REQUIRE(res.result() == bh::status::ok);
        CHECK(res[bh::field::content_type] == "application/json");
        CHECK(boost::json::parse(res.body()).at("transport").at("endpoint") == "/mcp");
        CHECK(res[bh::field::link] ==
              "</mcp/server-card>; rel=\"alternate\"; type=\"application/mcp-server-card+json\"");
    }
}

TEST_CASE("mcp_access::is_loopback: localhost, 127.0.0.1 and [::1], any port, any case")
{
    for (char const* host : {"localhost", "LOCALHOST:80", "127.0.0.1", "127.0.0.1:8080", "[::1]", "[::1]:9"})
        CHECK(http::mcp_access::is_loopback(host));
    for (char const* host : {"", "api.lowcostgpu.example", "localhost.example", "127.0.0.2", "[::1", "localhost:x"})
        CHECK_FALSE(http::mcp_access::is_loopback(host));
}
