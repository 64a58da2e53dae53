#include "pricing/money.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <string_view>

using lcg::pricing::decimal_string;
using lcg::pricing::errc;
using lcg::pricing::money;
using lcg::pricing::parse_money;
using lcg::pricing::to_cents;
using lcg::pricing::to_decimal;
using lcg::pricing::to_shown;

namespace {

money micros(std::int64_t m) { return money::from_micros(m); }

}

TEST_CASE("money: constructors and arithmetic are exact")
{
    CHECK(money{}.micros() == 0);
    CHECK(money::from_micros(1).micros() == 1);
    CHECK(money::from_mills(1'680).micros() == 1'680'000);
    CHECK(money::from_dollars(40).micros() == 40'000'000);
    CHECK(money::from_dollars(-2).micros() == -2'000'000);
    CHECK((micros(1'500'000) + micros(250)).micros() == 1'500'250);
    CHECK((micros(1'500'000) - micros(2'000'000)).micros() == -500'000);
    CHECK(micros(1) < micros(2));
    CHECK(micros(-1) < micros(0));
    CHECK(money::from_mills(3) == micros(3'000));
    CHECK(money::from_mills(3).is_whole_mills());
    CHECK(money::from_mills(-3).is_whole_mills());
    CHECK_FALSE(micros(3'001).is_whole_mills());
    CHECK_FALSE(micros(-1).is_whole_mills());
    CHECK(money{}.is_whole_mills());
}

TEST_CASE("parse_money accepts plain decimals")
{
    struct good {
        std::string_view text;
        std::int64_t micros;
    };
    good const cases[] = {
        {"2.4", 2'400'000},
        {"0.000001", 1},
        {"12", 12'000'000},
        {"2.412", 2'412'000},
        {"-1.5", -1'500'000},
        {"0", 0},
        {"1.680", 1'680'000},
        {"0.1", 100'000},
        {"100000", 100'000'000'000},
        {"2.400000", 2'400'000},
        {"-0.000001", -1},
        {"999999999999.999999", 999'999'999'999'999'999},   // 12 integer digits, the most accepted
        {"-999999999999.999999", -999'999'999'999'999'999},
    };
    for (auto const& c : cases) {
        CAPTURE(c.text);
        auto const parsed = parse_money(c.text);
        REQUIRE(parsed.has_value());
        CHECK(parsed->micros() == c.micros);
    }
}

TEST_CASE("parse_money refuses anything but a plain decimal, saying which input")
{
    std::string_view const bad[] = {
        "",
        ".5",
        "5.",
        "1.2345678",      // 7 decimals
        "0.0000001",
        "1e3",
        "1E3",
        "+1",
        " 1",
        "1 ",
        "1,5",
        "1,000",
        "abc",
        "-",
        "-.5",
        "--1",
        "1.2.3",
        ".",
        "1..2",
        "0x10",
        "1_000",
        "1.5\n",
        "1234567890123",  // 13 integer digits
        "-1234567890123",
        "1234567890123.5",
        "NaN",
        "inf",
    };
    for (auto text : bad) {
        CAPTURE(text);
        auto const parsed = parse_money(text);
        REQUIRE_FALSE(parsed.has_value());
        CHECK(parsed.err().code == errc::invalid_argument);
        CHECK(parsed.err().message.find("'" + std::string(text) + "'") != std::string::npos);
    }
}

TEST_CASE("parse_money names the reason for too many decimals")
{
    auto const parsed = parse_money("1.2345678");
    REQUIRE_FALSE(parsed.has_value());
    CHECK(parsed.err().message.find("6 decimals") != std::string::npos);
}

TEST_CASE("to_decimal prints at least min_decimals and never rounds")
{
    CHECK(to_decimal(money::from_mills(1'680)) == "1.680");
    CHECK(to_decimal(money::from_mills(1'680), 3) == "1.680");
    CHECK(to_decimal(micros(2'400'000), 6) == "2.400000");
    CHECK(to_decimal(micros(2'412'000), 6) == "2.412000");
    CHECK(to_decimal(micros(1), 3) == "0.000001");
    CHECK(to_decimal(micros(1), 6) == "0.000001");
    CHECK(to_decimal(micros(1'680'001), 3) == "1.680001");  // more decimals when needed, not rounded
    CHECK(to_decimal(micros(1'680'500), 3) == "1.6805");
    CHECK(to_decimal(micros(0), 3) == "0.000");
    CHECK(to_decimal(micros(0), 6) == "0.000000");
    CHECK(to_decimal(micros(0), 0) == "0");
    CHECK(to_decimal(money::from_dollars(12), 0) == "12");
    CHECK(to_decimal(micros(12'500'000), 0) == "12.5");
    CHECK(to_decimal(micros(12'500'000), 1) == "12.5");
    CHECK(to_decimal(micros(12'500'000), 2) == "12.50");
    CHECK(to_decimal(money::from_dollars(100'000), 0) == "100000");
}

TEST_CASE("to_decimal of negative amounts")
{
    CHECK(to_decimal(micros(-1'500'000)) == "-1.500");
    CHECK(to_decimal(micros(-1'500'000), 6) == "-1.500000");
    CHECK(to_decimal(micros(-1)) == "-0.000001");
    CHECK(to_decimal(micros(-680'000)) == "-0.680");
    CHECK(to_decimal(micros(std::numeric_limits<std::int64_t>::min()), 6) == "-9223372036854.775808");
    CHECK(to_decimal(micros(std::numeric_limits<std::int64_t>::max()), 6) == "9223372036854.775807");
}

TEST_CASE("to_decimal and parse_money round-trip")
{
    std::mt19937_64 rng(20261130);
    std::uniform_int_distribution<std::int64_t> any(-999'999'999'999'999'999, 999'999'999'999'999'999);
    std::uniform_int_distribution<std::int64_t> small(-100'000'000, 100'000'000);
    for (int i = 0; i < 2'000; ++i) {
        std::int64_t const m = i % 2 == 0 ? any(rng) : small(rng);
        for (int min_decimals = 0; min_decimals <= 6; ++min_decimals) {
            std::string const text = to_decimal(micros(m), min_decimals);
            auto const back = parse_money(text);
            CAPTURE(text);
            REQUIRE(back.has_value());
            CHECK(back->micros() == m);
        }
    }
}

TEST_CASE("decimal_string prints amounts finer than a micro-dollar exactly")
{
    // A median of an even count: half micros, scale 7.
    CHECK(decimal_string(4'800'001 * 5, 7) == "2.4000005");
    CHECK(decimal_string(48'000'005, 7) == "4.8000005");
    CHECK(decimal_string(4'800'000 * 5, 7) == "2.400");
    CHECK(decimal_string(4'800'000 * 5, 7, 7) == "2.4000000");
    CHECK(decimal_string(5, 7) == "0.0000005");
    CHECK(decimal_string(-5, 7) == "-0.0000005");
    CHECK(decimal_string(0, 7) == "0.000");
    // The cap: hundredths of a micro, scale 8.
    CHECK(decimal_string(168'000'000, 8) == "1.680");
    CHECK(decimal_string(69'999'965, 8) == "0.69999965");
    CHECK(decimal_string(1, 8) == "0.00000001");
    // Scale 6 is to_decimal.
    CHECK(decimal_string(1'680'000, 6) == to_decimal(money::from_mills(1'680)));
    CHECK(decimal_string(1'680'000, 6, 6) == "1.680000");
}

TEST_CASE("decimal_string at scale 0 prints whole dollars")
{
    CHECK(decimal_string(12, 0) == "12");
    CHECK(decimal_string(-3, 0) == "-3");
    CHECK(decimal_string(0, 0) == "0");
}

TEST_CASE("to_cents rounds half up to two decimals")
{
    CHECK(to_cents(micros(16'800'000)) == "16.80");
    CHECK(to_cents(money::from_mills(16'800)) == "16.80");
    CHECK(to_cents(micros(5'000)) == "0.01");     // 0.005
    CHECK(to_cents(micros(4'999)) == "0.00");     // 0.004999
    CHECK(to_cents(micros(14'999)) == "0.01");    // 0.014999
    CHECK(to_cents(micros(15'000)) == "0.02");    // 0.015
    CHECK(to_cents(micros(1'995'000)) == "2.00"); // carries into the dollars
    CHECK(to_cents(micros(9'995'000)) == "10.00");
    CHECK(to_cents(micros(0)) == "0.00");
    CHECK(to_cents(micros(1)) == "0.00");
    CHECK(to_cents(money::from_dollars(40)) == "40.00");
    CHECK(to_cents(micros(336'000)) == "0.34");   // 0.336
    CHECK(to_cents(micros(-16'800'000)) == "-16.80");
    CHECK(to_cents(micros(-4'999)) == "0.00");    // no negative zero
    CHECK(to_cents(micros(-1)) == "0.00");
}

TEST_CASE("to_shown rounds a figure to the mill, half away from zero, from any scale")
{
    CHECK(to_shown(12'345'675, 7) == "1.235");    // a median of an even count: half a micro
    CHECK(to_shown(12'344'999, 7) == "1.234");
    CHECK(to_shown(12'345'000, 7) == "1.235");    // exactly half a mill rounds up
    CHECK(to_shown(123'449'999, 8) == "1.234");   // a cap, in hundredths of a micro
    CHECK(to_shown(2'380'000, 6) == "2.380");     // a rate is a whole number of mills: unchanged
    CHECK(to_shown(999'500, 6) == "1.000");       // carries into the dollars
    CHECK(to_shown(499, 6) == "0.000");
    CHECK(to_shown(0, 6) == "0.000");
    CHECK(to_shown(1'234, 3) == "1.234");         // already mills
    CHECK(to_shown(-1'500, 6) == "-0.002");       // half away from zero below zero too
    CHECK(to_shown(-499, 6) == "0.000");          // no negative zero
    CHECK(to_shown(9'223'372'036'854'775'807, 18) == "9.223");
}

TEST_CASE("read_plain_decimal splits a number as written, and units_of reads its digits")
{
    auto const d = lcg::pricing::read_plain_decimal("-007.250");
    REQUIRE(d);
    CHECK(d->negative);
    CHECK(d->whole == "007");
    CHECK(d->fraction == "250");
    CHECK(d->has_point);
    CHECK(lcg::pricing::units_of(*d, 3) == 7'250);
    CHECK(lcg::pricing::units_of(*d, 1) == 72);  // digits beyond the scale are dropped, not rounded
    auto const whole = lcg::pricing::read_plain_decimal("12");
    REQUIRE(whole);
    CHECK(lcg::pricing::units_of(*whole, 6) == 12'000'000);
    CHECK_FALSE(whole->has_point);
    CHECK(whole->fraction.empty());
    for (auto const* refused : {"", "-", ".5", "5.", "+5", "1e3", " 1", "1 ", "1,5", "1.2.3", "--1", "0x10", "1_000"}) {
        CAPTURE(refused);
        CHECK_FALSE(lcg::pricing::read_plain_decimal(refused));
    }
}
