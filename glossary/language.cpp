#include "glossary/language.hpp"

#include "glossary/text.hpp"

#include <string>

namespace lcg::glossary {

std::string_view to_string(language lang)
{
    return lang == language::fr ? "fr" : "en";
}

std::optional<language> parse_language(std::string_view text)
{
    std::string const folded = fold(text);
    for (language lang : all_languages)
        if (folded == to_string(lang))
            return lang;
    return std::nullopt;
}

}
