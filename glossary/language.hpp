#pragma once

#include <optional>
#include <string_view>

namespace lcg::glossary {

// The languages the glossary is written in. English is the default.
enum class language { en, fr };
inline constexpr language all_languages[] = {language::en, language::fr};

std::string_view to_string(language lang);  // "en", "fr"

// "en" or "fr", in any case; nothing for anything else (a region such as "fr-CA" included: the
// `lang` parameter names a language, the Accept-Language header is where ranges go).
std::optional<language> parse_language(std::string_view text);
}
