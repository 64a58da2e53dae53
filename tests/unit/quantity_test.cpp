#include "pricing/quantity.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>

using lcg::pricing::ascii_lower;
using lcg::pricing::compare_products;
using lcg::pricing::errc;
using lcg::pricing::mul_div_floor;
using lcg::pricing::mul_div_half_up;
using lcg::pricing::parse_flag;
using lcg::pricing::parse_quantity;
using lcg::pricing::units_to_decimal;

namespace {

bool contains(std::string const& text, std::string const& part) { return text.find(part) != std::string::npos; }

}

TEST_CASE("parse_quantity reads plain decimals into exact scaled units")
{
    struct row {
        char const* text;
        int decimals;
        std::int64_t units;
    };
    row const rows[] = {
        {"0", 6, 0},
        {"10", 6, 10'000'000},
        {"0.2", 6, 200'000},
        {"0.000001", 6, 1},
        {"8760", 6, 8'760'000'000},
        {"8760.000000", 6, 8'760'000'000},
        {"007.5", 6, 7'500'000},
        {"989.4", 6, 989'400'000},
        {"181.05", 6, 181'050'000},
        {"12", 0, 12},
        {"1", 2, 100},
        {"999999999999", 6, 999'999'999'999'000'000},
    };
    for (auto const& r : rows) {
        CAPTURE(r.text);
        auto const q = parse_quantity("x", r.text, r.decimals, 0, 999'999'999'999'999'999);
        REQUIRE(q.has_value());
        CHECK(*q == r.units);
    }
}

TEST_CASE("parse_quantity refuses malformed and out-of-range text, naming the parameter and the range")
{
    struct row {
        char const* text;
        char const* reason;
        char const* french = "n’est pas un nombre décimal simple";
    };
    row const rows[] = {
        {"", "is empty", "est vide"},
        {"-1", "is below the minimum", "est sous le minimum"},
        {"-x", "is not a plain decimal number"},
        {"+1", "is not a plain decimal number"},
        {"1e3", "is not a plain decimal number"},
        {" 1", "is not a plain decimal number"},
        {"1,5", "is not a plain decimal number"},
        {"1.", "is not a plain decimal number"},
        {".5", "is not a plain decimal number"},
        {"1.2.3", "is not a plain decimal number"},
        {"NaN", "is not a plain decimal number"},
        {"inf", "is not a plain decimal number"},
        {"0x10", "is not a plain decimal number"},
        {"0.0000001", "has more than 6 decimals", "a plus de 6 décimales"},
        {"8760.000001", "is above the maximum", "dépasse le maximum"},
        {"99999999999999999999999", "is above the maximum", "dépasse le maximum"},
        {"0", "is below the minimum", "est sous le minimum"},
        {"0.000000", "is below the minimum", "est sous le minimum"},
    };
    for (auto const& r : rows) {
        CAPTURE(r.text);
        auto const q = parse_quantity("hours", r.text, 6, 1, 8'760'000'000);
        REQUIRE_FALSE(q.has_value());
        CHECK(q.err().code == errc::invalid_argument);
        std::string const& m = q.err().message;
        CAPTURE(m);
        CHECK(m.starts_with("hours: '"));
        CHECK(contains(m, r.reason));
        CHECK(contains(m, "accepted: a decimal from 0.000001 to 8760 with at most 6 decimals"));
        // The same in French, with its decimal commas and its narrow no-break spaces.
        std::string const& fr = q.err().message_fr;
        CAPTURE(fr);
        CHECK(fr.starts_with("hours\u202F: '"));
        CHECK(contains(fr, r.french));
        CHECK(contains(fr, "\u202F; accepté\u202F: un nombre décimal de 0,000001 à 8760 avec au plus 6 décimales"));
    }
}

TEST_CASE("to_units converts without bounds of its own, naming the form accepted")
{
    CHECK(*lcg::pricing::to_units("gpus", "8", 0) == 8);
    CHECK(*lcg::pricing::to_units("gpus", "01", 0) == 1);
    CHECK(*lcg::pricing::to_units("gpus", "0", 0) == 0);  // a bound is the declaration's (api/decoder.hpp)
    CHECK(*lcg::pricing::to_units("hours", "8760.5", 6) == 8'760'500'000);
    for (char const* bad : {"1.0", "1.5", "two", "", "-1", "9999999999999999999"}) {
        CAPTURE(bad);
        auto const n = lcg::pricing::to_units("gpus", bad, 0);
        REQUIRE_FALSE(n.has_value());
        CHECK(n.err().message.starts_with("gpus: "));
        CHECK(contains(n.err().message, "accepted: an integer"));
    }
    auto const fine = lcg::pricing::units_parameter("hours", "1.0000001", 6);
    REQUIRE_FALSE(fine.has_value());
    CHECK(fine.err().parameter == "hours");
    CHECK(fine.err().cause.message == "hours: '1.0000001' has more than 6 decimals; accepted: a decimal with at most 6 decimals");
}

TEST_CASE("parse_flag and ascii_lower")
{
    CHECK(*parse_flag("mig", "true"));
    CHECK(*parse_flag("mig", "TRUE"));
    CHECK_FALSE(*parse_flag("mig", "False"));
    for (char const* bad : {"1", "yes", "", "truee"}) {
        auto const b = parse_flag("mig", bad);
        REQUIRE_FALSE(b.has_value());
        CHECK(contains(b.err().message, "mig: "));
        CHECK(contains(b.err().message, "accepted: true, false"));
    }
    CHECK(ascii_lower("H100-SXM") == "h100-sxm");
    CHECK(ascii_lower("Ada Lovelace") == "ada lovelace");
}

TEST_CASE("mul_div is exact beyond 64-bit products")
{
    CHECK(mul_div_floor(7, 3, 2) == 10);
    CHECK(mul_div_half_up(7, 3, 2) == 11);   // 10.5 → 11
    CHECK(mul_div_half_up(7, 1, 4) == 2);    // 1.75 → 2
    CHECK(mul_div_half_up(5, 1, 4) == 1);    // 1.25 → 1
    CHECK(mul_div_half_up(0, 123, 7) == 0);
    CHECK(mul_div_half_up(1'680'000, 720'000'000, 3'600'000'000) == 336'000);
    // 2^62 × 6 / 3 = 2^63 does not fit int64.
    CHECK_THROWS_AS(mul_div_floor(std::int64_t{1} << 62, 6, 3), std::overflow_error);
    // A product of ~10^30 divided back into range.
    CHECK(mul_div_floor(1'000'000'000'000'000, 1'000'000'000'000'000, 1'000'000'000'000'000'000) ==
          1'000'000'000'000);
    CHECK(mul_div_floor(INT64_MAX, INT64_MAX, INT64_MAX) == INT64_MAX);
    CHECK(mul_div_half_up(INT64_MAX, 2, 4) == INT64_MAX / 2 + 1);  // (2^63 - 1) / 2 ends in .5: up
    CHECK_THROWS_AS(mul_div_floor(1, 1, 0), std::invalid_argument);
    CHECK_THROWS_AS(mul_div_floor(-1, 1, 1), std::invalid_argument);

    SUBCASE("agrees with 64-bit arithmetic where that is exact (fixed seed)")
    {
        std::mt19937_64 gen(20261130);
        std::uniform_int_distribution<std::int64_t> small(0, 3'000'000'000);
        std::uniform_int_distribution<std::int64_t> divisor(1, 5'000'000'000);
        for (int i = 0; i < 20'000; ++i) {
            std::int64_t const a = small(gen), b = small(gen), c = divisor(gen);
            CAPTURE(a);
            CAPTURE(b);
            CAPTURE(c);
            std::int64_t const p = a * b;  // < 9 × 10^18
            REQUIRE(mul_div_floor(a, b, c) == p / c);
            REQUIRE(mul_div_half_up(a, b, c) == p / c + (p % c * 2 >= c ? 1 : 0));
            REQUIRE(compare_products(a, b, b, a) == 0);
        }
    }
}

TEST_CASE("compare_products compares 128-bit products exactly")
{
    CHECK(compare_products(2, 3, 3, 2) == 0);
    CHECK(compare_products(2, 3, 7, 1) == -1);
    CHECK(compare_products(7, 1, 2, 3) == 1);
    // (10^18 + 1) × 10^18 vs 10^18 × (10^18 + 1) and a one-unit difference far above 2^64.
    std::int64_t const e18 = 1'000'000'000'000'000'000;
    CHECK(compare_products(e18 + 1, e18, e18, e18 + 1) == 0);
    CHECK(compare_products(e18 + 1, e18, e18, e18) == 1);
    CHECK(compare_products(e18, e18, e18 + 1, e18) == -1);
}

TEST_CASE("units_to_decimal is exact or rounded half-up and says which")
{
    auto const a = units_to_decimal(1, 720'000'000, 3'600'000'000 / 1'000'000, 6);  // 720 s in hours
    CHECK(a.text == "0.2");
    CHECK(a.exact);
    auto const b = units_to_decimal(1'000'000'000, 1, 3'600, 6);  // 1000 s in hours: 0.2777…
    CHECK(b.text == "0.277778");
    CHECK_FALSE(b.exact);
    auto const c = units_to_decimal(50'000'000, 1, 1, 6);  // 50 GB
    CHECK(c.text == "50");
    CHECK(c.exact);
    CHECK(units_to_decimal(5, 1, 10, 0).text == "1");  // 0.5 → 1
    CHECK(units_to_decimal(1'500'000, 1, 1, 6, 3).text == "1.500");
}
