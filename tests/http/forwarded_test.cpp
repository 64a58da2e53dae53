#include "server/http/forwarded.hpp"
#include "server/http/headers.hpp"
#include "server/ops/client_address.hpp"
#include "server/ops/rate_limiter.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using lcg::http::forwarded_client;

namespace {

std::vector<std::string> const proxies{"127.0.0.1", "10.0.0.5"};

std::string client(std::string const& peer, std::vector<std::string_view> const& fields)
{
    std::vector<std::string_view> hops;
    for (auto field : fields)
        for (auto hop : lcg::http::list_items(field))
            hops.push_back(hop);
    return forwarded_client(peer, hops, proxies);
}

}

TEST_CASE("X-Forwarded-For is read from the right, skipping trusted proxies (real_ip_recursive)")
{
    // A peer that is not a trusted proxy is the client, whatever it claims.
    CHECK(client("203.0.113.9", {"127.0.0.1"}) == "203.0.113.9");
    // A proxy that appends: the client's own value is to the left of the hop the proxy added.
    CHECK(client("127.0.0.1", {"127.0.0.1, 203.0.113.7"}) == "203.0.113.7");
    CHECK(client("127.0.0.1", {"1.2.3.4, 5.6.7.8, 203.0.113.7"}) == "203.0.113.7");
    // Two trusted proxies in a row: both skipped.
    CHECK(client("127.0.0.1", {"198.51.100.1, 203.0.113.7, 10.0.0.5"}) == "203.0.113.7");
    // Every field of the header, in order, is one chain.
    CHECK(client("127.0.0.1", {"198.51.100.1", "203.0.113.7 , 10.0.0.5"}) == "203.0.113.7");
    // No header, or an empty one: the proxy itself.
    CHECK(client("127.0.0.1", {}) == "127.0.0.1");
    CHECK(client("127.0.0.1", {""}) == "127.0.0.1");
    // A hop that is not an address stops the walk at the last trusted one.
    CHECK(client("127.0.0.1", {"203.0.113.7, 127.evil"}) == "127.0.0.1");
    CHECK(client("127.0.0.1", {"unknown, 10.0.0.5"}) == "10.0.0.5");
    // Addresses in canonical form, so one client is one bucket.
    CHECK(client("127.0.0.1", {"2001:DB8::0001"}) == "2001:db8::1");
    // All trusted: the leftmost.
    CHECK(client("127.0.0.1", {"10.0.0.5, 127.0.0.1"}) == "10.0.0.5");
}

TEST_CASE("loopback is an address, never a prefix")
{
    using lcg::ops::is_loopback;
    CHECK(is_loopback("127.0.0.1"));
    CHECK(is_loopback("127.255.0.9"));
    CHECK(is_loopback("::1"));
    CHECK(is_loopback("::ffff:127.0.0.1"));
    CHECK_FALSE(is_loopback("127.evil"));
    CHECK_FALSE(is_loopback("127."));
    CHECK_FALSE(is_loopback("::ffff:10.0.0.1"));
    CHECK_FALSE(is_loopback("203.0.113.7"));
}

TEST_CASE("a rate limit takes several requests at once, all or none (an MCP batch pays per message)")
{
    using lcg::ops::rate_limiter;
    rate_limiter limiter({.per_second = 20.0, .burst = 40.0});
    auto const now = rate_limiter::clock::now();
    auto const batch = limiter.take("203.0.113.7", 32, now);
    CHECK(batch.allowed);
    CHECK(batch.remaining == 8);
    auto const refused = limiter.take("203.0.113.7", 32, now);
    CHECK_FALSE(refused.allowed);
    CHECK(refused.remaining == 8);               // a refusal takes nothing
    CHECK(refused.retry_after_seconds == 2);     // 24 tokens at 20 per second
    CHECK(limiter.take("203.0.113.7", now).allowed);  // a lone request still fits
    // More than the burst never fits; the retry is when the bucket is full again.
    auto const huge = limiter.take("198.51.100.9", 41, now);
    CHECK_FALSE(huge.allowed);
    CHECK(huge.retry_after_seconds == 1);
}

TEST_CASE("an IPv6 client is held to its share per /64, an IPv4 one per address")
{
    using lcg::ops::client_key;
    CHECK(client_key("203.0.113.7") == "203.0.113.7");
    CHECK(client_key("::ffff:203.0.113.7") == "203.0.113.7");
    CHECK(client_key("2001:db8:1:2:aaaa:bbbb:cccc:dddd") == "2001:db8:1:2::/64");
    CHECK(client_key("2001:db8:1:2::1") == client_key("2001:db8:1:2:ffff::9"));
    CHECK(client_key("2001:db8:1:3::1") != client_key("2001:db8:1:2::1"));
    CHECK(client_key("::1") == "::/64");
    CHECK(client_key("not an address") == "not an address");

    // Every address of one /64 draws on one bucket: rotating the low bits buys nothing.
    lcg::ops::rate_limiter limiter({.per_second = 1.0, .burst = 2.0});
    auto const now = lcg::ops::rate_limiter::clock::now();
    CHECK(limiter.take("2001:db8:1:2::1", now).allowed);
    CHECK(limiter.take("2001:db8:1:2::2", now).allowed);
    CHECK_FALSE(limiter.take("2001:db8:1:2:abcd::3", now).allowed);
    CHECK(limiter.take("2001:db8:1:3::1", now).allowed);  // the next /64 is another client
    CHECK(limiter.clients() == 2);
}

TEST_CASE("a proxy is known by its address in any spelling: IPv4-mapped on a dual-stack listener, IPv6 in capitals")
{
    CHECK(lcg::ops::canonical_address("::ffff:10.0.0.5") == "10.0.0.5");
    CHECK(lcg::ops::canonical_address("FD00::5") == "fd00::5");
    CHECK(lcg::ops::canonical_address("10.0.0.0/8") == std::nullopt);
    CHECK(lcg::http::is_trusted_proxy("::ffff:10.0.0.5", proxies));
    CHECK_FALSE(lcg::http::is_trusted_proxy("::ffff:10.0.0.6", proxies));
    CHECK_FALSE(lcg::http::is_trusted_proxy("unknown", proxies));
    CHECK_FALSE(lcg::http::is_trusted_proxy("10.0.0.5", {}));
    CHECK(client("::ffff:10.0.0.5", {"203.0.113.7"}) == "203.0.113.7");
}
