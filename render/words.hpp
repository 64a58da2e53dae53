#pragma once

#include "glossary/language.hpp"

#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <utility>

// The words the pages put around the data, in every language the service speaks: one catalog of
// messages, each written in English and in French, and the way each language writes numbers and
// money in prose. JSON and CSV never go through here: their numbers and money strings are the same
// in every language.
namespace lcg::render {

using glossary::language;

// One message: its key ("sheet.title"), its English and its French. "{name}" marks where a value
// goes; both languages use the same names.
struct message {
    std::string_view key;
    std::string_view en;
    std::string_view fr;
};

// Every message, sorted by key (tests walk them: every key has both languages).
std::span<const message> messages();

// A placeholder's name and its value, already written for the language.
using fill = std::pair<std::string_view, std::string_view>;

// The message `key` in `lang`, each "{name}" replaced by its value. Precondition: the key exists and
// every placeholder of the message is given (std::logic_error otherwise: a bug, caught by tests
// that render every page in both languages).
std::string say(language lang, std::string_view key, std::initializer_list<fill> values = {});

// Whether the catalog has a message `key`: where a specific message may stand in for a general one.
bool has_message(std::string_view key);

// Numbers, money and percentages as each language writes them (glossary/language.hpp), for the
// pages as for the glossary's figures.
using glossary::dollars;
using glossary::number;
using glossary::percent;

// A query string with `lang` stated: the query as given when it already names a language;
// otherwise "lang=fr" appended for French, and "lang=en" for English only when `explicit_english`.
// "" → "?lang=fr"; "?tier=spot" → "?tier=spot&lang=fr".
std::string language_query(std::string_view query, language lang, bool explicit_english = false);

// The query with its `lang` parameter, if any, removed ("?tier=spot&lang=fr" → "?tier=spot").
std::string without_language(std::string_view query);

}
