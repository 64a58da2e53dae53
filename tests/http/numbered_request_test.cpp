#include "tests/bench/numbered_request.hpp"

#include <doctest/doctest.h>

#include <set>
#include <string>

using lcg::bench::numbered_request;

TEST_CASE("a numbered request carries its count where the mark was, every request another, all of one length")
{
    std::string const body = R"({"jsonrpc":"2.0","id":"#ID#####","method":"ping"})";
    numbered_request r("POST /mcp HTTP/1.1\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body);
    REQUIRE(r.numbered());
    std::set<std::string> seen;
    for (int n = 0; n < 1'000; ++n) {
        auto const bytes = r.next();
        CHECK(bytes.size() == r.size());
        CHECK(bytes.find("#ID") == std::string::npos);
        seen.emplace(bytes);
    }
    CHECK(seen.size() == 1'000);
    CHECK(seen.begin()->ends_with(R"("id":"00000000","method":"ping"})"));
    CHECK(seen.rbegin()->ends_with(R"("id":"00000999","method":"ping"})"));
}

TEST_CASE("a request without the mark is sent as it is, every time")
{
    std::string const get = "GET /v1/prices HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
    numbered_request r(get);
    CHECK_FALSE(r.numbered());
    CHECK(r.next() == get);
    CHECK(r.next() == get);
}
