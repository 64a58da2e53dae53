#pragma once

#include "outcome.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

// Exact quantities for the costing tools (estimate, sizing, compare, instance check): parameters
// parsed from decimal text into scaled integers, and the few wide products the rules need. No
// floating point anywhere.
namespace lcg::pricing {

// A request parameter that was refused: its name, for transports that report it on its own (the
// `parameter` of an HTTP problem), and the error, whose message names it too and says what is
// accepted.
struct parameter_error {
    std::string parameter;
    error cause;
    std::vector<std::string> suggestions{};  // the closest valid values of a near miss, best first
};

// An invalid_argument, in English and in French.
parameter_error bad_input(std::string parameter, std::string message, std::string message_fr);

// A parsed request, or the first parameter refused.
template <class T>
using parsed = outcome<T, parameter_error>;

// Parses a plain non-negative decimal — digits, optionally '.' and 1 to `decimals` digits; no sign,
// exponent, spaces or separators — into units of 10^-decimals, and checks min_units ≤ value ≤
// max_units. Precondition: 0 ≤ decimals ≤ 9 and max_units < 10^18. Errors name `name`, quote the
// text and state the accepted range: "hours: '1e3' is not a plain decimal number; accepted: …".
outcome<std::int64_t> parse_quantity(std::string_view name, std::string_view text, int decimals,
                                     std::int64_t min_units, std::int64_t max_units);

// The same without bounds but the representable (below 10^18 units): for a parameter whose bounds
// its declaration states and the API's decoder checks (api/decoder.hpp), so that pricing/ keeps only
// the conversion to exact units. Errors name `name` and say the form accepted.
outcome<std::int64_t> to_units(std::string_view name, std::string_view text, int decimals);

// to_units, refused as the parameter `name`: what the parse_* functions of a request call.
outcome<std::int64_t, parameter_error> units_parameter(std::string_view name, std::string_view text, int decimals);

// "true" or "false", in any letter case; also any of `true_words` (lower case), which mean true
// (the cloud document's "highest" for the processor performance flag).
outcome<bool> parse_flag(std::string_view name, std::string_view text, std::span<const std::string_view> true_words = {});

// Lower-cases ASCII letters (identifiers and codes are ASCII).
std::string ascii_lower(std::string_view text);

// a × b / c with an exact 128-bit intermediate. Preconditions: a ≥ 0, b ≥ 0, c > 0 and the quotient
// fits in int64 (callers bound their inputs so that it does; std::overflow_error otherwise).
std::int64_t mul_div_floor(std::int64_t a, std::int64_t b, std::int64_t c);
std::int64_t mul_div_half_up(std::int64_t a, std::int64_t b, std::int64_t c);  // rounded half-up

// The sign of a × b − c × d (-1, 0 or 1), exactly, for non-negative operands.
int compare_products(std::int64_t a, std::int64_t b, std::int64_t c, std::int64_t d);

// a × b / c units of 10^-decimals (a, b ≥ 0, c > 0) as a decimal: exact when the quotient is whole,
// otherwise rounded half-up to the last decimal; `exact` says which. Trailing zeros are trimmed down
// to `min_decimals`: units_to_decimal(1, 720, 3600, 6) is {"0.2", true}.
struct decimal_text {
    std::string text;
    bool exact = true;
};
decimal_text units_to_decimal(std::int64_t a, std::int64_t b, std::int64_t c, int decimals, int min_decimals = 0);

}
