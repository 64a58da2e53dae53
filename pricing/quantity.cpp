#include "quantity.hpp"

#include "money.hpp"

#include <algorithm>
#include <stdexcept>

namespace lcg::pricing {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

std::string units_text(std::int64_t units, int decimals)
{
    return decimals == 0 ? std::to_string(units) : decimal_string(units, decimals, 0);
}

// What a quantity accepts, in English and in French: its range when it is checked here, else its form.
struct accepted_text {
    std::string en;
    std::string fr;
};

accepted_text accepted_range(int decimals, std::optional<std::pair<std::int64_t, std::int64_t>> range)
{
    accepted_text out{"accepted: ", "accepté\u202F: "};
    out.en += decimals == 0 ? "an integer" : "a decimal";
    out.fr += decimals == 0 ? "un entier" : "un nombre décimal";
    if (range) {
        out.en += " from " + units_text(range->first, decimals) + " to " + units_text(range->second, decimals);
        out.fr += " de " + french_decimal(units_text(range->first, decimals)) + " à " +
                  french_decimal(units_text(range->second, decimals));
    }
    if (decimals > 0) {
        out.en += " with at most " + std::to_string(decimals) + " decimals";
        out.fr += " avec au plus " + std::to_string(decimals) + " décimales";
    }
    return out;
}

// Why a number was refused, in both languages.
struct reason {
    std::string en;
    std::string fr;
};

error refused(std::string_view name, std::string_view text, reason const& why, accepted_text const& accepted)
{
    std::string const head = std::string(name) + "\u202F: " + quote(text) + ' ';
    return invalid(std::string(name) + ": " + quote(text) + ' ' + why.en + "; " + accepted.en,
                   head + why.fr + "\u202F; " + accepted.fr);
}

// The digits of `text` as units of 10^-decimals, refused when malformed, below min_units or above
// max_units; `stated` is the range the messages state (none where the caller's declaration checks it).
outcome<std::int64_t> read_units(std::string_view name, std::string_view text, int decimals, std::int64_t min_units,
                                 std::int64_t max_units, std::optional<std::pair<std::int64_t, std::int64_t>> stated)
{
    auto const fail = [&](std::string en, std::string fr) {
        return refused(name, text, {std::move(en), std::move(fr)}, accepted_range(decimals, stated));
    };
    auto const below = [&] { return fail("is below the minimum", "est sous le minimum"); };
    auto const above = [&] { return fail("is above the maximum", "dépasse le maximum"); };
    if (text.empty())
        return fail("is empty", "est vide");
    // A negative number is a number out of range, not a malformed one: say so.
    if (text.size() > 1 && text.front() == '-' && is_digit(text[1]))
        return below();
    auto const d = read_plain_decimal(text);  // not negative: a minus before digits was refused above
    if (!d)
        return decimals == 0 ? fail("is not a plain integer", "n’est pas un entier simple")
                             : fail("is not a plain decimal number", "n’est pas un nombre décimal simple");
    if (d->has_point && decimals == 0)
        return fail("is not an integer", "n’est pas un entier");
    if (static_cast<int>(d->fraction.size()) > decimals)
        return fail("has more than " + std::to_string(decimals) + " decimals",
                    "a plus de " + std::to_string(decimals) + " décimales");
    auto const whole = d->whole.substr(std::min(d->whole.find_first_not_of('0'), d->whole.size() - 1));
    if (static_cast<int>(whole.size()) > 18 - decimals)
        return above();
    auto const units = units_of(*d, decimals);
    if (units < min_units)
        return below();
    if (units > max_units)
        return above();
    return units;
}

// Unsigned 128-bit arithmetic, just enough for a × b / c.
struct u128 {
    std::uint64_t hi;
    std::uint64_t lo;
};

u128 multiply(std::uint64_t a, std::uint64_t b)
{
    constexpr std::uint64_t mask = 0xffff'ffffULL;
    std::uint64_t const p0 = (a & mask) * (b & mask);
    std::uint64_t const p1 = (a & mask) * (b >> 32);
    std::uint64_t const p2 = (a >> 32) * (b & mask);
    std::uint64_t const p3 = (a >> 32) * (b >> 32);
    std::uint64_t const middle = (p0 >> 32) + (p1 & mask) + (p2 & mask);
    return {p3 + (p1 >> 32) + (p2 >> 32) + (middle >> 32), (middle << 32) | (p0 & mask)};
}

struct division {
    std::uint64_t quotient;
    std::uint64_t remainder;
};

// n / d by long division. d < 2^63 keeps the shifted remainder inside 64 bits; n.hi < d keeps the
// quotient inside 64 bits.
division divide(u128 n, std::uint64_t d)
{
    if (n.hi >= d)
        throw std::overflow_error("mul_div: the quotient does not fit in 64 bits");
    if (n.hi == 0)
        return {n.lo / d, n.lo % d};  // the usual case: the product fits in 64 bits
    std::uint64_t rem = n.hi;
    std::uint64_t q = 0;
    for (int bit = 63; bit >= 0; --bit) {
        rem = (rem << 1) | ((n.lo >> bit) & 1U);
        q <<= 1;
        if (rem >= d) {
            rem -= d;
            q |= 1U;
        }
    }
    return {q, rem};
}

division mul_div(std::int64_t a, std::int64_t b, std::int64_t c)
{
    if (a < 0 || b < 0 || c <= 0)
        throw std::invalid_argument("mul_div: operands must be non-negative and the divisor positive");
    return divide(multiply(static_cast<std::uint64_t>(a), static_cast<std::uint64_t>(b)),
                  static_cast<std::uint64_t>(c));
}

std::int64_t to_int64(std::uint64_t v)
{
    if (v > static_cast<std::uint64_t>(INT64_MAX))
        throw std::overflow_error("mul_div: the quotient does not fit in int64");
    return static_cast<std::int64_t>(v);
}

}

