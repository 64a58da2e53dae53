#include "pricing/calendar.hpp"

#include <doctest/doctest.h>

#include <chrono>
#include <cstdint>
#include <random>
#include <string>
#include <string_view>

using lcg::pricing::errc;
using lcg::pricing::instant;
using lcg::pricing::iso_week;
using lcg::pricing::monday_of;
using lcg::pricing::next_week;
using lcg::pricing::observation_window;
using lcg::pricing::parse_utc_timestamp;
using lcg::pricing::parse_week;
using lcg::pricing::previous_week;
using lcg::pricing::time_window;
using lcg::pricing::to_rfc3339;
using lcg::pricing::week_containing;

using namespace std::chrono;
using namespace std::chrono_literals;

namespace {

instant at(std::chrono::year_month_day date, seconds time_of_day = 0s) { return sys_days{date} + time_of_day; }

// ISO 8601 weeks restated independently of calendar.cpp: a year is long (53 weeks) when it starts on
// a Thursday, or on a Wednesday in a leap year, i.e. when p(y) == 4 or p(y - 1) == 3.
int p(int y) { return (y + y / 4 - y / 100 + y / 400) % 7; }
int reference_weeks_in(int y) { return p(y) == 4 || p(y - 1) == 3 ? 53 : 52; }

iso_week reference_week(sys_days d)
{
    year_month_day const ymd{d};
    int const y = static_cast<int>(ymd.year());
    int const ordinal = static_cast<int>((d - sys_days{ymd.year() / January / 1}).count()) + 1;
    int const iso_weekday = static_cast<int>(weekday{d}.iso_encoding());  // Monday 1 … Sunday 7
    int const w = (ordinal - iso_weekday + 10) / 7;
    if (w < 1)
        return {y - 1, reference_weeks_in(y - 1)};
    if (w > reference_weeks_in(y))
        return {y + 1, 1};
    return {y, w};
}

}

TEST_CASE("parse_week accepts YYYY-Www for weeks that exist")
{
    struct good {
        std::string_view text;
        iso_week week;
    };
    good const cases[] = {
        {"2026-W49", {2026, 49}},
        {"2026-W01", {2026, 1}},
        {"2026-W52", {2026, 52}},
        {"2026-W53", {2026, 53}},  // 2026 starts on a Thursday: 53 weeks (date -d 2026-12-31 +%G-W%V)
        {"2020-W53", {2020, 53}},
        {"2015-W53", {2015, 53}},
        {"2032-W53", {2032, 53}},
        {"2025-W52", {2025, 52}},
        {"1970-W01", {1970, 1}},
        {"9999-W01", {9999, 1}},
    };
    for (auto const& c : cases) {
        CAPTURE(c.text);
        auto const parsed = parse_week(c.text);
        REQUIRE(parsed.has_value());
        CHECK(*parsed == c.week);
    }
}

TEST_CASE("parse_week refuses malformed names and weeks that do not exist")
{
    std::string_view const bad[] = {
        "2026-W00",
        "2026-W54",
        "2025-W53",  // 2025 has 52 weeks
        "2027-W53",
        "2021-W53",
        "2026W49",
        "2026-w49",
        "2026-W4",
        "2026-W049",
        "2026-49",
        "26-W49",
        "",
        " 2026-W49",
        "2026-W49 ",
        "2026-Wab",
        "2026-W+9",
        "+026-W49",
        "-026-W49",
        "2026_W49",
        "2026-W49\n",
        "2026-12",
    };
    for (auto text : bad) {
        CAPTURE(text);
        auto const parsed = parse_week(text);
        REQUIRE_FALSE(parsed.has_value());
        CHECK(parsed.err().code == errc::invalid_argument);
        CHECK(parsed.err().message.find("'" + std::string(text) + "'") != std::string::npos);
    }
}

TEST_CASE("to_string of a week and the round trip")
{
    CHECK(to_string(iso_week{2026, 49}) == "2026-W49");
    CHECK(to_string(iso_week{2026, 1}) == "2026-W01");
    CHECK(to_string(iso_week{2020, 53}) == "2020-W53");
    for (int year = 1970; year <= 2100; ++year)
        for (int week = 1; week <= reference_weeks_in(year); ++week) {
            iso_week const w{year, week};
            auto const back = parse_week(to_string(w));
            CAPTURE(to_string(w));
            REQUIRE(back.has_value());
            CHECK(*back == w);
        }
}

