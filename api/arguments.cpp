#include "api/arguments.hpp"
#include "api/decoder.hpp"
#include "pricing/money.hpp"
#include "pricing/utf8.hpp"

#include "pricing/outcome.hpp"

#include <boost/json/array.hpp>
#include <boost/json/string.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <system_error>

namespace lcg::api {

namespace {

namespace json = boost::json;

parameter const* find(std::span<const parameter> params, std::string_view name)
{
    auto it = std::find_if(params.begin(), params.end(), [&](parameter const& p) { return p.name == name; });
    return it == params.end() ? nullptr : &*it;
}

failure unknown(std::span<const parameter> params, std::string_view name)
{
    std::string const shown(pricing::utf8_prefix(name, 64));
    return invalid_parameter(shown,
                             "unknown parameter " + pricing::quote(shown) +
                                 (params.empty() ? "; this takes no parameters" : "; accepted: " + parameter_names(params)),
                             "paramètre inconnu " + pricing::quote(shown) +
                                 (params.empty() ? "\u202F; cette opération n’en prend aucun"
                                                 : "\u202F; accepté\u202F: " + parameter_names(params)));
}

failure too_long(parameter const& p)
{
    std::string const name(p.name), most = std::to_string(max_length_of(p));
    return invalid_parameter(name, name + ": at most " + most + " characters",
                             name + "\u202F: au plus " + most + " caractères");
}

struct type_names {
    std::string_view en;
    std::string_view fr;
};

type_names type_name(value_type t)
{
    switch (t) {
    case value_type::integer: return {"an integer", "un entier"};
    case value_type::number: return {"a number", "un nombre"};
    case value_type::boolean: return {"a boolean", "un booléen"};
    case value_type::string_list: return {"an array of strings", "un tableau de chaînes"};
    case value_type::string: break;
    }
    return {"a string", "une chaîne"};
}

// A NUL, which no query string can carry (percent_decode refuses %00): refused alike over MCP.
failure holds_nul(parameter const& p)
{
    std::string const name(p.name);
    return invalid_parameter(name, name + ": a NUL character is not accepted",
                             name + "\u202F: le caractère NUL n’est pas accepté");
}

failure wrong_type(parameter const& p)
{
    std::string const name(p.name);
    auto const type = type_name(p.type);
    return invalid_parameter(name, name + ": " + std::string(type.en) + " is expected (as the input schema says)",
                             name + "\u202F: il faut " + std::string(type.fr) + " (comme le dit le schéma d’entrée)");
}

failure out_of_range(parameter const& p)
{
    std::string const name(p.name);
    return invalid_parameter(name, name + ": out of range; accepted: numbers below 10^15 in magnitude",
                             name + "\u202F: hors limites\u202F; accepté\u202F: des nombres inférieurs à 10^15 en valeur absolue");
}

// The shortest decimal that reads back as `d`, in fixed notation: what the client most likely
// wrote. Parameters are then parsed exactly from it; no arithmetic is done on the double.
std::optional<std::string> number_text(double d)
{
    if (!std::isfinite(d) || std::fabs(d) >= 1e15)
        return std::nullopt;
    char buffer[400];
    auto const [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, d, std::chars_format::fixed);
    if (ec != std::errc())
        return std::nullopt;
    return std::string(buffer, end);
}

// One JSON value as the text its parameter is parsed from, or why it is refused.
pricing::outcome<std::string, failure> json_text(parameter const& p, json::value const& v)
{
    switch (p.type) {
    case value_type::string:
        if (!v.is_string())
            return wrong_type(p);
        if (argument_length(v.get_string()) > max_length_of(p))
            return too_long(p);
        if (std::string_view(v.get_string()).find('\0') != std::string_view::npos)
            return holds_nul(p);
        return std::string(v.get_string());
    case value_type::integer:
        if (v.is_int64())
            return std::to_string(v.get_int64());
        if (v.is_uint64())
            return std::to_string(v.get_uint64());
        if (v.is_double() && std::trunc(v.get_double()) == v.get_double()) {  // 8.0 is the integer 8
            if (auto t = number_text(v.get_double()))
                return t->substr(0, t->find('.'));
            return out_of_range(p);
        }
        return wrong_type(p);
    case value_type::number:
        if (v.is_int64())
            return std::to_string(v.get_int64());
        if (v.is_uint64())
            return std::to_string(v.get_uint64());
        if (v.is_double()) {
            if (auto t = number_text(v.get_double())) {
                if (t->size() <= max_argument_characters)  // digits: a byte each
                    return std::move(*t);
                std::string const name(p.name);  // 1e-300 is 300 digits written out
                return invalid_parameter(
                    name, name + ": written out as a decimal, longer than " + std::to_string(max_argument_characters) + " bytes",
                    name + "\u202F: écrit en décimal, plus long que " + std::to_string(max_argument_characters) + " octets");
            }
            return out_of_range(p);
        }
        return wrong_type(p);
    case value_type::boolean:
        if (v.is_string() && std::find(p.words.begin(), p.words.end(), std::string_view(v.get_string())) != p.words.end())
            return std::string(v.get_string());
        if (!v.is_bool())
            return wrong_type(p);
        return std::string(v.get_bool() ? "true" : "false");
    case value_type::string_list: {
        if (!v.is_array())
            return wrong_type(p);
        auto const& items = v.get_array();
        // Joined with commas below, the HTTP form: an item must not hold one, nor be empty.
        std::string text;
        std::size_t length = 0;  // of text, in characters
        for (auto const& item : items) {
            if (!item.is_string())
                return wrong_type(p);
            std::string_view const s = item.get_string();
            if (s.find('\0') != std::string_view::npos)
                return holds_nul(p);
            if (s.empty() || s.find(',') != std::string_view::npos)
                return bad_item(p);
            length += argument_length(s) + (text.empty() ? 0 : 1);
            if (length > max_length_of(p))
                return too_long(p);
            if (!text.empty())
                text += ',';
            text += s;
        }
        return text;
    }
    }
    return wrong_type(p);
}

}

std::size_t argument_length(std::string_view value)
{
    return pricing::utf8_length(value).value_or(value.size());
}

std::string parameter_names(std::span<const parameter> params)
{
    std::string out;
    for (auto const& p : params) {
        if (!out.empty())
            out += ", ";
        out.append(p.name);
    }
    return out;
}

pricing::outcome<arguments, failure> arguments::from_query(std::span<const parameter> params,
                                                       std::map<std::string, std::string, std::less<>> values)
{
    for (auto const& [name, value] : values) {
        auto const* p = find(params, name);
        if (!p)
            return unknown(params, name);
        if (argument_length(value) > max_length_of(*p))
            return too_long(*p);
    }
    arguments out;
    out.values_ = std::move(values);
    out.from_ = face::http;
    return out;
}

pricing::outcome<arguments, failure> arguments::from_json(std::span<const parameter> params, json::object const* args)
{
    arguments out;
    out.from_ = face::mcp;
    if (!args)
        return out;
    for (auto const& [key, value] : *args) {
        auto const* p = find(params, key);
        if (!p)
            return unknown(params, key);
        if (value.is_null())  // an optional argument sent as null is an absent one
            continue;
        auto text = json_text(*p, value);
        if (!text)
            return text.err();
        out.values_.emplace(std::string(key), std::move(text).value());
    }
    return out;
}

namespace {

// "1,5" becomes "1.5": only a value with one comma between digits and no point, so that nothing
// else changes meaning.
void comma_to_point(std::string& value)
{
    auto const digit = [](char c) { return c >= '0' && c <= '9'; };
    auto const comma = value.find(',');
    if (comma == std::string::npos || comma == 0 || comma + 1 == value.size() ||
        value.find_first_of(",.", comma + 1) != std::string::npos || !digit(value[comma - 1]) ||
        !digit(value[comma + 1]))
        return;
    value[comma] = '.';
}

// "1.500" becomes "1.5", "8.0" becomes "8"; anything but a plain decimal stays as it is.
void drop_trailing_zeros(std::string& value)
{
    auto const plain = pricing::read_plain_decimal(value);
    if (!plain || !plain->has_point)
        return;
    auto const kept = plain->fraction.find_last_not_of('0');
    value.resize(value.size() - plain->fraction.size() + (kept == std::string_view::npos ? 0 : kept + 1));
    if (value.ends_with('.'))
        value.pop_back();
}

}

void arguments::read_query_numbers(std::span<const parameter> params, bool decimal_comma)
{
    if (from_ != face::http)
        return;
    for (auto& [name, value] : values_) {
        auto const* p = find(params, name);
        if (!p || (p->type != value_type::number && p->type != value_type::integer))
            continue;
        if (decimal_comma && p->type == value_type::number)
            comma_to_point(value);
        drop_trailing_zeros(value);
    }
}

std::optional<std::string> arguments::take(std::string_view name)
{
    auto it = values_.find(name);
    if (it == values_.end())
        return std::nullopt;
    std::string v = std::move(it->second);
    values_.erase(it);
    return v;
}

}
