#include "render/words.hpp"

#include <algorithm>
#include <stdexcept>
#include <unordered_map>

namespace lcg::render {

namespace {

// French typography: a narrow no-break space (U+202F) before ; : ! ? % and $ and between groups
// of thousands. Written as an escape so that no editor turns it into a plain space.
#define NNBSP "\u202F"

#include "render/words_catalog.inc"

#undef NNBSP

std::unordered_map<std::string_view, message const*> const& index()
{
    static auto const by_key = [] {
        std::unordered_map<std::string_view, message const*> out;
        for (auto const& m : catalog)
            out.emplace(m.key, &m);
        return out;
    }();
    return by_key;
}

bool is_decimal(std::string_view s)
{
    if (!s.empty() && (s.front() == '-' || s.front() == '+'))
        s.remove_prefix(1);
    if (s.empty() || s.front() == '.' || s.back() == '.')
        return false;
    bool dot = false;
    for (char c : s) {
        if (c == '.') {
            if (dot)
                return false;
            dot = true;
        } else if (c < '0' || c > '9') {
            return false;
        }
    }
    return true;
}

}

std::span<const message> messages() { return catalog; }

std::string say(language lang, std::string_view key, std::initializer_list<fill> values)
{
    auto const it = index().find(key);
    if (it == index().end())
        throw std::logic_error("no message " + std::string(key));
    std::string_view const text = lang == language::fr ? it->second->fr : it->second->en;
    std::string out;
    out.reserve(text.size() + 32);
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '{') {
            out += text[i];
            continue;
        }
        auto const close = text.find('}', i);
        auto const name = text.substr(i + 1, close - i - 1);
        auto const v = std::find_if(values.begin(), values.end(), [&](fill const& f) { return f.first == name; });
        if (close == std::string_view::npos || v == values.end())
            throw std::logic_error("message " + std::string(key) + " needs a value for {" + std::string(name) + "}");
        out += v->second;
        i = close;
    }
    return out;
}

std::string number(language lang, std::string_view s)
{
    if (lang == language::en || !is_decimal(s))
        return std::string(s);
    std::string out;
    if (s.front() == '-' || s.front() == '+') {
        out += s.front() == '-' ? "\u2212" : "+";
        s.remove_prefix(1);
    }
    auto const dot = s.find('.');
    std::string_view const whole = s.substr(0, dot);
    // Four-digit numbers are grouped too (1 500), so that a column of figures lines up.
    for (std::size_t i = 0; i < whole.size(); ++i) {
        if (i > 0 && (whole.size() - i) % 3 == 0)
            out += "\u202F";
        out += whole[i];
    }
    if (dot != std::string_view::npos)
        out += "," + std::string(s.substr(dot + 1));
    return out;
}

std::string dollars(language lang, std::string_view decimal)
{
    if (lang == language::en)
        return "$" + std::string(decimal);
    return number(lang, decimal) + "\u202F$";
}

std::string percent(language lang, std::string_view whole)
{
    return std::string(whole) + (lang == language::fr ? "\u202F%" : " %");
}

std::string without_language(std::string_view query)
{
    if (query.starts_with('?'))
        query.remove_prefix(1);
    std::string out;
    while (!query.empty()) {
        auto const amp = query.find('&');
        auto const item = query.substr(0, amp);
        query = amp == std::string_view::npos ? std::string_view{} : query.substr(amp + 1);
        if (item.starts_with("lang=") || item == "lang")
            continue;
        out += out.empty() ? "?" : "&";
        out += item;
    }
    return out;
}

std::string language_query(std::string_view query, language lang, bool explicit_english)
{
    std::string out(query);
    if (query.starts_with("?lang=") || query.find("&lang=") != std::string_view::npos)
        return out;
    if (lang == language::en && !explicit_english)
        return out;
    out += out.empty() ? "?lang=" : "&lang=";
    out += glossary::to_string(lang);
    return out;
}

}
