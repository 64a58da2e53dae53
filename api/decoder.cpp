#include "api/decoder.hpp"

#include "locale/words.hpp"

#include "pricing/money.hpp"
#include "pricing/outcome.hpp"
#include "pricing/quantity.hpp"

#include <algorithm>
#include <cstdint>
#include <unordered_map>

namespace lcg::api {

namespace {

using locale::language;
using locale::say;

// A number as the client wrote it, read only as far as comparing it with a whole bound needs:
// its sign, its whole part (without leading zeros) and whether a fraction follows.
struct decimal {
    bool negative = false;
    std::string_view whole;
    bool has_fraction = false;
};

// "-12.50", "7": pricing's plain decimal, without a point for an integer.
std::optional<decimal> read_decimal(std::string_view text, bool fraction_allowed)
{
    auto const plain = pricing::read_plain_decimal(text);
    if (!plain || (plain->has_point && !fraction_allowed))
        return std::nullopt;
    decimal d{plain->negative, plain->whole, plain->fraction.find_first_not_of('0') != std::string_view::npos};
    d.whole.remove_prefix(std::min(d.whole.find_first_not_of('0'), d.whole.size()));
    if (d.whole.empty() && !d.has_fraction)
        d.negative = false;  // -0 is 0
    return d;
}

// The sign of |d| − m for a whole m ≥ 0, exactly.
int compare_magnitude(decimal const& d, std::int64_t m)
{
    std::string const bound = std::to_string(m);
    std::string_view const whole = d.whole.empty() ? std::string_view("0") : d.whole;
    if (whole.size() != bound.size())
        return whole.size() < bound.size() ? -1 : 1;
    if (int const c = whole.compare(bound); c != 0)
        return c < 0 ? -1 : 1;
    return d.has_fraction ? 1 : 0;
}

// The sign of d − b, exactly.
int compare(decimal const& d, std::int64_t b)
{
    if (d.negative != (b < 0))
        return d.negative ? -1 : 1;
    if (!d.negative)
        return compare_magnitude(d, b);
    // Both negative: the larger magnitude is the smaller number.
    return -compare_magnitude(d, b == INT64_MIN ? INT64_MAX : -b);
}


// What the parameter accepts, as the messages end: "an integer from 1 to 64".
std::string accepted(parameter const& p, language lang)
{
    std::string const min = p.minimum ? std::to_string(*p.minimum) : "", max = p.maximum ? std::to_string(*p.maximum) : "";
    switch (p.type) {
    case value_type::integer:
        return p.minimum && p.maximum ? say(lang, "input.integer_range", {{"min", min}, {"max", max}})
                                      : say(lang, "input.integer");
    case value_type::number:
        if (!p.minimum || !p.maximum)
            return say(lang, "input.number");
        return say(lang, p.exclusive_minimum ? "input.number_above" : "input.number_range", {{"min", min}, {"max", max}});
    case value_type::boolean: {
        std::string out = "true, false";
        for (auto w : p.words)
            out += ", " + std::string(w) + " (true)";
        return out;
    }
    case value_type::string_list:
        return say(lang, "input.items_range", {{"min", std::to_string(p.min_items)}, {"max", std::to_string(p.max_items)}});
    case value_type::string: break;
    }
    if (!p.choices.empty()) {
        std::string out;
        for (auto c : p.choices)
            out += (out.empty() ? "" : ", ") + std::string(c);
        return out;
    }
    return mid_sentence(parameter_hint(p, lang));
}

// The refusal `key` ("input.below") of `p`'s value, written as `shown` (quoted when the client wrote
// it), ending with what the parameter accepts.
failure refusal(parameter const& p, std::string_view key, std::string const& shown, std::string const& shown_fr = {})
{
    std::string const name(p.name);
    return invalid_parameter(
        name, say(language::en, key, {{"name", name}, {"value", shown}, {"accepted", accepted(p, language::en)}}),
        say(language::fr, key, {{"name", name}, {"value", shown_fr.empty() ? shown : shown_fr}, {"accepted", accepted(p, language::fr)}}));
}

// A parameter not given: what it accepts, and for a list what its items are (its description).
failure missing(parameter const& p)
{
    if (p.type != value_type::string_list)
        return refusal(p, "input.required", "");
    std::string const name(p.name);
    auto const in = [&](language lang) {
        return say(lang, "input.required", {{"name", name}, {"accepted", mid_sentence(parameter_hint(p, lang))}});
    };
    return invalid_parameter(name, in(language::en), in(language::fr));
}

std::optional<failure> out_of_bounds(parameter const& p, std::string const& text, bool fraction_allowed)
{
    auto const d = read_decimal(text, fraction_allowed);
    if (!d)
        return refusal(p, fraction_allowed ? "input.not_number" : "input.not_integer", pricing::quote(text));
    if (p.minimum && (p.exclusive_minimum ? compare(*d, *p.minimum) <= 0 : compare(*d, *p.minimum) < 0))
        return refusal(p, "input.below", pricing::quote(text));
    if (p.maximum && compare(*d, *p.maximum) > 0)
        return refusal(p, "input.above", pricing::quote(text));
    return std::nullopt;
}

// What pricing reads as a flag: true, false, or one of the parameter's words for true.
bool is_boolean(parameter const& p, std::string const& text)
{
    return pricing::parse_flag(p.name, text, p.words).has_value();
}

// A list arrives as its items joined with commas (arguments.hpp), so the commas count them. An
// empty item (a comma first, last or twice) is refused, as a JSON argument's is, not dropped.
std::optional<failure> wrong_count(parameter const& p, std::string const& text)
{
    if (!text.empty() && (text.front() == ',' || text.back() == ',' || text.find(",,") != std::string::npos))
        return bad_item(p);
    int const count = text.empty() ? 0 : static_cast<int>(std::count(text.begin(), text.end(), ',')) + 1;
    if ((!p.min_items || count >= p.min_items) && (!p.max_items || count <= p.max_items))
        return std::nullopt;
    std::string const n = std::to_string(count);
    return refusal(p, "input.items", say(language::en, count == 1 ? "input.one_item" : "input.items_given", {{"count", n}}),
                   say(language::fr, count == 1 ? "input.one_item" : "input.items_given", {{"count", n}}));
}

}

failure bad_item(parameter const& p)
{
    return invalid_parameter(std::string(p.name),
                             std::string(p.name) + ": an item is empty or holds a comma; accepted: " +
                                 mid_sentence(parameter_hint(p, language::en)),
                             std::string(p.name) + "\u202F: un élément est vide ou contient une virgule\u202F; accepté\u202F: " +
                                 mid_sentence(parameter_hint(p, language::fr)));
}

std::optional<failure> misfit(parameter const& p, std::optional<std::string> const& value)
{
    if (!value)
        return p.required ? std::optional(missing(p)) : std::nullopt;
    switch (p.type) {
    case value_type::integer: return out_of_bounds(p, *value, false);
    case value_type::number: return out_of_bounds(p, *value, true);
    case value_type::boolean:
        if (!is_boolean(p, *value))
            return refusal(p, "input.not_boolean", pricing::quote(*value));
        return std::nullopt;
    case value_type::string_list: return wrong_count(p, *value);
    case value_type::string: break;
    }
    return std::nullopt;
}

std::string parameter_hint(parameter const& p, language lang)
{
    if (lang == language::en)
        return std::string(p.description);
    static auto const french = [] {
        std::unordered_map<std::string_view, std::string_view> by_english;
        for (auto const& m : locale::messages())
            if (m.key.starts_with("param."))
                by_english.emplace(m.en, m.fr);
        return by_english;
    }();
    auto const it = french.find(p.description);
    return std::string(it == french.end() ? p.description : it->second);
}

std::string mid_sentence(std::string text)
{
    auto const upper = [](char c) { return c >= 'A' && c <= 'Z'; };
    if (text.size() > 1 && upper(text[0]) && !upper(text[1]))
        text[0] = static_cast<char>(text[0] - 'A' + 'a');
    return text;
}

}
