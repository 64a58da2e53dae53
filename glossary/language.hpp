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

// The language to answer in for an Accept-Language header (RFC 9110 §12.5.4): the range with the
// highest q-value whose primary subtag is "fr" or "en" wins, the earlier one on a tie; "*" stands
// for English; q=0 excludes a range; an item with a malformed q-value is ignored. English when
// nothing matches or the header is empty.
language negotiate_language(std::string_view accept_language);

}
