#include "render/words.hpp"

#include <algorithm>
#include <stdexcept>
#include <unordered_map>

namespace lcg::render {

namespace {

// French typography: a narrow no-break space (U+202F) before ; : ! ? % and $ and between groups
// of thousands. Written as an escape so that no editor turns it into a plain space.
#define NNBSP "\u202F"

// The catalog: every message of the pages, in English and in French. French follows French
// typography: NNBSP (a narrow no-break space) before ; : ! ? % and $, a comma for decimals. Keys
// are grouped by page, one file per area; tests check that every key has both languages, the same
// placeholders in each, and the French spacing.
constexpr message catalog[] = {
#include "render/words_pages.inc"
#include "render/words_sheets.inc"
#include "render/words_site.inc"
#include "render/words_tools.inc"
#include "render/words_json.inc"
#include "render/words_methodology.inc"
#include "render/words_data.inc"
};

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


}

std::span<const message> messages() { return catalog; }

bool has_message(std::string_view key) { return index().contains(key); }

std::string say(language lang, std::string_view key, std::initializer_list<fill> values)
{
    auto const it = index().find(key);
    if (it == index().end())
        throw std::logic_error("no message " + std::string(key));
    std::string_view const text = lang == language::fr ? it->second->fr : it->second->en;
    std::string out;
    out.reserve(text.size() + 32);
    // The text between placeholders is copied in runs: messages are written on every computed answer.
    for (std::size_t i = 0; i < text.size();) {
        auto const open = std::min(text.find('{', i), text.size());
        out.append(text.data() + i, open - i);
        if (open == text.size())
            break;
        auto const close = text.find('}', open);
        auto const name = text.substr(open + 1, close - open - 1);
        auto const v = std::find_if(values.begin(), values.end(), [&](fill const& f) { return f.first == name; });
        if (close == std::string_view::npos || v == values.end())
            throw std::logic_error("message " + std::string(key) + " needs a value for {" + std::string(name) + "}");
        out += v->second;
        i = close + 1;
    }
    return out;
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
