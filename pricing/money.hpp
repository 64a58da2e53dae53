#pragma once

#include "outcome.hpp"

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace lcg::pricing {

// An exact amount of US dollars, in integer micro-dollars (1 USD = 1,000,000). There is no
// floating point anywhere on a money path: amounts are parsed from and printed as decimal strings.
class money {
public:
    static constexpr std::int64_t micros_per_dollar = 1'000'000;
    static constexpr std::int64_t micros_per_mill = 1'000;

    constexpr money() = default;
    static constexpr money from_micros(std::int64_t micros) { return money(micros); }
    static constexpr money from_mills(std::int64_t mills) { return money(mills * micros_per_mill); }
    static constexpr money from_dollars(std::int64_t dollars) { return money(dollars * micros_per_dollar); }

    constexpr std::int64_t micros() const { return micros_; }
    constexpr bool is_whole_mills() const { return micros_ % micros_per_mill == 0; }

    constexpr auto operator<=>(money const&) const = default;
    constexpr money operator+(money other) const { return money(micros_ + other.micros_); }
    constexpr money operator-(money other) const { return money(micros_ - other.micros_); }

private:
    constexpr explicit money(std::int64_t micros) : micros_(micros) {}
    std::int64_t micros_ = 0;
};

// A number in plain decimal notation, split as written: an optional '-', one or more digits, and
// optionally a '.' followed by one or more digits. No '+', exponent, spaces or separators. The one
// reading of such a number: money, quantities, the market files' fields and the API's bounds all
// start from it, and each adds its own limits.
struct plain_decimal {
    bool negative = false;
    std::string_view whole;     // the digits before the point, leading zeros included
    std::string_view fraction;  // the digits after it; empty without a point
    bool has_point = false;
};
std::optional<plain_decimal> read_plain_decimal(std::string_view text);

// The magnitude of `d` in units of 10^-scale, its fraction's digits beyond `scale` dropped.
// Precondition: its whole part, leading zeros aside, has at most 18 - scale digits.
std::int64_t units_of(plain_decimal const& d, int scale);

// Parses a plain decimal such as "2.4", "0.000001" or "12": optional leading '-', digits, optional
// '.' followed by 1 to 6 digits. No exponent, no sign '+', no spaces, no thousands separators, at most
// 12 integer digits. Errors name what was wrong.
outcome<money> parse_money(std::string_view text);

// "1.680": at least `min_decimals` decimals (0 to 6), more when the amount needs them, never
// rounded. The canonical CSV uses 6, prices 3 (a rate is a whole number of mills).
std::string to_decimal(money amount, int min_decimals = 3);

// `units` of 10^-scale dollars as an exact decimal, trimmed to no fewer than `min_decimals`:
// decimal_string(48'000'005, 7) is "4.8000005". For amounts finer than a micro-dollar, such as a
// median of an even count (half micros) or the cap (hundredths of a micro).
std::string decimal_string(std::int64_t units, int scale, int min_decimals = 3);

// Parses a non-negative decimal with at most `scale` decimals into units of 10^-scale:
// parse_decimal_units("2.4000005", 7) is 24'000'005. At most 12 integer digits.
outcome<std::int64_t> parse_decimal_units(std::string_view text, int scale);

// A figure as pages for people show it: `units` of 10^-scale dollars (3 ≤ scale ≤ 18) rounded to
// rules::shown_money_decimals decimals, half away from zero: to_shown(12'345'675, 7) is "1.235",
// to_shown(12'344'999, 7) is "1.234". Machine formats publish the exact figure instead.
std::string to_shown(std::int64_t units, int scale);

// A decimal with exactly two decimals, rounded half-up (prose totals: "$16.80").
std::string to_cents(money amount);

}