TEST_CASE("week_containing around year boundaries (values from date +%G-W%V)")
{
    struct known {
        year_month_day date;
        iso_week week;
    };
    known const cases[] = {
        {2024y / December / 29, {2024, 52}},
        {2024y / December / 30, {2025, 1}},
        {2025y / December / 28, {2025, 52}},
        {2025y / December / 29, {2026, 1}},
        {2026y / January / 1, {2026, 1}},
        {2026y / November / 23, {2026, 48}},
        {2026y / November / 29, {2026, 48}},
        {2026y / November / 30, {2026, 49}},
        {2026y / December / 28, {2026, 53}},
        {2026y / December / 31, {2026, 53}},
        {2027y / January / 1, {2026, 53}},
        {2027y / January / 3, {2026, 53}},
        {2027y / January / 4, {2027, 1}},
        {2020y / December / 31, {2020, 53}},
        {2021y / January / 3, {2020, 53}},
        {2021y / January / 4, {2021, 1}},
        {1970y / January / 1, {1970, 1}},
    };
    for (auto const& c : cases) {
        CAPTURE(to_string(c.week));
        CHECK(week_containing(at(c.date)) == c.week);
        CHECK(week_containing(at(c.date, 23h + 59min + 59s)) == c.week);
    }
}

TEST_CASE("monday_of is the re-check instant, Monday 00:00 UTC")
{
    CHECK(monday_of({2026, 49}) == at(2026y / November / 30));
    CHECK(monday_of({2026, 1}) == at(2025y / December / 29));
    CHECK(monday_of({2025, 1}) == at(2024y / December / 30));
    CHECK(monday_of({2026, 53}) == at(2026y / December / 28));
    CHECK(monday_of({2027, 1}) == at(2027y / January / 4));
    CHECK(monday_of({2020, 53}) == at(2020y / December / 28));
}

TEST_CASE("next_week and previous_week cross year boundaries")
{
    CHECK(next_week({2026, 49}) == iso_week{2026, 50});
    CHECK(next_week({2026, 52}) == iso_week{2026, 53});
    CHECK(next_week({2026, 53}) == iso_week{2027, 1});
    CHECK(next_week({2025, 52}) == iso_week{2026, 1});
    CHECK(previous_week({2027, 1}) == iso_week{2026, 53});
    CHECK(previous_week({2026, 1}) == iso_week{2025, 52});
    CHECK(previous_week({2026, 50}) == iso_week{2026, 49});
}

