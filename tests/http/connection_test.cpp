// The wire, byte for byte: http::connection on a beast::test::stream in place of a socket, answering
// from the fixture snapshot. What a client sends, what it reads back, and whether the connection
// stays open after.
#include "fixture.hpp"

#include "server/http/connection.hpp"

#include <boost/asio/write.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/_experimental/test/stream.hpp>
#include <doctest/doctest.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <future>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <sys/socket.h>
#include <unistd.h>

namespace lcg::http {

// The test stream has no kernel queue and no address; closing it is what a socket's shutdown does
// for the peer (it reads end of stream).
template <>
struct transport<beast::test::stream> {
    static std::string peer(beast::test::stream const&) { return "127.0.0.1"; }
    static void tune(beast::test::stream&) {}
    static std::optional<std::size_t> unsent(beast::test::stream&) { return std::nullopt; }
    static void shutdown_send(beast::test::stream& s) { s.close(); }
    static void close(beast::test::stream& s) { s.close(); }
    static void reset(beast::test::stream& s) { s.close(); }  // a reset the loopback tests show
};

}

namespace {

using namespace lcg;
using http::beast_http::status;

// The second the tests' event loops and stores read: it stands still unless a test moves it, so that
// no test sees a stored answer go stale at the turn of a second (which a test shows apart).
std::atomic<std::int64_t> test_second{1'796'515'200};  // Sat, 05 Dec 2026 00:00:00 GMT
std::int64_t read_test_second() { return test_second.load(); }

// One connection of a server on the fixture snapshot, and the client end of its stream.
class wire {
public:
    explicit wire(http::server_options options = {})
        : shared_{std::move(options), holder_, metrics_, log_, {}, {}, {}, {}, {}}, loop_(shared_), client_(loop_.ioc)
    {
        holder_.set(testing::fixture_snapshot());
        loop_.date = http::date_field(read_test_second);
        if (shared_.options.rate_limit)
            shared_.limiter.emplace(*shared_.options.rate_limit);
        http::beast::test::stream server_end(loop_.ioc);
        client_.connect(server_end);
        auto peer = http::transport<http::beast::test::stream>::peer(server_end);
        std::make_shared<http::connection<http::beast::test::stream>>(std::move(server_end), loop_, std::move(peer), false)
            ->start();
        run();
    }

    // Sends `bytes` and returns everything the server has written so far (all of it, from the start).
    std::string send(std::string_view bytes)
    {
        http::asio::write(client_, http::asio::buffer(bytes.data(), bytes.size()));
        run();
        return client_.str();
    }

    // The same, then waits (5 s at most) until the server has written `count` answers: for answers
    // given later, which come back to the event loop from another thread.
    std::string send(std::string_view bytes, std::size_t count)
    {
        http::asio::write(client_, http::asio::buffer(bytes.data(), bytes.size()));
        // The loop may have nothing to wait on meanwhile (the connection waits on another thread).
        for (int waited = 0; waited < 500 && answers_written() < count; ++waited) {
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
            run();
        }
        run();
        return client_.str();
    }

    // The same, then waits (5 s at most) until `done` holds for what the server has written: for
    // bodies sent in parts, read on other threads.
    std::string send_until(std::string_view bytes, std::function<bool(std::string const&)> const& done)
    {
        http::asio::write(client_, http::asio::buffer(bytes.data(), bytes.size()));
        for (int waited = 0; waited < 500 && !done(client_.str()); ++waited) {
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
            run();
        }
        run();
        return client_.str();
    }

    // Whether the server still holds the connection (it closes after `Connection: close`, HTTP/1.0
    // and any refusal).
    bool open() const { return !loop_.connections.empty(); }

    // Puts another snapshot in force, as the refresher does.
    void publish(std::shared_ptr<const snapshot::snapshot> next) { holder_.set(std::move(next)); }
    // How many answers the event loop keeps to replay.
    std::size_t stored() const { return loop_.answers.size(); }
    // The metrics' text, as /metrics shows it.
    std::string metrics() const { return metrics_.render(0); }

private:
    std::size_t answers_written() const
    {
        std::string const out = client_.str();
        std::size_t n = 0;
        for (auto at = out.find("HTTP/1.1 "); at != std::string::npos; at = out.find("HTTP/1.1 ", at + 1))
            n += at == 0 || out.compare(at - 2, 2, "\r\n") == 0 ? 1 : 0;
        return n;
    }

    // Runs every handler that is ready: the test stream completes at once, so nothing waits on time.
    void run()
    {
        loop_.ioc.restart();
        for (int rounds = 0; rounds < 10'000 && loop_.ioc.poll() > 0; ++rounds) {
        }
    }

    snapshot::holder holder_;
    ops::log_writer log_{STDOUT_FILENO};
    ops::metrics metrics_{log_};
    http::connection_shared shared_;
    http::event_loop loop_;
    http::beast::test::stream client_;
};

// The responses in `bytes`, parsed in order; `heads` says which answer a HEAD (a body is not read).
std::vector<http::beast_http::response<http::beast_http::string_body>> responses(std::string_view bytes,
                                                                                  std::vector<bool> const& heads)
{
    std::vector<http::beast_http::response<http::beast_http::string_body>> out;
    for (bool head : heads) {
        http::beast_http::response_parser<http::beast_http::string_body> parser;
        parser.body_limit(64 * 1024 * 1024);
        parser.skip(head);
        // put() stops after the head, then reads the body (a chunk at a time): called until the message is complete.
        for (int step = 0; step < 100'000 && !parser.is_done() && !bytes.empty(); ++step) {
            http::beast::error_code ec;
            auto const used = parser.put(http::asio::buffer(bytes.data(), bytes.size()), ec);
            REQUIRE_MESSAGE(!ec, ec.message());
            bytes.remove_prefix(used);
        }
        REQUIRE(parser.is_done());
        out.push_back(parser.release());
    }
    CHECK_MESSAGE(bytes.empty(), "unexpected bytes after the last response: " << bytes.substr(0, 200));
    return out;
}

// An answer written out whole (status, fields, body) but for its Date, which names the second it
// was written in: what a replay must repeat exactly.
std::string whole_answer(http::beast_http::response<http::beast_http::string_body> const& res)
{
    std::string out = std::to_string(res.result_int()) + "\r\n";
    for (auto const& field : res)
        if (field.name() != http::beast_http::field::date)
            out += std::string(field.name_string()) + ": " + std::string(field.value()) + "\r\n";
    return out + "\r\n" + res.body();
}

std::string const get_prices = "GET /v1/prices HTTP/1.1\r\nHost: x\r\n\r\n";

// The fixture's weeks in chunks of about 512 bytes: each sent in several parts.
lcg::archive::source_factory fixture_sources()
{
    return testing::text_sources([](pricing::price_sheet const& sheet) { return testing::fixture_inputs(sheet.week); },
                                 testing::fixture_chunk_bytes);
}

// One request that the connection must refuse from its headers, with `expected`, and then close.
void check_refused(std::string const& bytes, status expected)
{
    wire w;
    auto const out = w.send(bytes);
    auto const answers = responses(out, {false});
    CHECK_MESSAGE(answers[0].result() == expected, bytes);
    CHECK(answers[0][http::beast_http::field::content_type] == "application/problem+json");
    CHECK_FALSE(answers[0].keep_alive());
    CHECK_FALSE(w.open());
}

}

TEST_CASE("a keep-alive connection answers request after request, pipelined ones in order")
{
    wire w;
    auto const out = w.send(get_prices + "GET /v1/regions HTTP/1.1\r\nHost: x\r\n\r\n" +
                            "GET /no/such/thing HTTP/1.1\r\nHost: x\r\n\r\n");
    auto const answers = responses(out, {false, false, false});
    CHECK(answers[0].result() == status::ok);
    CHECK(answers[0].body() == testing::fixture_request("/v1/prices").body());
    CHECK(answers[1].result() == status::ok);
    CHECK(answers[1].body() == testing::fixture_request("/v1/regions").body());
    CHECK(answers[2].result() == status::not_found);
    CHECK(w.open());

    auto const more = w.send(get_prices);  // and a later one on the same connection
    CHECK(responses(more, {false, false, false, false})[3].result() == status::ok);
}

TEST_CASE("an answer given later (a week's inputs read off the loop) keeps its place among pipelined ones")
{
    lcg::archive::archive inputs({}, fixture_sources());
    http::server_options o;
    o.archive = &inputs;
    wire w(o);
    auto const out = w.send("GET /v1/sheets/2026-W48/observations.csv HTTP/1.1\r\nHost: x\r\n\r\n" + get_prices +
                                "HEAD /v1/sheets/2026-W49/observations.csv HTTP/1.1\r\nHost: x\r\n\r\n",
                            3);
    auto const answers = responses(out, {false, false, true});
    CHECK(answers[0].result() == status::ok);
    CHECK(answers[0].body() == testing::fixture_inputs({2026, 48}));
    CHECK(answers[0][http::beast_http::field::cache_control] == "public, max-age=31536000, immutable");
    CHECK(answers[1].body() == testing::fixture_request("/v1/prices").body());
    CHECK(answers[2].result() == status::ok);
    CHECK(answers[2][http::beast_http::field::content_length] ==
          std::to_string(testing::fixture_inputs({2026, 49}).size()));
    CHECK(answers[2].body().empty());
    CHECK(w.open());
    CHECK(inputs.measure().reads == 1);  // the HEAD is answered from the signed index, reading nothing
}

TEST_CASE("a body sent in parts without a known length is chunked for HTTP/1.1, and ends the connection for HTTP/1.0")
{
    lcg::archive::archive inputs({}, fixture_sources());
    http::server_options o;
    o.archive = &inputs;
    auto const json = testing::fixture_request("/v1/sheets/2026-W49/observations").body().str();
    wire w(o);
    std::string const get_json = "GET /v1/sheets/2026-W49/observations HTTP/1.1\r\nHost: x\r\n\r\n";
    auto const out = w.send_until(get_json + get_prices, [](std::string const& written) { return written.ends_with("}\n"); });
    CHECK(out.find("Transfer-Encoding: chunked\r\n") != std::string::npos);
    CHECK(out.find("\r\n0\r\n\r\n") != std::string::npos);  // the last chunk
    auto const answers = responses(out, {false, false});
    CHECK(answers[0].result() == status::ok);
    CHECK(answers[0].find(http::beast_http::field::content_length) == answers[0].end());
    CHECK(answers[0].body() == json);
    CHECK(answers[1].body() == testing::fixture_request("/v1/prices").body());  // in its place after it
    CHECK(w.open());

    wire old(o);
    auto const old_out = old.send_until("GET /v1/sheets/2026-W49/observations HTTP/1.0\r\n\r\n",
                                        [&](std::string const&) { return !old.open(); });
    CHECK_FALSE(old.open());
    REQUIRE(old_out.starts_with("HTTP/1.0 200 OK\r\n"));
    auto const head_end = old_out.find("\r\n\r\n");
    auto const head = old_out.substr(0, head_end);
    CHECK(head.find("Content-Length") == std::string::npos);
    CHECK(head.find("Transfer-Encoding") == std::string::npos);
    CHECK(old_out.substr(head_end + 4) == json);  // the whole body, then the end of the connection
}

namespace {

// An archive whose source gives a week's layout and two chunks, then fails as a lost database would.
std::unique_ptr<lcg::archive::archive> archive_failing_after_two_chunks()
{
    auto const calls = std::make_shared<std::atomic<int>>(0);
    lcg::archive::options quick;
    quick.retry_after_failure = std::chrono::milliseconds(0);
    return std::make_unique<lcg::archive::archive>(quick, testing::text_sources(
                                                              [calls](pricing::price_sheet const& sheet) -> std::string {
                                                                  if (++*calls > 3)
                                                                      throw std::runtime_error("the database connection was lost");
                                                                  return testing::fixture_inputs(sheet.week);
                                                              },
                                                              testing::fixture_chunk_bytes));
}

}

TEST_CASE("a body whose source fails in the middle closes the connection: the client sees fewer bytes than announced")
{
    auto const inputs = archive_failing_after_two_chunks();
    http::server_options o;
    o.archive = inputs.get();
    wire w(o);
    auto const out = w.send_until("GET /v1/sheets/2026-W48/observations.csv HTTP/1.1\r\nHost: x\r\n\r\n" + get_prices,
                                  [&](std::string const&) { return !w.open(); });
    CHECK_FALSE(w.open());
    REQUIRE(out.starts_with("HTTP/1.1 200 OK\r\n"));
    auto const body = out.substr(out.find("\r\n\r\n") + 4);
    auto const csv = testing::fixture_inputs({2026, 48});
    CHECK(out.find("Content-Length: " + std::to_string(csv.size()) + "\r\n") != std::string::npos);
    CHECK(body.size() < csv.size());
    CHECK(csv.starts_with(body));  // what was sent is the week's beginning, and nothing after it
    CHECK(body.size() == std::string(pricing::input_chunks(csv, testing::fixture_chunk_bytes)[0]).size() +
                             pricing::input_chunks(csv, testing::fixture_chunk_bytes)[1].size());
}

TEST_CASE("HEAD is the head of GET, with the full Content-Length and no body, on every kind of answer")
{
    for (std::string const target : {"/v1/prices", "/v1/prices.md", "/v1/estimate?gpu=h100-sxm&hours=1",
                                     "/no/such/thing", "/v1/prices/h100"}) {
        wire w;
        // What the router answers to this HEAD: the connection must send its head alone.
        auto const get = testing::fixture_request(target, {}, http::beast_http::verb::head);
        auto const out = w.send("HEAD " + target + " HTTP/1.1\r\nHost: x\r\n\r\n" + get_prices);
        auto const answers = responses(out, {true, false});  // the GET after it starts right at the blank line
        CHECK_MESSAGE(answers[0].result() == get.result(), target);
        CHECK(answers[0].body().empty());
        CHECK(answers[0][http::beast_http::field::content_length] == std::to_string(get.body().size()));
        CHECK(answers[0][http::beast_http::field::content_type] == get[http::beast_http::field::content_type]);
        CHECK(answers[1].result() == status::ok);
    }
}

TEST_CASE("a 304 has no body and the connection goes on")
{
    wire w;
    auto const etag = std::string(testing::fixture_request("/v1/prices")[http::beast_http::field::etag]);
    auto const out = w.send("GET /v1/prices HTTP/1.1\r\nHost: x\r\nIf-None-Match: " + etag + "\r\n\r\n" + get_prices);
    auto const answers = responses(out, {false, false});
    CHECK(answers[0].result() == status::not_modified);
    CHECK(answers[0].body().empty());
    CHECK(answers[0].find(http::beast_http::field::content_length) == answers[0].end());
    CHECK(answers[0][http::beast_http::field::etag] == etag);
    CHECK(answers[1].result() == status::ok);
}

TEST_CASE("Connection: close and HTTP/1.0 end the connection after the answer")
{
    wire closing;
    auto const out = closing.send("GET /v1/prices HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n" + get_prices);
    auto const answers = responses(out, {false});  // the pipelined GET after it is never answered
    CHECK(answers[0].result() == status::ok);
    CHECK_FALSE(answers[0].keep_alive());
    CHECK_FALSE(closing.open());

    wire old;
    auto const old_out = old.send("GET /v1/prices HTTP/1.0\r\n\r\n");
    CHECK(old_out.starts_with("HTTP/1.0 200 OK\r\n"));
    CHECK_FALSE(old.open());

    wire kept;
    kept.send("GET /v1/prices HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
    CHECK(kept.open());
}

TEST_CASE("every unclear framing is refused from the headers and the connection closed")
{
    // Transfer-Encoding that does not end with chunked, on HTTP/1.0, or folded (RFC 9112 §6.1).
    check_refused("POST /mcp HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked, gzip\r\n\r\n", status::bad_request);
    check_refused("POST /mcp HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n", status::bad_request);
    check_refused("POST /mcp HTTP/1.0\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n", status::bad_request);
    check_refused("POST /mcp HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip,\r\n chunked\r\n\r\n", status::bad_request);
    // Codings the parser cannot read as ending with chunked, though the last one is: its body would
    // be taken for a second request.
    check_refused("GET /healthz HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: x y, chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
                  status::bad_request);
    check_refused("POST /mcp HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: \"gzip\", chunked\r\n\r\n", status::bad_request);
    // Chunked alone, once (issue 29, low): no other coding is implemented and chunked is applied once.
    for (char const* coding : {"gzip, chunked", "chunked,", "chunked, chunked", ", chunked"})
        check_refused(std::string("POST /mcp HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: ") + coding +
                          "\r\n\r\n0\r\n\r\n",
                      status::bad_request);
    check_refused("POST /mcp HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n"
                  "0\r\n\r\n",
                  status::bad_request);
    // Host: exactly one in HTTP/1.1 (RFC 9112 §3.2); at most one in HTTP/1.0.
    check_refused("GET /v1/prices HTTP/1.1\r\n\r\n", status::bad_request);
    check_refused("GET /v1/prices HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", status::bad_request);
    check_refused("GET /v1/prices HTTP/1.0\r\nHost: a\r\nHost: a\r\n\r\n", status::bad_request);
    // Any folded line (obs-fold, RFC 9112 §5.2).
    check_refused("GET /v1/prices HTTP/1.1\r\nHost: x\r\nAccept: text/html,\r\n\ttext/markdown\r\n\r\n", status::bad_request);
    // Both Content-Length and Transfer-Encoding, or two lengths that disagree.
    check_refused("POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n",
                  status::bad_request);
    check_refused("POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n", status::bad_request);
    // A chunk extension.
    check_refused("POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                  "2;ext=1\r\n{}\r\n0\r\n\r\n",
                  status::bad_request);
    // A body where the route takes none: refused from its headers, the body never read.
    check_refused("GET /v1/prices HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n", status::bad_request);
    check_refused("PUT /v1/prices HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n", status::method_not_allowed);
    // Limits: the header block, the target, the body.
    check_refused("GET /v1/prices HTTP/1.1\r\nHost: x\r\nX-Padding: " + std::string(9000, 'a') + "\r\n\r\n",
                  status::request_header_fields_too_large);
    check_refused("GET /v1/prices?" + std::string(5000, 'a') + " HTTP/1.1\r\nHost: x\r\n\r\n", status::uri_too_long);
    for (std::string const target : {"/mcp", "/mcp?x=1"}) {
        // Past the body limit, /mcp refuses as MCP clients read a refusal: a JSON-RPC error, with
        // no CORS header of the read API (the endpoint names the origins it allows itself).
        CAPTURE(target);
        wire w;
        auto const answers =
            responses(w.send("POST " + target + " HTTP/1.1\r\nHost: x\r\nContent-Length: 2000000\r\n\r\n"), {false});
        CHECK(answers[0].result() == status::payload_too_large);
        CHECK(answers[0][http::beast_http::field::content_type] == "application/json");
        CHECK(answers[0].body() ==
              R"({"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"the message is larger than 1 MiB"}})");
        CHECK(answers[0].count(http::beast_http::field::access_control_allow_origin) == 0);
        CHECK_FALSE(w.open());
    }
    // Not HTTP at all.
    check_refused("HELLO\r\n\r\n", status::bad_request);
}

