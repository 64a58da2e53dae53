#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace lcg::locale {

// The languages the service speaks, its glossary and its pages. English is the default.
enum class language { en, fr };
inline constexpr language all_languages[] = {language::en, language::fr};

std::string_view to_string(language lang);  // "en", "fr"

// "en" or "fr", in any case; nothing for anything else (a region such as "fr-CA" included: the
// `lang` parameter names a language, the Accept-Language header is where ranges go).
std::optional<language> parse_language(std::string_view text);

// A decimal number as `lang` writes it in prose and tables: English as given ("12345.678");
// French with a decimal comma, its thousands grouped by narrow no-break spaces (U+202F, four
// digits too, so that a column lines up) and a true minus sign ("12 345,678", "−0,013").
// Anything that is not a plain decimal number ("—", "2026-W49") is returned as is.
std::string number(language lang, std::string_view decimal);

// An amount in US dollars: "$0.840" in English, "0,840 $" in French (a narrow no-break space
// before the sign). `decimal` is an exact money string, never a float.
std::string dollars(language lang, std::string_view decimal);

// A percentage: "70 %" in English as the pages write it, "70 %" with a narrow no-break space and
// a decimal comma in French ("99,9 %").
std::string percent(language lang, std::string_view decimal);

}
