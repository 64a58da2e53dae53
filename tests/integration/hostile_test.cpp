// Hostile input over raw sockets: whatever a scanner sends, the answer is a 4xx with a clear body
// and the server stays up.
#include "harness.hpp"

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>
#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace lcg::testing;
namespace asio = boost::asio;

namespace {

struct raw_reply {
    int status = 0;
    std::string text;
};

// Sends `bytes` as they are and reads until the server closes or `limit` passes.
raw_reply send_raw(unsigned short port, std::string const& bytes)
{
    asio::io_context ioc;
    asio::ip::tcp::socket socket(ioc);
    socket.connect({asio::ip::make_address("127.0.0.1"), port});
    boost::system::error_code ec;
    // The server may answer and stop reading before all is sent: that is not an error here.
    asio::write(socket, asio::buffer(bytes), ec);
    socket.shutdown(asio::ip::tcp::socket::shutdown_send, ec);
    std::string text;
    char buf[8192];
    for (int i = 0; i < 1000; ++i) {
        auto const n = socket.read_some(asio::buffer(buf), ec);
        text.append(buf, n);
        if (ec)
            break;
    }
    raw_reply r;
    r.text = text;
    if (text.starts_with("HTTP/1.1 ") && text.size() >= 12)
        r.status = std::stoi(text.substr(9, 3));
    return r;
}

std::string get(std::string const& target, std::string const& extra_headers = {})
{
    return "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n" + extra_headers + "\r\n";
}

void expect_client_error(unsigned short port, std::string const& name, std::string const& bytes, int status = 0)
{
    CAPTURE(name);
    auto const r = send_raw(port, bytes);
    CAPTURE(r.text.substr(0, 400));
    CHECK(r.status >= 400);
    CHECK(r.status < 500);
    if (status)
        CHECK(r.status == status);
    CHECK(r.text.find("\"detail\"") != std::string::npos);
}

}

TEST_CASE("malformed requests get a 4xx with a problem body, and the server stays up")
{
    test_database db;
    server_process server(db.url("reader"));
    auto const port = server.port();

    expect_client_error(port, "garbage request line", "GARBAGE\r\n\r\n", 400);
    expect_client_error(port, "missing version", "GET /v1/prices\r\n\r\n", 400);
    expect_client_error(port, "bad method", "FROB /v1/prices HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 405);
    expect_client_error(port, "path traversal", get("/v1/../../etc/passwd"), 404);
    expect_client_error(port, "encoded traversal", get("/v1/prices/..%2f..%2fetc%2fpasswd"), 404);
    expect_client_error(port, "bad percent-encoding", get("/v1/estimate?gpu=%zz&hours=1"), 400);
    expect_client_error(port, "truncated percent-encoding", get("/v1/glossary?q=%e"), 400);
    expect_client_error(port, "invalid UTF-8", get("/v1/glossary?q=%ff%fe"), 400);
    expect_client_error(port, "overlong UTF-8", get("/v1/glossary?q=%c0%af"), 400);
    expect_client_error(port, "header block over 8 KiB", get("/v1/prices", "X-Big: " + std::string(9000, 'a') + "\r\n"),
                        431);
    expect_client_error(port, "target over 4 KiB", get("/v1/prices?" + std::string(5000, 'a')), 414);
    expect_client_error(port, "body on a GET",
                        "GET /v1/prices HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 5\r\n\r\nhello",
                        400);
    expect_client_error(port, "Content-Length and Transfer-Encoding",
                        "GET /v1/prices HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n"
                        "Connection: close\r\n\r\n0\r\n\r\n",
                        400);
    expect_client_error(port, "two Content-Lengths",
                        "GET /v1/prices HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n"
                        "Connection: close\r\n\r\nab",
                        400);
    expect_client_error(port, "chunk extension",
                        "GET /v1/prices HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
                        "1;evil=1\r\na\r\n0\r\n\r\n",
                        400);
    expect_client_error(port, "NUL in the target", get(std::string("/v1/prices\0x", 12)));

    CHECK(server.get("/healthz").status == 200);
}

TEST_CASE("huge, negative and malformed numbers in every numeric parameter are 400 naming it")
{
    test_database db;
    server_process server(db.url("reader"));
    std::vector<std::pair<std::string, std::string>> const cases{
        {"/v1/estimate?gpu=h100-sxm&hours=", "hours"},
        {"/v1/estimate?gpu=h100-sxm&seconds=", "seconds"},
        {"/v1/estimate?gpu=h100-sxm&hours=1&gpus=", "gpus"},
        {"/v1/estimate?gpu=h100-sxm&hours=1&storage_gb=", "storage_gb"},
        {"/v1/estimate?gpu=h100-sxm&hours=1&storage_gb=1&storage_hours=", "storage_hours"},
        {"/v1/estimate?gpu=h100-sxm&hours=1&egress_gb=", "egress_gb"},
        {"/v1/estimate?gpu=h100-sxm&hours=1&ingress_gb=", "ingress_gb"},
        {"/v1/estimate?gpu=h100-sxm&hours=1&tokens_per_second=", "tokens_per_second"},
        {"/v1/estimate?gpu=h100-sxm&hours=1&images_per_hour=", "images_per_hour"},
        {"/v1/sizing?precision=fp16&params_b=", "params_b"},
        {"/v1/gpus?min_vram_gb=", "min_vram_gb"},
        {"/v1/instances/check?gpu=h100-sxm&gpus=1&memory_gib=1&cpu_generation=v7&vcpus=", "vcpus"},
        {"/v1/instances/check?gpu=h100-sxm&gpus=1&vcpus=1&cpu_generation=v7&memory_gib=", "memory_gib"},
    };
    for (auto const& c : cases)
        for (std::string const value : {"-1", "99999999999999999999999999", "1e309", "NaN", "0x10", "1.2.3", ""}) {
            std::string const& prefix = c.first;  // not a structured binding: CAPTURE needs it (clang 14)
            std::string const& parameter = c.second;
            CAPTURE(prefix + value);
            auto const r = server.get(prefix + value);
            CHECK(r.status == 400);
            CHECK(r.header("content-type") == "application/problem+json");
            CHECK(r.body.find(parameter) != std::string::npos);
        }
    CHECK(server.get("/healthz").status == 200);
}
