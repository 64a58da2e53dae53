#include "locale/language.hpp"

#include "locale/folding.hpp"

#include <string>

namespace lcg::locale {

namespace {

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

std::string percent(language lang, std::string_view decimal)
{
    return lang == language::fr ? number(lang, decimal) + "\u202F%" : std::string(decimal) + " %";
}

}
