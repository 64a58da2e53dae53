#include "render/language.hpp"

namespace lcg::render {

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
    out += locale::to_string(lang);
    return out;
}

}
