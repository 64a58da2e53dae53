#include "money.hpp"

#include "rules.hpp"

#include <algorithm>
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
    // Written right to left into a buffer, so a figure costs one string (computed answers format
    // dozens per request). 20 digits, a dot and a sign fit.
    char buffer[32];
    char* const end = buffer + sizeof buffer;
    char* p = end;
    bool trailing = true;  // still among the fraction's trailing zeros
    for (int position = scale; position > 0; --position) {
        auto const digit = static_cast<char>('0' + units % 10);
        units /= 10;
        if (trailing && digit == '0' && position > min_decimals)
            continue;
        trailing = false;
        *--p = digit;
    }
    if (p != end)
        *--p = '.';
    do {
        *--p = static_cast<char>('0' + units % 10);
        units /= 10;
    } while (units != 0);
    if (negative)
        *--p = '-';
    return std::string(p, end);
}

std::uint64_t magnitude(std::int64_t v)
{
    return v < 0 ? static_cast<std::uint64_t>(-(v + 1)) + 1 : static_cast<std::uint64_t>(v);
}

// Parses the digits of a non-negative decimal; messages quote `shown`, the whole input.
outcome<std::int64_t> parse_units(std::string_view text, int scale, std::string_view shown)
{
    auto const d = read_plain_decimal(text);
    if (!d || d->negative)
        return invalid(quote(shown) + " is not a plain decimal number (digits, optionally one '.' and more digits)",
                       quote(shown) + " n’est pas un nombre décimal simple (des chiffres, puis éventuellement un "
                                      "'.' ou une ',' et d’autres chiffres)");
    if (static_cast<int>(d->whole.size()) > std::min(max_integer_digits, 18 - scale))
        return invalid(quote(shown) + " is too large", quote(shown) + " est trop grand");
    if (static_cast<int>(d->fraction.size()) > scale)
        return invalid(quote(shown) + " has more than " + std::to_string(scale) + " decimals",
                       quote(shown) + " a plus de " + std::to_string(scale) + " décimales");
    return units_of(*d, scale);
}

}

std::optional<plain_decimal> read_plain_decimal(std::string_view text)
{
    plain_decimal d;
    if (text.starts_with('-')) {
        d.negative = true;
        text.remove_prefix(1);
    }
    auto const dot = text.find('.');
    d.whole = text.substr(0, dot);
    d.has_point = dot != std::string_view::npos;
    if (d.has_point)
        d.fraction = text.substr(dot + 1);
    auto const digits = [](std::string_view part) { return !part.empty() && std::all_of(part.begin(), part.end(), is_digit); };
    if (!digits(d.whole) || (d.has_point && !digits(d.fraction)))
        return std::nullopt;
    return d;
}

std::int64_t units_of(plain_decimal const& d, int scale)
{
    std::int64_t units = 0;
    for (char c : d.whole)
        units = units * 10 + (c - '0');
    for (int i = 0; i < scale; ++i)
        units = units * 10 + (i < static_cast<int>(d.fraction.size()) ? d.fraction[static_cast<std::size_t>(i)] - '0' : 0);
    return units;
}

outcome<std::int64_t> parse_decimal_units(std::string_view text, int scale) { return parse_units(text, scale, text); }

outcome<money> parse_money(std::string_view text)
{
    bool const negative = text.starts_with('-');
    auto const units = parse_units(negative ? text.substr(1) : text, max_decimals, text);
    if (!units)
        return units.err();
    return money::from_micros(negative ? -*units : *units);
}

std::string to_decimal(money amount, int min_decimals)
{
    return scaled_to_decimal(amount.micros() < 0, magnitude(amount.micros()), 6, min_decimals);
}

std::string decimal_string(std::int64_t units, int scale, int min_decimals)
{
    return scaled_to_decimal(units < 0, magnitude(units), scale, min_decimals);
}

std::string to_shown(std::int64_t units, int scale)
{
    constexpr int shown = rules::shown_money_decimals;
    std::uint64_t step = 1;
    for (int i = shown; i < scale; ++i)
        step *= 10;
    std::uint64_t const rounded = (magnitude(units) + step / 2) / step;
    return scaled_to_decimal(units < 0 && rounded != 0, rounded, shown, shown);
}

std::string to_cents(money amount)
{
    std::uint64_t const m = magnitude(amount.micros());
    std::uint64_t const cents = (m + 5'000) / 10'000;
    return scaled_to_decimal(amount.micros() < 0 && cents != 0, cents, 2, 2);
}

}
