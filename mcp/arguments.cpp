#include "mcp/arguments.hpp"

#include <boost/json/array.hpp>
#include <boost/json/string.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <system_error>

namespace lcg::mcp {

namespace {

namespace json = boost::json;

// The shortest decimal that reads back as `d`, in fixed notation: what the client most likely wrote.
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

pricing::error too_long(std::string_view name)
{
    return pricing::invalid(std::string(name) + ": at most " + std::to_string(max_argument_bytes) + " bytes");
}

}

std::string join_names(std::span<const std::string_view> names)
{
    std::string out;
    for (auto n : names) {
        if (!out.empty())
            out += ", ";
        out.append(n);
    }
    return out;
}

pricing::outcome<arguments> arguments::read(json::object const* args, std::span<const std::string_view> known,
                                            std::span<const std::string_view> list_names)
{
    arguments out;
    if (!args)
        return out;
    for (auto const& [key, value] : *args) {
        std::string_view const name = key;
        if (std::find(known.begin(), known.end(), name) == known.end()) {
            std::string shown(name.substr(0, 64));
            return pricing::invalid("unknown argument " + pricing::quote(shown) +
                                    (known.empty() ? "; this takes no arguments" : "; accepted: " + join_names(known)));
        }
        bool const is_list = std::find(list_names.begin(), list_names.end(), name) != list_names.end();
        std::string text;
        switch (value.kind()) {
        case json::kind::null:
            continue;
        case json::kind::string:
            if (value.get_string().size() > max_argument_bytes)
                return too_long(name);
            text = value.get_string();
            break;
        case json::kind::int64:
            text = std::to_string(value.get_int64());
            break;
        case json::kind::uint64:
            text = std::to_string(value.get_uint64());
            break;
        case json::kind::double_: {
            auto t = number_text(value.get_double());
            if (!t)
                return pricing::invalid(std::string(name) + ": out of range; accepted: numbers below 10^15 in magnitude");
            text = std::move(*t);
            break;
        }
        case json::kind::bool_:
            text = value.get_bool() ? "true" : "false";
            break;
        case json::kind::array:
            if (is_list) {
                for (auto const& item : value.get_array()) {
                    if (!item.is_string())
                        return pricing::invalid(std::string(name) + ": a list of strings is expected");
                    if (!text.empty())
                        text += ',';
                    text += item.get_string();
                    if (text.size() > max_argument_bytes)
                        return too_long(name);
                }
                break;
            }
            [[fallthrough]];
        case json::kind::object:
            return pricing::invalid(std::string(name) + (is_list ? ": a list of strings is expected"
                                                                  : ": a string or a number is expected"));
        }
        out.values_.emplace(std::string(name), std::move(text));
    }
    return out;
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