TEST_CASE("the header block is limited in all, however it is cut: fields the parser took in count")
{
    // In one write of 11 KiB: the parser takes in a few KiB of whole lines per read, and its own
    // limit sees only what it has not taken in yet.
    std::string many = "GET /v1/prices HTTP/1.1\r\nHost: x\r\n";
    while (many.size() < 11 * 1024)
        many += "X-Line: " + std::string(90, 'a') + "\r\n";
    check_refused(many + "\r\n", status::request_header_fields_too_large);

    // Cut one byte into each next field, so that nothing is ever held back: 431 once 8 KiB are in.
    wire w;
    std::string out = w.send("GET /v1/prices HTTP/1.1\r\nHost: x\r\nX");
    for (int i = 0; i < 4'000 && w.open(); ++i)
        out = w.send("-a: 1\r\nX");
    auto const answers = responses(out, {false});
    CHECK(answers[0].result() == status::request_header_fields_too_large);
    CHECK_FALSE(w.open());

    // Below the limit, the same cutting is a request like any other.
    wire fine;
    fine.send("GET /v1/regions HTTP/1.1\r\nHost: x\r\nX");
    for (int i = 0; i < 100; ++i)
        fine.send("-a: 1\r\nX");
    auto const answered = responses(fine.send("-a: 1\r\n\r\n"), {false});
    CHECK(answered[0].result() == status::ok);
    CHECK(fine.open());
}

TEST_CASE("a target in absolute-form is answered as its origin-form, and stored and replayed alike")
{
    wire w;
    auto const out = w.send("GET http://localhost:8080/v1/regions HTTP/1.1\r\nHost: x\r\n\r\n"
                            "GET HTTP://LOCALHOST/v1/regions HTTP/1.1\r\nHost: x\r\n\r\n");
    auto const answers = responses(out, {false, false});
    CHECK(answers[0].result() == status::ok);
    CHECK(answers[0].body() == testing::fixture_request("/v1/regions").body());
    CHECK(answers[1].body() == answers[0].body());
    CHECK(w.open());
    // With a body: the route is asked whether it takes one by the path the target names.
    std::string const ping = R"({"jsonrpc":"2.0","id":1,"method":"ping"})";
    wire posted;
    auto const replies = responses(
        posted.send("POST http://localhost/mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    "Content-Length: " + std::to_string(ping.size()) + "\r\n\r\n" + ping +
                    "POST http://localhost/mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    "Transfer-Encoding: chunked\r\n\r\n28\r\n" + ping + "\r\n0\r\n\r\n"),
        {false, false});
    for (auto const& reply : replies) {
        CHECK(reply.result() == status::ok);
        CHECK(reply.body() == R"({"jsonrpc":"2.0","id":1,"result":{}})");
    }
}

TEST_CASE("a chunk size line or a trailer that never ends is refused once it passes the header limit, and trailers are refused")
{
    std::string const chunked = "POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                                "Transfer-Encoding: chunked\r\n\r\n";
    for (std::string const& endless : {std::string(9'000, '0'), "2\r\n{}\r\n0\r\nX-Long: " + std::string(9'000, 'a')}) {
        wire w;
        std::string out = w.send(chunked);
        for (std::size_t at = 0; at < endless.size() && w.open(); at += 1'000)
            out = w.send(endless.substr(at, 1'000));
        auto const answers = responses(out, {false});
        CHECK(answers[0].result() == status::bad_request);
        CHECK(answers[0].body().find("chunk size line or trailer") != std::string::npos);
        CHECK_FALSE(w.open());
    }
    // A trailer would add fields after the headers were checked (a second Host, X-Forwarded-For).
    check_refused(chunked + "2\r\n{}\r\n0\r\nX-Forwarded-For: 192.0.2.1\r\n\r\n", status::bad_request);
    // Without one, a chunked body is read as before.
    wire w;
    std::string const from_localhost = "POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                                       "Transfer-Encoding: chunked\r\n\r\n";
    auto const answers = responses(
        w.send(from_localhost + "28\r\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\r\n0\r\n\r\n"), {false});
    CHECK(answers[0].result() == status::ok);
    CHECK(answers[0].body() == R"({"jsonrpc":"2.0","id":1,"result":{}})");
    // Accept on three lines is joined into one before the fields are counted: no trailer is seen
    // where there is none, and two lines fewer do not let two trailer fields through.
    std::string const accepting = "POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                                  "Accept: application/json\r\nAccept: text/event-stream\r\nAccept: */*\r\n"
                                  "Transfer-Encoding: chunked\r\n\r\n28\r\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\r\n0\r\n";
    wire joined;
    CHECK(responses(joined.send(accepting + "\r\n"), {false})[0].result() == status::ok);
    check_refused(accepting + "X-Forwarded-For: 192.0.2.1\r\nHost: elsewhere\r\n\r\n", status::bad_request);
}

TEST_CASE("a body is charged to the budget of body bytes as it arrives: announced and unsent, it holds nothing")
{
    http::server_options options;
    options.body_budget = 100;
    wire w(options);
    std::string const head = "POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n";
    // Announced past the budget, and one byte sent: the server waits for the rest.
    CHECK(w.send(head + "{").empty());
    CHECK(w.open());
    // The bytes that would take it past the budget end the request with a 503 to retry.
    auto const answers = responses(w.send(std::string(150, ' ')), {false});
    REQUIRE(answers.size() == 1);
    CHECK(answers[0].result() == status::service_unavailable);
    CHECK(answers[0][http::beast_http::field::retry_after] == "1");
    CHECK_FALSE(w.open());
}

TEST_CASE("what an address holds is counted in amounts against a cap, and given back")
{
    http::address_slots held;
    CHECK(held.take("203.0.113.7", 100, 60));
    CHECK_FALSE(held.take("203.0.113.7", 100, 41));  // 101 would pass the cap
    CHECK(held.take("203.0.113.7", 100, 40));
    CHECK(held.take("198.51.100.9", 100, 100));      // another address has its own
    CHECK_FALSE(held.take("192.0.2.1", 100, 101));   // more than the cap never fits
    held.give_back("203.0.113.7", 60);
    CHECK(held.take("203.0.113.7", 100, 60));
    CHECK_FALSE(held.take("203.0.113.7", 100, 1));
    // The addresses of one IPv6 /64 are one client, and give back to the same count.
    CHECK(held.take("2001:db8::1", 100, 70));
    CHECK_FALSE(held.take("2001:db8::2", 100, 31));
    held.give_back("2001:db8::2", 70);
    CHECK(held.take("2001:db8::3", 100, 100));
}

TEST_CASE("Expect: 100-continue is answered before the body, and any other expectation is a 417")
{
    std::string const body = R"({"jsonrpc":"2.0","id":1,"method":"ping"})";
    std::string const head = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                             "Accept: application/json, text/event-stream\r\nContent-Length: " +
                             std::to_string(body.size()) + "\r\n";
    {
        wire w;
        CHECK(w.send(head + "Expect: 100-Continue\r\n\r\n") == "HTTP/1.1 100 Continue\r\n\r\n");
        auto const out = w.send(body);
        REQUIRE(out.starts_with("HTTP/1.1 100 Continue\r\n\r\n"));
        auto const answers = responses(std::string_view(out).substr(25), {false});
        CHECK(answers[0].result() == status::ok);
        CHECK(answers[0].body().find("\"result\"") != std::string::npos);
        CHECK(w.open());
    }
    {
        wire w;  // the body sent with the head: no interim answer
        auto const out = w.send(head + "Expect: 100-continue\r\n\r\n" + body);
        CHECK_FALSE(out.starts_with("HTTP/1.1 100"));
        CHECK(responses(out, {false})[0].result() == status::ok);
    }
    {
        wire w;  // refused from its head: the final answer at once, never a 100
        auto const out = w.send("POST /v1/prices HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n");
        CHECK_FALSE(out.starts_with("HTTP/1.1 100"));
        CHECK(responses(out, {false})[0].result() != status::ok);
    }
    wire w;
    auto const out = w.send("GET /v1/prices HTTP/1.1\r\nHost: x\r\nExpect: something-else\r\n\r\n");
    CHECK(responses(out, {false})[0].result() == status::expectation_failed);
    // HTTP/1.0 has no expectations: the field is ignored.
    wire old;
    CHECK(responses(old.send("GET /healthz HTTP/1.0\r\nExpect: 100-continue\r\n\r\n"), {false})[0].result() ==
          status::ok);
}

TEST_CASE("a refused connection gets a complete 503 with the headers of every answer")
{
    auto const answers = responses(http::busy_connection_answer(), {false});
    CHECK(answers[0].result() == status::service_unavailable);
    CHECK(answers[0][http::beast_http::field::server] == "lowcostgpu");
    CHECK(answers[0]["X-Content-Type-Options"] == "nosniff");
    CHECK(answers[0][http::beast_http::field::retry_after] == "1");
    CHECK_FALSE(answers[0].keep_alive());
}

TEST_CASE("a HEAD refused from its headers gets the head alone")
{
    for (std::string const extra : {"Content-Length: 5\r\n", "Transfer-Encoding: chunked, gzip\r\n"}) {
        wire w;
        auto const out = w.send("HEAD /v1/prices HTTP/1.1\r\nHost: x\r\n" + extra + "\r\nhello");
        auto const answers = responses(out, {true});  // nothing may follow the head
        CHECK_MESSAGE(answers[0].result() == status::bad_request, extra);
        CHECK_FALSE(w.open());
    }
}

TEST_CASE("a snapshot rebuilt with nothing changed shares every document of the previous one")
{
    auto const before = testing::fixture_snapshot();
    auto const after = snapshot::build(before->catalog, before->sheets, before.get(), testing::fixture_now(),
                                       {before->keys, ""}, before->signed_catalog, before->log);
    std::size_t unchanged = 0;
    for (auto const& entry : after->documents) {
        std::string const& key = entry.first;  // named: doctest's lambdas cannot capture a structured binding
        auto const& doc = entry.second;
        if (auto const old = before->find_document(key); old && old->etag == doc->etag) {
            ++unchanged;
            CHECK_MESSAGE(old == doc, key);
        }
    }
    CHECK(unchanged > 0);
}

namespace {

// A real loopback socket to a connection<tcp_socket> whose event loop runs on its own thread: what
// the kernel does with our writes, which the test stream cannot show.
class loopback_wire {
public:
    explicit loopback_wire(std::shared_ptr<const snapshot::snapshot> snap = testing::fixture_snapshot(),
                           http::server_options options = {})
        : shared_{std::move(options), holder_, metrics_, log_, {}, {}, {}, {}, {}}, loop_(shared_), client_(io_)
    {
        holder_.set(std::move(snap));
        loop_.date = http::date_field(read_test_second);
        http::asio::ip::tcp::acceptor acceptor(loop_.ioc, {http::asio::ip::make_address("127.0.0.1"), 0});
        client_.connect(acceptor.local_endpoint());
        http::tcp_socket server_end(loop_.ioc);
        acceptor.accept(server_end);
        auto peer = http::transport<http::tcp_socket>::peer(server_end);
        std::make_shared<http::connection<http::tcp_socket>>(std::move(server_end), loop_, std::move(peer), false)->start();
        timeval const limit{5, 0};  // a server that stops answering fails the test instead of hanging it
        ::setsockopt(client_.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
        thread_ = std::thread([this] { loop_.ioc.run(); });
    }
    ~loopback_wire()
    {
        http::beast::error_code ec;
        client_.close(ec);
        working_.reset();
        thread_.join();  // the connection sees the end of stream and closes; the loop runs out of work
    }

    void send(std::string_view bytes) { http::asio::write(client_, http::asio::buffer(bytes.data(), bytes.size())); }

    // How many memory files the event loop holds, asked on its own thread.
    std::size_t stored_files()
    {
        std::promise<std::size_t> files;
        http::asio::post(loop_.ioc, [&] { files.set_value(loop_.answers.files()); });
        return files.get_future().get();
    }

    // Everything the server sends until the connection ends, and how it ended (eof: a close; a reset).
    std::pair<std::string, http::beast::error_code> read_to_end()
    {
        std::string out(static_cast<char const*>(buffer_.data().data()), buffer_.size());
        buffer_.consume(buffer_.size());
        // recv itself, whose SO_RCVTIMEO ends a silent wait (asio's read_some would poll for ever).
        char piece[4096];
        for (int reads = 0; reads < 100'000; ++reads) {
            auto const n = ::recv(client_.native_handle(), piece, sizeof piece, 0);
            if (n > 0) {
                out.append(piece, static_cast<std::size_t>(n));
                continue;
            }
            auto const error = n == 0 ? http::beast::error_code(http::asio::error::eof)
                                      : http::beast::error_code(errno, boost::system::system_category());
            return {out, error};
        }
        return {out, {}};
    }

    // The next response; `head`: it answers a HEAD.
    http::beast_http::response<http::beast_http::string_body> read(bool head = false)
    {
        http::beast_http::response_parser<http::beast_http::string_body> parser;
        parser.body_limit(64 * 1024 * 1024);
        parser.skip(head);
        http::beast_http::read(client_, buffer_, parser);
        return parser.release();
    }

private:
    snapshot::holder holder_;
    ops::log_writer log_{STDOUT_FILENO};
    ops::metrics metrics_{log_};
    http::connection_shared shared_;
    http::event_loop loop_;
    http::asio::io_context io_;
    http::asio::ip::tcp::socket client_;
    http::beast::flat_buffer buffer_;
    // The loop waits for the archive's answer to a deferred request with no operation of its own.
    std::optional<http::asio::executor_work_guard<http::asio::io_context::executor_type>> working_{
        http::asio::make_work_guard(loop_.ioc)};
    std::thread thread_;
};

}

TEST_CASE("over a real socket, documents arrive byte for byte, gzip, HEAD and pipelined")
{
    std::string const target = "/openapi.json";
    auto const expected = testing::fixture_request(target);
    auto const zipped = testing::fixture_request(target, {{"Accept-Encoding", "gzip"}});
    loopback_wire w;
    w.send("GET " + target + " HTTP/1.1\r\nHost: x\r\n\r\n" + "GET " + target +
           " HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n" + "HEAD " + target +
           " HTTP/1.1\r\nHost: x\r\n\r\n" + "GET " + target + " HTTP/1.1\r\nHost: x\r\n\r\n");
    auto const plain = w.read();
    CHECK(plain.result() == status::ok);
    CHECK(plain.body() == expected.body().view());
    auto const gz = w.read();
    CHECK(gz[http::beast_http::field::content_encoding] == "gzip");
    CHECK(gz.body() == zipped.body().view());
    auto const head = w.read(true);
    CHECK(head[http::beast_http::field::content_length] == std::to_string(expected.body().size()));
    auto const again = w.read();
    CHECK(again.body() == expected.body().view());
    w.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");  // and a later one on the same connection
    CHECK(w.read().result() == status::ok);
}

TEST_CASE("over a real socket, a stored answer of 16 KiB or more is sent from its memory file, byte for byte")
{
    // A sheet of 3 MiB: more than the socket takes at once, and than one turn of the loop sends.
    auto big = std::make_shared<snapshot::snapshot>(*testing::fixture_snapshot());
    std::string body = "[";
    for (int i = 0; body.size() < 3 * 1024 * 1024; ++i)
        body += (i ? ",\"" : "\"") + std::to_string(i) + "\"";
    body += "]\n";
    big->documents[snapshot::document_key("/v1/prices", render::format::json)] =
        snapshot::make_document("application/json", body, false, testing::fixture_now());
    loopback_wire w(big);
    std::string const get = "GET /v1/prices HTTP/1.1\r\nHost: x\r\n\r\n";
    w.send(get);
    auto const first = w.read();  // written from memory, then stored with its file
    CHECK(first.body() == body);
    CHECK(w.stored_files() == 1);
    w.send(get + "HEAD /v1/prices HTTP/1.1\r\nHost: x\r\n\r\n" + get + "GET /v1/regions HTTP/1.1\r\nHost: x\r\n\r\n");
    auto const again = w.read();
    CHECK(again.body() == body);
    CHECK(again.base().at(http::beast_http::field::etag) == first.base().at(http::beast_http::field::etag));
    auto const head = w.read(true);
    CHECK(head[http::beast_http::field::content_length] == std::to_string(body.size()));
    CHECK(w.read().body() == body);
    CHECK(w.read().body() == testing::fixture_request("/v1/regions").body().view());
    CHECK(w.stored_files() == 1);  // /v1/regions is smaller than a file is worth
}

TEST_CASE("over a real socket, an MCP reply ending with the tool list sends that end from a memory file, byte for byte")
{
    std::string const message = R"({"jsonrpc":"2.0","id":7,"method":"tools/list"})";
    std::string const post = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                             "Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2025-06-18\r\n"
                             "Content-Length: " + std::to_string(message.size()) + "\r\n\r\n" + message;
    wire w;  // a stream that takes no files: the reply written whole from memory
    auto const expected = responses(w.send(post), {false}).at(0);
    REQUIRE(expected.result() == status::ok);
    REQUIRE(expected.body().size() >= http::stored_answers::file_threshold);
    loopback_wire sent;
    sent.send(post + post + "GET /v1/regions HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" + post);
    CHECK(whole_answer(sent.read()) == whole_answer(expected));
    CHECK(whole_answer(sent.read()) == whole_answer(expected));
    CHECK(sent.read().body() == testing::fixture_request("/v1/regions").body().view());
    CHECK(whole_answer(sent.read()) == whole_answer(expected));
    // The tool list's, made once, and from the second ask the whole reply's (stored_answers).
    CHECK(sent.stored_files() == 2);
}

namespace {

// Each answer in `bytes` (heads as `heads` says), in order, written out whole.
std::vector<std::string> answer_bytes(std::string_view bytes, std::vector<bool> const& heads)
{
    std::vector<std::string> out;
    for (auto const& res : responses(bytes, heads))
        out.push_back(whole_answer(res));
    return out;
}

std::string request_of(std::string_view method, std::string const& target, std::string const& headers = {})
{
    return std::string(method) + " " + target + " HTTP/1.1\r\nHost: x\r\n" + headers + "\r\n";
}

}

TEST_CASE("a published document or a computed answer asked again on the same snapshot is replayed byte for byte")
{
    std::vector<std::string> const targets = {"/v1/prices", "/v1/prices.md", "/v1/prices?lang=fr", "/v1/gpus",
                                              "/v1/gpus/h100-sxm.html", "/", "/llms.txt", "/v1/glossary",
                                              "/v1/sheets/2026-W48", "/v1/estimate?gpu=h100-sxm&gpus=2&hours=10",
                                              "/v1/estimate.html?gpu=h100-sxm&hours=1&tier=", "/v1/compare.md?gpus=h100-sxm,a100-80gb-sxm"};
    std::vector<std::string> const negotiations = {
        "", "Accept: text/markdown\r\n", "Accept-Language: fr\r\n", "Accept-Encoding: gzip\r\n",
        "Accept: text/html\r\nAccept-Language: fr-CA, en;q=0.5\r\nAccept-Encoding: gzip, br\r\n",
        // Repeated lines: the router reads the first of each, and so does the store's key.
        "Accept-Language: fr\r\nAccept-Language: en\r\n", "Accept-Language: en\r\nAccept-Language: fr\r\n"};
    for (auto const& target : targets)
        for (auto const& negotiation : negotiations) {
            wire w;
            auto const ask = request_of("GET", target, negotiation);
            auto const first = w.send(ask);
            auto const again = w.send(ask + request_of("HEAD", target, negotiation));
            auto const answers = answer_bytes(again, {false, false, true});
            INFO(target, " with ", negotiation);
            REQUIRE(answers.size() == 3);
            // A format the resource lacks (406) is refused afresh each time, and the same.
            CHECK(w.stored() == (answers[0].starts_with("200") ? 1 : 0));
            CHECK(answers[1] == answers[0]);
            // The HEAD answered from the store is the GET's head, with no body.
            CHECK(answers[2] == answers[0].substr(0, answers[0].find("\r\n\r\n") + 4));
            // And the same as a connection that never stored it.
            wire fresh;
            CHECK(answer_bytes(fresh.send(ask), {false})[0] == answers[0]);
        }
}

TEST_CASE("a different negotiation, a validator, a close or HTTP/1.0 is never given another question's stored answer")
{
    wire w;
    auto const plain = answer_bytes(w.send(get_prices), {false})[0];
    std::string const etag(testing::fixture_request("/v1/prices")[http::beast_http::field::etag]);
    struct question {
        std::string request;
        status expected;
    };
    std::vector<question> const questions = {
        {request_of("GET", "/v1/prices", "Accept: text/markdown\r\n"), status::ok},
        {request_of("GET", "/v1/prices", "Accept-Encoding: gzip\r\n"), status::ok},
        {request_of("GET", "/v1/prices", "Accept-Language: fr\r\n"), status::ok},
        {request_of("GET", "/v1/prices", "If-None-Match: " + etag + "\r\n"), status::not_modified},
        {request_of("GET", "/v1/prices", "If-Modified-Since: Thu, 01 Jan 2099 00:00:00 GMT\r\n"), status::not_modified},
        {request_of("GET", "/v1/prices", "If-Match: \"other\"\r\n"), status::precondition_failed},
        {request_of("GET", "/v1/prices", "If-Unmodified-Since: Thu, 01 Jan 1970 00:00:00 GMT\r\n"),
         status::precondition_failed},
        {request_of("GET", "/v1/prices?lang=xx"), status::bad_request},
        {request_of("GET", "/v1/prices?vendor=nvidia"), status::ok},
    };
    for (auto const& q : questions) {
        auto const all = answer_bytes(w.send(q.request), std::vector<bool>(2 + (&q - questions.data()), false));
        INFO(q.request);
        CHECK(all.back().starts_with(std::to_string(static_cast<int>(q.expected))));
        CHECK(all.back() != plain);
    }
    // Refusals are not kept, nor a calculator's empty form; a computed estimate is.
    wire computed;
    computed.send(request_of("GET", "/no/such/thing") + request_of("GET", "/v1/prices?lang=xx") +
                  request_of("GET", "/v1/estimate?gpu=nope&hours=1") + request_of("GET", "/v1/estimate.html"));
    CHECK(computed.stored() == 0);
    computed.send(request_of("GET", "/v1/estimate?gpu=h100-sxm&hours=1"));
    CHECK(computed.stored() == 1);
    // Connection: close and HTTP/1.0 get an answer that says so, not the stored keep-alive one.
    auto const closing = answer_bytes(w.send(request_of("GET", "/v1/prices", "Connection: close\r\n")),
                                      std::vector<bool>(2 + questions.size(), false));
    CHECK(closing.back().find("Connection: close") != std::string::npos);
    wire old;
    old.send(get_prices);
    auto const one_oh = old.send("GET /v1/prices HTTP/1.0\r\n\r\n");
    CHECK(one_oh.find("HTTP/1.0 200") != std::string::npos);
    CHECK_FALSE(old.open());
}

TEST_CASE("Accept and Accept-Language sent on two lines are read as one list each, and stored under it")
{
    auto const french = testing::fixture_request("/v1/prices.md", {{"Accept-Language", "fr"}}).body();
    auto const english = testing::fixture_request("/v1/prices.md").body();
    REQUIRE(french != english);
    wire w;
    auto const answers =
        responses(w.send(request_of("GET", "/v1/prices.md", "Accept-Language: de\r\nAccept-Language: fr;q=0.9\r\n") +
                         request_of("GET", "/v1/prices.md", "Accept-Language: de\r\n") +
                         request_of("GET", "/v1/prices", "Accept: application/xml\r\nAccept: text/csv\r\n") +
                         request_of("GET", "/v1/prices.md", "Accept-Language: de\r\nAccept-Language: fr;q=0.9\r\n")),
                  {false, false, false, false});
    CHECK(answers[0].body() == french);
    CHECK(answers[1].body() == english);
    CHECK(answers[2].result() == status::ok);
    CHECK(std::string(answers[2][http::beast_http::field::content_type]).starts_with("text/csv"));
    CHECK(answers[3].body() == french);
}

TEST_CASE("distinct computed questions never make the store hold more answers than its bound")
{
    wire w;
    std::string asks;
    for (int hours = 1; hours <= 300; ++hours)
        asks += request_of("GET", "/v1/estimate?gpu=h100-sxm&hours=" + std::to_string(hours));
    auto const answers = responses(w.send(asks), std::vector<bool>(300, false));
    CHECK(answers.back().result() == status::ok);
    CHECK(w.stored() >= 1);
    CHECK(w.stored() <= http::stored_answers::max_answers);
}

TEST_CASE("memory files a connection still sends count against the store's bound after the store is emptied")
{
    http::date_field date(read_test_second);
    date.now();  // as writing each head does
    http::stored_answers store{date};
    auto const snap = testing::fixture_snapshot();
    auto const body = std::make_shared<std::string>(http::stored_answers::file_threshold, 'x');
    auto const ask = [](int n) {
        http::request req{http::beast_http::verb::get, "/big/" + std::to_string(n), 11};
        req.set(http::beast_http::field::host, "x");
        return req;
    };
    auto const keep = [&](int n) {
        http::response res{status::ok, 11};
        res.body() = http::payload(body, *body);
        res.body().mark_published();
        store.keep(ask(n), {.hit = std::nullopt, .key = 0, .sends_files = true}, snap, res, "/big", "HTTP/1.1 200 OK\r\n\r\n");
    };
    auto const file_of = [&](int n) {
        auto const found = store.find(ask(n), snap, true);
        return found.hit ? found.hit->answer->file : nullptr;
    };
    // Every file the bound allows, each held as a slow reader's connection holds the answer it sends.
    std::vector<std::shared_ptr<const http::memory_file>> sending;
    for (int n = 0; n < static_cast<int>(http::stored_answers::max_files); ++n) {
        keep(n);
        sending.push_back(file_of(n));
        REQUIRE(sending.back());
    }
    // Enough distinct questions to empty the store: no new file while those are still being sent.
    for (int n = 1'000; n < 1'000 + static_cast<int>(http::stored_answers::max_answers) + 10; ++n) {
        keep(n);
        CHECK_FALSE(file_of(n));
        CHECK(store.files() <= http::stored_answers::max_files);
    }
    // Once the readers are done, files are made again.
    sending.clear();
    keep(5'000);
    CHECK(file_of(5'000));
    CHECK(store.files() <= http::stored_answers::max_files);
}

TEST_CASE("a computed answer a memory file holds is not held in memory too, and a stream that takes no files never gets it")
{
    auto const snap = testing::fixture_snapshot();
    http::request const ask{http::beast_http::verb::get, "/v1/estimate?big", 11};
    http::response res{status::ok, 11};
    auto const body = std::make_shared<std::string>(http::stored_answers::file_threshold, 'x');
    res.body() = http::payload(body, *body);
    res.body().mark_computed();
    std::string_view const head = "HTTP/1.1 200 OK\r\n\r\n";

    http::date_field date(read_test_second);
    date.now();  // as writing each head does
    http::stored_answers sending{date};  // a loop whose connections send files
    sending.keep(ask, sending.find(ask, snap, true), snap, res, "/v1/estimate", head);
    auto const from_file = sending.find(ask, snap, true);
    REQUIRE(from_file.hit);
    CHECK(from_file.hit->answer->file);
    CHECK(from_file.hit->answer->body.empty());
    CHECK(from_file.hit->answer->body_size == body->size());
    CHECK(sending.held_bytes() == 0);
    CHECK_FALSE(sending.find(ask, snap, false).hit);  // it could not send the file

    http::stored_answers writing{date};  // a loop whose connections take no files
    writing.keep(ask, writing.find(ask, snap, false), snap, res, "/v1/estimate", head);
    auto const from_memory = writing.find(ask, snap, false);
    REQUIRE(from_memory.hit);
    CHECK_FALSE(from_memory.hit->answer->file);
    CHECK(from_memory.hit->answer->body == *body);
    CHECK(writing.held_bytes() == body->size());
    CHECK(writing.files() == 0);
}

TEST_CASE("a new snapshot empties the stored answers: the next answer is the new document's")
{
    wire w;
    auto const before = responses(w.send(get_prices + get_prices), {false, false});
    CHECK(before[1].body() == testing::fixture_request("/v1/prices").body());
    auto next = std::make_shared<snapshot::snapshot>(*testing::fixture_snapshot());
    next->documents[snapshot::document_key("/v1/prices", render::format::json)] =
        snapshot::make_document("application/json", "{\"changed\":true}\n", false, testing::fixture_now());
    w.publish(next);
    auto const after = responses(w.send(get_prices), {false, false, false});
    CHECK(after[2].body() == "{\"changed\":true}\n");
    CHECK(w.stored() == 1);
}

namespace {

// POST /mcp carrying `message`, with the headers of the SDKs' clients and `extra` ones (lines ending
// in CRLF); `headers` replaces those of the SDKs when given.
std::string mcp_post(std::string const& message, std::string const& extra = {},
                     std::string const& headers = "Host: 127.0.0.1\r\nContent-Type: application/json\r\n"
                                                  "Accept: application/json, text/event-stream\r\n"
                                                  "MCP-Protocol-Version: 2025-06-18\r\n")
{
    return "POST /mcp HTTP/1.1\r\n" + headers + extra + "Content-Length: " + std::to_string(message.size()) +
           "\r\n\r\n" + message;
}

std::string const prices_call = R"({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"get_prices","arguments":{}}})";

}

TEST_CASE("an MCP message sent a second time with the same headers is stored, then replayed byte for byte, its call counted each time")
{
    std::vector<std::string> const messages = {
        prices_call, R"({"jsonrpc":"2.0","id":"a","method":"tools/list"})",
        R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"estimate_job_cost","arguments":{"gpu":"h100-sxm","hours":2}}})",
        R"({"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"get_prices","arguments":{"gpu":"nope"}}})"};
    for (auto const& message : messages)
        for (std::string const extra : {"", "Accept-Encoding: gzip\r\n", "Origin: http://localhost\r\n"}) {
            INFO(message, " with ", extra);
            wire w;
            auto const post = mcp_post(message, extra);
            auto const first = answer_bytes(w.send(post), {false});
            REQUIRE(first[0].starts_with("200"));
            CHECK(w.stored() == 0);  // asked once: not copied
            w.send(post);
            CHECK(w.stored() == 1);
            auto const all = answer_bytes(w.send(post + post), std::vector<bool>(4, false));
            for (auto const& answer : all)
                CHECK(answer == first[0]);
            auto const tool = message.find("\"get_prices\"") != std::string::npos          ? "get_prices"
                              : message.find("\"estimate_job_cost\"") != std::string::npos ? "estimate_job_cost"
                                                                                           : "";
            if (*tool) {
                auto const outcome = message.find("nope") != std::string::npos ? "tool_error" : "ok";
                CHECK(w.metrics().find("lowcostgpu_mcp_calls_total{tool=\"" + std::string(tool) + "\",outcome=\"" +
                                       outcome + "\"} 4\n") != std::string::npos);
            }
        }
}

TEST_CASE("a stored MCP reply is never given to another id, Host, Origin, version, media type, encoding or a close")
{
    auto const post = mcp_post(prices_call);
    std::string const other_id = R"({"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"get_prices","arguments":{}}})";
    // The SDKs' headers with one of them changed, so that the key differs by that one alone.
    auto const changed = [](std::string_view from, std::string_view to) {
        std::string headers = "Host: 127.0.0.1\r\nContent-Type: application/json\r\n"
                              "Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2025-06-18\r\n";
        auto const at = headers.find(from);
        REQUIRE(at != std::string::npos);
        return headers.replace(at, from.size(), to);
    };
    struct question {
        std::string request;
        int status;
    };
    std::vector<question> const questions = {
        {mcp_post(other_id), 200},
        {mcp_post(prices_call, "", changed("Host: 127.0.0.1", "Host: evil.example")), 403},
        {mcp_post(prices_call, "Origin: http://evil.example\r\n"), 403},
        {mcp_post(prices_call, "Origin:\r\n"), 403},
        {mcp_post(prices_call, "", changed("2025-06-18", "1999-01-01")), 400},
        {mcp_post(prices_call, "", changed("Content-Type: application/json", "Content-Type: text/plain")), 415},
        {mcp_post(prices_call, "", changed("Accept: application/json, text/event-stream", "Accept: text/html")), 400},
        {mcp_post(prices_call, "Accept-Encoding: gzip\r\n"), 200},
        {mcp_post(prices_call, "Connection: close\r\n"), 200},
    };
    for (auto const& q : questions) {
        INFO(q.request);
        wire w;
        w.send(post + post);
        REQUIRE(w.stored() == 1);
        // Twice, but once to close: a reply stored for the first would be the second's.
        bool const closes = q.request.find("close") != std::string::npos;
        auto const all = answer_bytes(w.send(post + q.request + (closes ? "" : q.request)),
                                      std::vector<bool>(closes ? 4 : 5, false));
        CHECK(all[2].starts_with("200"));  // the stored reply
        CHECK(all.back().starts_with(std::to_string(q.status)));
        CHECK(all.back() != all[2]);
        CHECK(all[3] == all.back());
        // And each the same as from a connection that stored nothing.
        wire fresh, fresh_post;
        CHECK(answer_bytes(fresh.send(q.request), {false})[0] == all[3]);
        CHECK(answer_bytes(fresh_post.send(post), {false})[0] == all[2]);
    }
}

TEST_CASE("a batch's reply is never stored: what it holds depends on the CPU time its messages took")
{
    wire w;
    auto const batch = mcp_post("[" + prices_call + "]", "",
                                "Host: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json\r\n"
                                "MCP-Protocol-Version: 2025-03-26\r\n");
    auto const answers = answer_bytes(w.send(batch + batch + batch), std::vector<bool>(3, false));
    CHECK(answers[0].starts_with("200"));
    CHECK(answers[0].find("\"id\":7") != std::string::npos);
    CHECK(w.stored() == 0);
}

TEST_CASE("in the 2026-07-28 era a stored MCP reply is never given to another Mcp-Method or Mcp-Name, nor to none")
{
    std::string const call =
        R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_prices","arguments":{},"_meta":{)"
        R"("io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":)"
        R"({"name":"test","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}}})";
    std::string const headers = "Host: 127.0.0.1\r\nContent-Type: application/json\r\n"
                                "Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\n";
    auto const post = mcp_post(call, "", headers + "Mcp-Method: tools/call\r\nMcp-Name: get_prices\r\n");
    for (std::string const& other : {headers + "Mcp-Method: tools/list\r\nMcp-Name: get_prices\r\n",
                                      headers + "Mcp-Method: tools/call\r\nMcp-Name: get_gpu\r\n",
                                      headers + "Mcp-Method: tools/call\r\n"}) {
        INFO(other);
        wire w;
        auto const stored = answer_bytes(w.send(post + post + post), std::vector<bool>(3, false));
        REQUIRE(stored[2].starts_with("200"));
        REQUIRE(w.stored() == 1);
        auto const asked = mcp_post(call, "", other);
        auto const all = answer_bytes(w.send(asked + asked), std::vector<bool>(5, false));
        CHECK(all[3].starts_with("400"));
        CHECK(all[3].find("header mismatch") != std::string::npos);
        CHECK(all[4] == all[3]);
    }
}

TEST_CASE("a stored answer is charged to the client's rate limit as any other: past the burst it is a 429")
{
    for (std::string const& ask : {get_prices, request_of("GET", "/v1/estimate?gpu=h100-sxm&hours=2"),
                                   mcp_post(prices_call)}) {
        INFO(ask);
        http::server_options options;
        options.rate_limit = ops::rate_limit_options{.per_second = 0.001, .burst = 3, .limit_loopback = true};
        wire w(options);
        auto const answers = responses(w.send(ask + ask + ask + ask), std::vector<bool>(4, false));
        CHECK(w.stored() == 1);  // asked a second time, then replayed
        CHECK(answers[1].body() == answers[0].body());
        CHECK(answers[2].body() == answers[0].body());
        CHECK(answers[2].result() == status::ok);
        CHECK(answers[3].result() == status::too_many_requests);
        // Each face refuses in its own words: problem+json, or a JSON-RPC error for a message.
        bool const message = ask.starts_with("POST");
        CHECK(answers[3][http::beast_http::field::content_type] ==
              (message ? "application/json" : "application/problem+json"));
        CHECK(answers[3].body().find(message ? "\"error\"" : "\"status\":429") != std::string::npos);
    }
}

TEST_CASE("up to two empty lines before a request line are ignored, a third is a bad request")
{
    {
        wire w;
        // A body the client ended with a CRLF its Content-Length did not count, then the next request.
        auto const answers = responses(w.send(mcp_post(R"({"jsonrpc":"2.0","id":1,"method":"ping"})") + "\r\n" +
                                              get_prices + "\r\n\r\n" + get_prices),
                                       {false, false, false});
        for (auto const& a : answers)
            CHECK(a.result() == status::ok);
        CHECK(w.open());
    }
    wire w;
    auto const answers = responses(w.send("\r\n\r\n\r\n" + get_prices), {false});
    CHECK(answers[0].result() == status::bad_request);
}

TEST_CASE("past the rate limit, a document under /mcp/ is refused as a document is, in problem+json")
{
    http::server_options options;
    options.rate_limit = ops::rate_limit_options{.per_second = 0.001, .burst = 1, .limit_loopback = true};
    wire w(options);
    std::string const card = "GET /mcp/server-card HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
    auto const answers = responses(w.send(card + card), std::vector<bool>(2, false));
    CHECK(answers[0].result() == status::ok);
    CHECK(answers[1].result() == status::too_many_requests);
    CHECK(answers[1][http::beast_http::field::content_type] == "application/problem+json");
}

TEST_CASE("every answer names the second it is written in, and a stored one is replayed within that second only")
{
    auto const date_of = [](auto const& res) { return std::string(res[http::beast_http::field::date]); };
    for (std::string const& ask : {get_prices, mcp_post(prices_call)}) {
        INFO(ask);
        wire w;
        auto const named = http::http_date(pricing::instant(std::chrono::seconds(test_second.load())));
        auto const first = responses(w.send(ask + ask + ask), std::vector<bool>(3, false));
        REQUIRE(w.stored() == 1);
        for (auto const& res : first)
            CHECK(date_of(res) == named);
        ++test_second;
        auto const later = http::http_date(pricing::instant(std::chrono::seconds(test_second.load())));
        auto const all = w.send(ask);
        auto const next = responses(all, std::vector<bool>(4, false)).back();
        CHECK(date_of(next) == later);  // not the stored head's
        auto const bytes = answer_bytes(all, std::vector<bool>(4, false));
        CHECK(bytes[3] == bytes[0]);  // the same but for the Date
        CHECK(w.stored() == 1);  // stored again at once, a message's reply too
        auto const replayed = responses(w.send(ask), std::vector<bool>(5, false)).back();
        CHECK(date_of(replayed) == later);
        // A refusal names it too (RFC 9110 §6.6.1: every 2xx, 3xx and 4xx answer).
        CHECK(date_of(responses(w.send("GET /nope HTTP/1.1\r\nHost: x\r\n\r\n"), std::vector<bool>(6, false)).back()) ==
              later);
    }
}

TEST_CASE("a body whose source fails ends in a reset where the end of the connection frames it (HTTP/1.0), else in a close")
{
    // What a client on a real socket reads when the week's source fails mid-body, and how it ends.
    auto const failed = [](std::string_view request) {
        auto const inputs = archive_failing_after_two_chunks();
        http::server_options o;
        o.archive = inputs.get();
        loopback_wire w(testing::fixture_snapshot(), o);
        w.send(request);
        return w.read_to_end();
    };
    // Named, not bound: clang 14 lets no lambda (doctest's INFO) refer to a structured binding.
    auto const old = failed("GET /v1/sheets/2026-W48/observations HTTP/1.0\r\n\r\n");
    INFO(old.first.substr(0, 300), " / ", old.second.message());
    REQUIRE(old.first.starts_with("HTTP/1.0 200 OK\r\n"));
    CHECK(old.first.find("Content-Length") == std::string::npos);  // framed by the end of the connection
    CHECK(old.second == http::asio::error::connection_reset);
    auto const json = testing::fixture_request("/v1/sheets/2026-W48/observations").body().str();
    CHECK(old.first.substr(old.first.find("\r\n\r\n") + 4).size() < json.size());

    // Framed by its Content-Length, the cut shows without a reset, which would drop what the kernel
    // still holds for the client.
    auto const csv = failed("GET /v1/sheets/2026-W48/observations.csv HTTP/1.1\r\nHost: x\r\n\r\n");
    REQUIRE(csv.first.starts_with("HTTP/1.1 200 OK\r\n"));
    CHECK(csv.first.find("Content-Length: ") != std::string::npos);
    CHECK(csv.second == http::asio::error::eof);
}
