// A gzip member joined from bytes stored as they are and text deflated once (snapshot::gzip_joined):
// every gzip reader must read the two texts joined, and check the joined CRC and length. And the
// MCP replies sent that way (POST /mcp, write_reply in server/http/mcp_handler.cpp).
#include "fixture.hpp"

#include "server/mcp_bridge/snapshot_view.hpp"
#include "server/snapshot/gzip.hpp"

#include <boost/json.hpp>
#include <doctest/doctest.h>

#include <cstddef>
#include <map>
#include <string>

using namespace lcg;
using namespace lcg::testing;
namespace bh = http::beast_http;

namespace {

// Text that compresses like a reply: JSON-ish, repetitive, with a varying number in it.
std::string reply_like(std::size_t size)
{
    std::string out;
    for (int i = 0; out.size() < size; ++i)
        out += R"({"gpu":"h100-sxm","on_demand":")" + std::to_string(1000 + i * 7) + R"("},)";
    out.resize(size);
    return out;
}

}

TEST_CASE("gzip_joined reads as its head followed by the text deflated once, for heads across stored-block sizes")
{
    auto const tail_text = reply_like(40'000);
    auto const tail = snapshot::deflate_once(tail_text);
    CHECK(tail.size == tail_text.size());
    CHECK(tail.stream.size() < tail_text.size() / 4);
    for (std::size_t head_size : {0UL, 1UL, 37UL, 65'535UL, 65'536UL, 200'001UL}) {
        CAPTURE(head_size);
        std::string const head = reply_like(head_size);
        auto const joined = snapshot::gzip_joined(head, tail);
        CHECK(testing::gunzip(joined) == head + tail_text);
    }
}

TEST_CASE("a joined gzip member whose trailer or stream is altered is refused by the reader")
{
    auto const tail = snapshot::deflate_once(reply_like(5'000));
    auto const joined = snapshot::gzip_joined(R"({"jsonrpc":"2.0","id":7,"result":)", tail);
    auto crc = joined;
    crc[crc.size() - 8] = static_cast<char>(crc[crc.size() - 8] ^ 1);
    CHECK_THROWS(testing::gunzip(crc));
    auto length = joined;
    length[length.size() - 1] = static_cast<char>(length[length.size() - 1] ^ 1);
    CHECK_THROWS(testing::gunzip(length));
    CHECK_THROWS(testing::gunzip(joined.substr(0, joined.size() - 1)));
    auto stored = joined;
    stored[11] = static_cast<char>(stored[11] ^ 1);  // LEN of the stored block no longer matches NLEN
    CHECK_THROWS(testing::gunzip(stored));
}

namespace {

bool has(http::response const& r, bh::field f) { return r.find(f) != r.end(); }

// A stateless call of the legacy era with `headers` added, through `servers` (null: one built for the request).
http::response call(std::string const& message, std::map<std::string, std::string> headers,
                    mcp_bridge::server_cache* servers = nullptr)
{
    http::request req{bh::verb::post, "/mcp", 11};
    req.set(bh::field::host, "127.0.0.1:8080");
    req.set(bh::field::content_type, "application/json");
    req.set(bh::field::accept, "application/json, text/event-stream");
    req.set("MCP-Protocol-Version", "2025-06-18");
    for (auto const& [k, v] : headers)
        req.set(k, v);
    req.body() = message;
    req.prepare_payload();
    http::request_context ctx{fixture_snapshot(), fixture_now()};
    ctx.metrics = &fixture_metrics();
    ctx.mcp_servers = servers;
    return http::handle(req, ctx);
}

}

TEST_CASE("the tool list and get_prices' default result go gzip-encoded to a client that accepts gzip, the same text inflated")
{
    mcp_bridge::server_cache servers;
    for (std::string const message : {R"({"jsonrpc":"2.0","id":"list-1","method":"tools/list"})",
                                      R"({"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"name":"get_prices","arguments":{}}})"}) {
        CAPTURE(message);
        auto const plain = call(message, {}, &servers);
        REQUIRE(plain.result() == bh::status::ok);
        CHECK_FALSE(has(plain, bh::field::content_encoding));
        CHECK(plain[bh::field::vary] == "Origin, Accept-Encoding");
        auto const zipped = call(message, {{"Accept-Encoding", "gzip, deflate, br"}}, &servers);
        REQUIRE(zipped.result() == bh::status::ok);
        CHECK(zipped[bh::field::content_encoding] == "gzip");
        CHECK(zipped[bh::field::vary] == "Origin, Accept-Encoding");
        CHECK(zipped[bh::field::content_length] == std::to_string(zipped.body().size()));
        CHECK(zipped.body().size() * 3 < plain.body().size());
        CHECK(testing::gunzip(zipped.body()) == plain.body());
        // Without the servers' shared cache (a router called alone) nothing is compressed per call.
        auto const alone = call(message, {{"Accept-Encoding", "gzip"}});
        CHECK_FALSE(has(alone, bh::field::content_encoding));
        CHECK(alone.body() == plain.body());
        auto const refused = call(message, {{"Accept-Encoding", "gzip;q=0, br"}}, &servers);
        CHECK_FALSE(has(refused, bh::field::content_encoding));
        CHECK(refused.body() == plain.body());
    }
}

TEST_CASE("other MCP replies are sent as they are, whatever Accept-Encoding says")
{
    mcp_bridge::server_cache servers;
    for (std::string const message : {R"({"jsonrpc":"2.0","id":1,"method":"ping"})",
                                      R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_prices","arguments":{"gpu":"h100-sxm"}}})"}) {
        CAPTURE(message);
        auto const r = call(message, {{"Accept-Encoding", "gzip"}}, &servers);
        CHECK(r.result() == bh::status::ok);
        CHECK_FALSE(has(r, bh::field::content_encoding));
        CHECK_NOTHROW(boost::json::parse(r.body()));
    }
}

TEST_CASE("the server cache deflates only the text of the server in force")
{
    mcp_bridge::server_cache servers;
    auto const before = servers.get(fixture_snapshot());
    mcp::message_context context;
    context.via = mcp::transport::http;
    context.protocol_version_header = "2025-06-18";
    auto const kept = before->handle(R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})", context);
    REQUIRE_FALSE(kept.lasting_end.empty());
    auto const once = servers.deflated(before, kept.lasting_end);
    REQUIRE(once);
    CHECK(servers.deflated(before, kept.lasting_end) == once);  // deflated on the first ask only
    CHECK_FALSE(servers.deflated(before, {}));
    auto const after = servers.get(fixture_snapshot_at("https://prices.example"));
    REQUIRE(after != before);
    CHECK_FALSE(servers.deflated(before, kept.lasting_end));  // a request begun before the new snapshot
}
