#include "locale/words.hpp"

#include <algorithm>
#include <stdexcept>
#include <unordered_map>

namespace lcg::locale {

namespace {

// French typography: a narrow no-break space (U+202F) before ; : ! ? % and $ and between groups
// of thousands. Written as an escape so that no editor turns it into a plain space.
#define NNBSP "\u202F"

// The catalog: every message of the pages, in English and in French. French follows French
// typography: NNBSP (a narrow no-break space) before ; : ! ? % and $, a comma for decimals. Keys
// are grouped by page, one file per area; tests check that every key has both languages, the same
// placeholders in each, and the French spacing.
constexpr message catalog[] = {
#include "locale/words_pages.inc"
#include "locale/words_sheets.inc"
#include "locale/words_site.inc"
#include "locale/words_tools.inc"
#include "locale/words_input.inc"
#include "locale/words_json.inc"
#include "locale/words_methodology.inc"
#include "locale/words_data.inc"
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

}
