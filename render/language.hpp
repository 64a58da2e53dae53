#pragma once

#include "locale/words.hpp"

#include <string>
#include <string_view>

// How render/ writes in a language: the locale's words and formats, and `lang` in the links it writes.
namespace lcg::render {

// The pages are written in the service's languages with the locale's words and its way of writing
// numbers, money and percentages (locale/).
using locale::dollars;
using locale::fill;
using locale::has_message;
using locale::language;
using locale::number;
using locale::percent;
using locale::say;

// A query string with `lang` stated: the query as given when it already names a language;
// otherwise "lang=fr" appended for French, and "lang=en" for English only when `explicit_english`.
// "" → "?lang=fr"; "?tier=spot" → "?tier=spot&lang=fr".
std::string language_query(std::string_view query, language lang, bool explicit_english = false);
// The query with its `lang` parameter, if any, removed ("?tier=spot&lang=fr" → "?tier=spot").
std::string without_language(std::string_view query);

}