parameter_error bad_input(std::string parameter, std::string message, std::string message_fr)
{
    return {std::move(parameter), invalid(std::move(message), std::move(message_fr))};
}

outcome<std::int64_t> parse_quantity(std::string_view name, std::string_view text, int decimals,
                                     std::int64_t min_units, std::int64_t max_units)
{
    return read_units(name, text, decimals, min_units, max_units, std::pair{min_units, max_units});
}

outcome<std::int64_t> to_units(std::string_view name, std::string_view text, int decimals)
{
    return read_units(name, text, decimals, 0, INT64_MAX, std::nullopt);
}

outcome<std::int64_t, parameter_error> units_parameter(std::string_view name, std::string_view text, int decimals)
{
    auto units = to_units(name, text, decimals);
    if (!units)
        return parameter_error{std::string(name), units.err()};
    return *units;
}

outcome<bool> parse_flag(std::string_view name, std::string_view text, std::span<const std::string_view> true_words)
{
    std::string const lower = ascii_lower(text);
    if (lower == "true" || std::find(true_words.begin(), true_words.end(), lower) != true_words.end())
        return true;
    if (lower == "false")
        return false;
    std::string message = std::string(name) + ": " + quote(text) + " is not a boolean; accepted: true, false";
    std::string french = std::string(name) + "\u202F: " + quote(text) + " n’est pas un booléen\u202F; accepté\u202F: true, false";
    for (auto w : true_words) {
        message += ", " + std::string(w) + " (true)";
        french += ", " + std::string(w) + " (true)";
    }
    return invalid(std::move(message), std::move(french));
}

std::string ascii_lower(std::string_view text)
{
    std::string out(text);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
    return out;
}

std::int64_t mul_div_floor(std::int64_t a, std::int64_t b, std::int64_t c)
{
    return to_int64(mul_div(a, b, c).quotient);
}

std::int64_t mul_div_half_up(std::int64_t a, std::int64_t b, std::int64_t c)
{
    auto const d = mul_div(a, b, c);
    // Half-up: round up when the remainder is at least half the divisor (2r ≥ c, without overflow).
    bool const up = d.remainder >= static_cast<std::uint64_t>(c) - d.remainder;
    return to_int64(d.quotient) + (up ? 1 : 0);
}

int compare_products(std::int64_t a, std::int64_t b, std::int64_t c, std::int64_t d)
{
    if (a < 0 || b < 0 || c < 0 || d < 0)
        throw std::invalid_argument("compare_products: operands must be non-negative");
    u128 const x = multiply(static_cast<std::uint64_t>(a), static_cast<std::uint64_t>(b));
    u128 const y = multiply(static_cast<std::uint64_t>(c), static_cast<std::uint64_t>(d));
    if (x.hi != y.hi)
        return x.hi < y.hi ? -1 : 1;
    if (x.lo != y.lo)
        return x.lo < y.lo ? -1 : 1;
    return 0;
}

decimal_text units_to_decimal(std::int64_t a, std::int64_t b, std::int64_t c, int decimals, int min_decimals)
{
    auto const d = mul_div(a, b, c);
    std::int64_t const units = d.remainder == 0 ? to_int64(d.quotient) : mul_div_half_up(a, b, c);
    return {decimals == 0 ? std::to_string(units) : decimal_string(units, decimals, min_decimals), d.remainder == 0};
}

}
