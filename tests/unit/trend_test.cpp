#include "pricing/trend.hpp"

#include "pricing/rules.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

using namespace lcg::pricing;

namespace {

money mills(std::int64_t m) { return money::from_mills(m); }
money micros(std::int64_t m) { return money::from_micros(m); }

}

TEST_CASE("week_on_week_percent: one decimal, exact, signed")
{
    CHECK(week_on_week_percent(mills(2'000), mills(2'042)) == std::optional<std::string>("+2.1"));
    CHECK(week_on_week_percent(mills(2'500), mills(2'490)) == std::optional<std::string>("-0.4"));
    CHECK(week_on_week_percent(mills(1'000), mills(2'000)) == std::optional<std::string>("+100.0"));
    CHECK(week_on_week_percent(mills(2'000), mills(1)) == std::optional<std::string>("-100.0"));  // −99.95 rounds away from zero
    CHECK(week_on_week_percent(mills(3'000), mills(6'000)) == std::optional<std::string>("+100.0"));
    CHECK(week_on_week_percent(mills(1), mills(1'000)) == std::optional<std::string>("+99900.0"));
}

TEST_CASE("week_on_week_percent: a rate that did not move is 0, a tiny move keeps its sign")
{
    CHECK(week_on_week_percent(mills(2'380), mills(2'380)) == std::optional<std::string>("0"));
    CHECK(week_on_week_percent(mills(10'000), mills(10'001)) == std::optional<std::string>("+0.0"));  // +0.01 %
    CHECK(week_on_week_percent(mills(10'000), mills(9'999)) == std::optional<std::string>("-0.0"));
}

TEST_CASE("week_on_week_percent: halves round away from zero")
{
    // 1.05 % and −1.05 % exactly: 21 on 2000.
    CHECK(week_on_week_percent(mills(2'000), mills(2'021)) == std::optional<std::string>("+1.1"));
    CHECK(week_on_week_percent(mills(2'000), mills(1'979)) == std::optional<std::string>("-1.1"));
    // Just under a half: 1.0499… %.
    CHECK(week_on_week_percent(micros(2'000'001), micros(2'021'001)) == std::optional<std::string>("+1.0"));
    CHECK(week_on_week_percent(micros(2'000'001), micros(1'979'001)) == std::optional<std::string>("-1.0"));
}

TEST_CASE("week_on_week_percent: no percentage of a zero or negative previous rate")
{
    CHECK_FALSE(week_on_week_percent(mills(0), mills(2'000)).has_value());
    CHECK_FALSE(week_on_week_percent(mills(-1), mills(2'000)).has_value());
    CHECK_FALSE(week_on_week_percent(mills(0), mills(0)).has_value());
}

TEST_CASE("week_on_week_percent: no overflow at the ends of int64")
{
    auto const top = std::numeric_limits<std::int64_t>::max();
    CHECK(week_on_week_percent(micros(top), micros(top)) == std::optional<std::string>("0"));
    CHECK(week_on_week_percent(micros(1), micros(top)).has_value());
    CHECK(week_on_week_percent(micros(top), micros(0)) == std::optional<std::string>("-100.0"));
}

TEST_CASE("week_on_week_percent agrees with a rational reference on random rates (fixed seed)")
{
    std::mt19937_64 rng(20261204);
    std::uniform_int_distribution<std::int64_t> rate(1, 100'000'000);  // up to $100
    for (int i = 0; i < 10'000; ++i) {
        std::int64_t const before = rate(rng), after = rate(rng);
        auto const shown = week_on_week_percent(micros(before), micros(after));
        REQUIRE(shown.has_value());
        std::int64_t const diff = after - before;
        if (diff == 0) {
            CHECK(*shown == "0");
            continue;
        }
        // The shown tenths t satisfy |t − 1000·diff/before| ≤ 1/2, i.e. |2·t·before − 2000·diff| ≤ before.
        std::string digits;
        for (char c : shown->substr(1))
            if (c != '.')
                digits += c;
        std::int64_t const tenths = std::stoll(digits) * (diff < 0 ? -1 : 1);
        std::int64_t const gap = 2 * tenths * before - 2'000 * diff;
        CHECK((gap < 0 ? -gap : gap) <= before);
        CHECK(shown->front() == (diff < 0 ? '-' : '+'));
    }
}

TEST_CASE("sparkline_span: a moving series spans exactly its lowest to its highest")
{
    std::vector<std::int64_t> const series{238'000'000, 250'000'000, 229'000'000, 241'000'000};
    auto const span = sparkline_span(series);
    CHECK(span.low == 229'000'000);
    CHECK(span.high == 250'000'000);
}

TEST_CASE("sparkline_span: a flat series sits in the middle of the floor")
{
    std::vector<std::int64_t> const flat{200'000'000, 200'000'000, 200'000'000};
    auto const span = sparkline_span(flat);
    auto const floor = 200'000'000 * rules::sparkline_min_span_of_top.numerator / rules::sparkline_min_span_of_top.denominator;
    CHECK(span.high - span.low == floor);
    CHECK(200'000'000 - span.low == span.high - 200'000'000);
}

TEST_CASE("sparkline_span: a single week is flat")
{
    std::vector<std::int64_t> const one{123'000'000};
    auto const span = sparkline_span(one);
    CHECK(span.low < 123'000'000);
    CHECK(span.high > 123'000'000);
    CHECK(123'000'000 - span.low == span.high - 123'000'000);
}

TEST_CASE("sparkline_span: a move smaller than the floor is widened about its middle")
{
    // One mill on $2: 0.05 %, below the 2 % floor.
    std::vector<std::int64_t> const small{200'000'000, 200'100'000};
    auto const span = sparkline_span(small);
    CHECK(span.high - span.low == 200'100'000 * rules::sparkline_min_span_of_top.numerator /
                                      rules::sparkline_min_span_of_top.denominator);
    CHECK(span.low < 200'000'000);
    CHECK(span.high > 200'100'000);
    auto const below = 200'000'000 - span.low, above = span.high - 200'100'000;
    CHECK((below - above <= 1 && above - below <= 1));
}

TEST_CASE("sparkline_span: never below zero, never empty")
{
    CHECK(sparkline_span(std::vector<std::int64_t>{}).low == 0);
    CHECK(sparkline_span(std::vector<std::int64_t>{}).high == 1);
    auto const zeros = sparkline_span(std::vector<std::int64_t>{0, 0});
    CHECK(zeros.low == 0);
    CHECK(zeros.high == 1);
    auto const near_zero = sparkline_span(std::vector<std::int64_t>{0, 1});
    CHECK(near_zero.low == 0);
    CHECK(near_zero.high == 1);
}

TEST_CASE("sparkline_span: every value of a random series lies inside its span (fixed seed)")
{
    std::mt19937_64 rng(7);
    std::uniform_int_distribution<std::int64_t> value(0, 10'000'000'000);
    std::uniform_int_distribution<int> length(1, 60);
    for (int i = 0; i < 2'000; ++i) {
        std::vector<std::int64_t> series(static_cast<std::size_t>(length(rng)));
        for (auto& v : series)
            v = value(rng);
        auto const span = sparkline_span(series);
        CHECK(span.low >= 0);
        CHECK(span.low < span.high);
        for (auto v : series)
            CHECK((span.low <= v && v <= span.high));
    }
}
