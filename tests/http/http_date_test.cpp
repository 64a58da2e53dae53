#include "server/http/http_date.hpp"

#include <doctest/doctest.h>

using namespace lcg::http;
using namespace std::chrono;

TEST_CASE("http_date writes IMF-fixdate and parse_http_date reads all three forms")
{
    auto const t = lcg::pricing::instant(sys_days(1994y / November / 6).time_since_epoch() + hours(8) + minutes(49) +
                                         seconds(37));
    CHECK(http_date(t) == "Sun, 06 Nov 1994 08:49:37 GMT");
    CHECK(parse_http_date("Sun, 06 Nov 1994 08:49:37 GMT") == t);
    CHECK(parse_http_date("Sunday, 06-Nov-94 08:49:37 GMT") == t);
    CHECK(parse_http_date("Sun Nov  6 08:49:37 1994") == t);
    auto const later = lcg::pricing::instant(sys_days(2026y / December / 2).time_since_epoch());
    CHECK(http_date(later) == "Wed, 02 Dec 2026 00:00:00 GMT");
    CHECK(parse_http_date(http_date(later)) == later);
}

TEST_CASE("parse_http_date refuses what is not a date")
{
    for (char const* bad : {"", "yesterday", "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 31 Feb 1994 08:49:37 GMT",
                            "Sun, 06 Nov 1994 25:49:37 GMT", "Sun, 06 Foo 1994 08:49:37 GMT", "2026-12-02T00:00:00Z"}) {
        CAPTURE(bad);
        CHECK_FALSE(parse_http_date(bad));
    }
}

TEST_CASE("the Date field names the current second")
{
    date_field date;
    auto const before = std::chrono::time_point_cast<std::chrono::seconds>(std::chrono::system_clock::now());
    std::string const value(date.now());
    auto const after = std::chrono::time_point_cast<std::chrono::seconds>(std::chrono::system_clock::now());
    auto const named = parse_http_date(value);
    REQUIRE(named);
    // The coarse clock may lag the precise one by a tick (a few milliseconds).
    CHECK(*named >= before - std::chrono::seconds(1));
    CHECK(*named <= after);
    CHECK(date.second() == named->time_since_epoch().count());
    CHECK(value == http_date(*named));
}
