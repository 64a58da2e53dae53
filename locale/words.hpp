#pragma once

#include "locale/language.hpp"

#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <utility>

// The words the pages put around the data, in every language the service speaks: one catalog of
// messages, each written in English and in French, and the way each language writes numbers and
// money in prose. JSON and CSV never go through here: their numbers and money strings are the same
// in every language.
namespace lcg::locale {

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

}
