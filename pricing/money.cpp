#include "money.hpp"

#include <cstdlib>

namespace lcg::pricing {

namespace {

constexpr int max_integer_digits = 12;  // 10^12 dollars is far beyond any price and fits int64 micros
constexpr int max_decimals = 6;

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Writes `units` (non-negative) as a decimal with `scale` implied decimals, trimming trailing zeros
// down to `min_decimals`.
std::string scaled_to_decimal(bool negative, std::uint64_t units, int scale, int min_decimals)
{
    std::uint64_t divisor = 1;
    for (int i = 0; i < scale; ++i)
        divisor *= 10;
    std::string fraction = scale == 0 ? std::string() : std::to_string(units % divisor);
    fraction.insert(0, static_cast<std::size_t>(scale) - fraction.size(), '0');
    while (static_cast<int>(fraction.size()) > min_decimals && fraction.back() == '0')
        fraction.pop_back();
    std::string out = negative ? "-" : "";
    out += std::to_string(units / divisor);
    if (!fraction.empty())
        out += "." + fraction;
    return out;
}

std::uint64_t magnitude(std::int64_t v)
{
    return v < 0 ? static_cast<std::uint64_t>(-(v + 1)) + 1 : static_cast<std::uint64_t>(v);
}

}

outcome<money> parse_money(std::string_view text)
{
    std::string_view rest = text;
    bool negative = false;
    if (!rest.empty() && rest.front() == '-') {
        negative = true;
        rest.remove_prefix(1);
    }
    auto const dot = rest.find('.');
    std::string_view whole = rest.substr(0, dot);
    std::string_view fraction = dot == std::string_view::npos ? std::string_view{} : rest.substr(dot + 1);
    if (whole.empty())
        return invalid(quote(text) + " is not a decimal number (expected digits such as 2.412)");
    if (dot != std::string_view::npos && fraction.empty())
        return invalid(quote(text) + " ends with a decimal point");
    for (std::string_view part : {whole, fraction})
        for (char c : part)
            if (!is_digit(c))
                return invalid(quote(text) + " is not a decimal number (only digits and one '.')");
    if (static_cast<int>(whole.size()) > max_integer_digits)
        return invalid(quote(text) + " is too large");
    if (static_cast<int>(fraction.size()) > max_decimals)
        return invalid(quote(text) + " has more than 6 decimals");

    std::int64_t micros = 0;
    for (char c : whole)
        micros = micros * 10 + (c - '0');
    std::int64_t frac = 0;
    for (int i = 0; i < max_decimals; ++i)
        frac = frac * 10 + (i < static_cast<int>(fraction.size()) ? fraction[static_cast<std::size_t>(i)] - '0' : 0);
    micros = micros * money::micros_per_dollar + frac;
    return money::from_micros(negative ? -micros : micros);
}

std::string to_decimal(money amount, int min_decimals)
{
    return scaled_to_decimal(amount.micros() < 0, magnitude(amount.micros()), 6, min_decimals);
}

std::string decimal_string(std::int64_t units, int scale, int min_decimals)
{
    return scaled_to_decimal(units < 0, magnitude(units), scale, min_decimals);
}

std::string to_cents(money amount)
{
    std::uint64_t const m = magnitude(amount.micros());
    std::uint64_t const cents = (m + 5'000) / 10'000;
    return scaled_to_decimal(amount.micros() < 0 && cents != 0, cents, 2, 2);
}

}