TEST_CASE("every day from 1970 to 2100 against an independent ISO 8601 reference")
{
    std::mt19937_64 rng(49);
    std::uniform_int_distribution<long> second_of_day(0, 86'399);
    long mismatches = 0;
    std::string first_mismatch;
    for (sys_days d = sys_days{1970y / January / 1}; d <= sys_days{2100y / December / 31}; d += days{1}) {
        instant const t = instant{d} + seconds{second_of_day(rng)};
        iso_week const expected = reference_week(d);
        iso_week const w = week_containing(t);
        instant const monday = monday_of(w);
        bool const ok = w == expected && weekday{floor<days>(monday)} == Monday &&
                        monday == floor<days>(monday) && monday <= t && t < monday + weeks{1} &&
                        next_week(w) == week_containing(monday + weeks{1}) &&
                        previous_week(w) == week_containing(monday - days{1}) &&
                        observation_window(w).until == monday && parse_week(to_string(w)).has_value();
        if (!ok && mismatches++ == 0)
            first_mismatch = to_rfc3339(t);
    }
    CAPTURE(first_mismatch);
    CHECK(mismatches == 0);
}

TEST_CASE("W53 is accepted exactly in long years")
{
    for (int year = 1970; year <= 2400; ++year) {
        CAPTURE(year);
        CHECK(parse_week(std::to_string(year) + "-W53").has_value() == (reference_weeks_in(year) == 53));
        CHECK(parse_week(std::to_string(year) + "-W52").has_value());
    }
}

TEST_CASE("observation_window is the 7 days before the Monday")
{
    time_window const w = observation_window({2026, 49});
    CHECK(w.from == at(2026y / November / 23));
    CHECK(w.until == at(2026y / November / 30));
    CHECK(to_rfc3339(w.from) == "2026-11-23T00:00:00Z");
    CHECK(to_rfc3339(w.until) == "2026-11-30T00:00:00Z");
    CHECK(w.until - w.from == days{7});
    CHECK(w.contains(w.from));
    CHECK(w.contains(at(2026y / November / 24, 10h + 15min)));
    CHECK(w.contains(w.until - 1s));
    CHECK_FALSE(w.contains(w.until));
    CHECK_FALSE(w.contains(w.from - 1s));

    time_window const first = observation_window({2027, 1});
    CHECK(first.from == at(2026y / December / 28));
    CHECK(first.until == at(2027y / January / 4));
}

TEST_CASE("parse_utc_timestamp accepts RFC 3339 UTC with whole seconds")
{
    struct good {
        std::string_view text;
        instant value;
    };
    good const cases[] = {
        {"2026-11-24T10:15:00Z", at(2026y / November / 24, 10h + 15min)},
        {"2026-11-24t10:15:00z", at(2026y / November / 24, 10h + 15min)},
        {"2026-11-24t10:15:00Z", at(2026y / November / 24, 10h + 15min)},
        {"1970-01-01T00:00:00Z", instant{}},
        {"2024-02-29T23:59:59Z", at(2024y / February / 29, 23h + 59min + 59s)},
        {"2000-02-29T12:00:00Z", at(2000y / February / 29, 12h)},
        {"2026-12-31T23:59:59Z", at(2026y / December / 31, 23h + 59min + 59s)},
        {"2027-01-01T00:00:00Z", at(2027y / January / 1)},
    };
    for (auto const& c : cases) {
        CAPTURE(c.text);
        auto const parsed = parse_utc_timestamp(c.text);
        REQUIRE(parsed.has_value());
        CHECK(*parsed == c.value);
    }
}

TEST_CASE("parse_utc_timestamp refuses fractions, offsets and impossible dates and times")
{
    std::string_view const bad[] = {
        "2026-11-24T10:15:00.5Z",
        "2026-11-24T10:15:00.000Z",
        "2026-11-24T10:15:00+00:00",
        "2026-11-24T10:15:00-05:00",
        "2026-11-24T10:15:00",
        "2026-11-24T10:15Z",
        "2026-11-24 10:15:00Z",
        "2026-11-24",
        "2026-02-30T00:00:00Z",
        "2026-02-29T00:00:00Z",  // 2026 is not a leap year
        "2100-02-29T00:00:00Z",  // nor is 2100
        "2026-04-31T00:00:00Z",
        "2026-13-01T00:00:00Z",
        "2026-00-10T00:00:00Z",
        "2026-11-00T00:00:00Z",
        "2026-11-24T24:00:00Z",
        "2026-11-24T23:60:00Z",
        "2026-11-24T23:59:60Z",  // a leap second has no sys_seconds value
        "2026-1-24T10:15:00Z",
        "+026-11-24T10:15:00Z",
        " 2026-11-24T10:15:00Z",
        "2026-11-24T10:15:00Z ",
        "2026-11-24T1a:15:00Z",
        "2026/11/24T10:15:00Z",
        "20261124T101500Z",
        "",
    };
    for (auto text : bad) {
        CAPTURE(text);
        auto const parsed = parse_utc_timestamp(text);
        REQUIRE_FALSE(parsed.has_value());
        CHECK(parsed.err().code == errc::invalid_argument);
        CHECK(parsed.err().message.find("'" + std::string(text) + "'") != std::string::npos);
    }
    auto const fraction = parse_utc_timestamp("2026-11-24T10:15:00.5Z");
    REQUIRE_FALSE(fraction.has_value());
    CHECK(fraction.err().message.find("fractional") != std::string::npos);
}

TEST_CASE("to_rfc3339 writes the canonical form and round-trips")
{
    CHECK(to_rfc3339(instant{}) == "1970-01-01T00:00:00Z");
    CHECK(to_rfc3339(at(2026y / November / 24, 10h + 15min)) == "2026-11-24T10:15:00Z");
    CHECK(to_rfc3339(at(2024y / February / 29, 23h + 59min + 59s)) == "2024-02-29T23:59:59Z");
    CHECK(to_rfc3339(*parse_utc_timestamp("2026-11-24t10:15:00z")) == "2026-11-24T10:15:00Z");

    for (std::string_view text : {"2026-11-24T10:15:00Z", "1970-01-01T00:00:00Z", "2099-12-31T23:59:59Z"})
        CHECK(to_rfc3339(*parse_utc_timestamp(text)) == text);

    std::mt19937_64 rng(3339);
    std::uniform_int_distribution<std::int64_t> any_second(0, 7'258'118'399);  // 1970 … 2199-12-31T23:59:59Z
    for (int i = 0; i < 5'000; ++i) {
        instant const t{seconds{any_second(rng)}};
        std::string const text = to_rfc3339(t);
        CAPTURE(text);
        auto const back = parse_utc_timestamp(text);
        REQUIRE(back.has_value());
        CHECK(*back == t);
    }
}
