#pragma once

#include "glossary/document.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lcg::glossary {

// The terms matching `query`: every word of the query (see words(): case and accents ignored, so
// "cle api" finds "Clé API") must start some word of the term's name, aliases or text. Terms that
// match on their name and aliases alone come first, then the others; file order within each. A
// query without any letter or digit matches nothing.
std::vector<term_ref> search(document const& doc, std::string_view query);

// The questions matching `query`, by the same rule over a question's wording, aliases and answer;
// those matching on their wording and aliases first.
std::vector<entry const*> search_questions(document const& doc, std::string_view query);

// The slugs of the terms and questions closest to `unknown`, best first, at most `count`. Each
// candidate is compared with its slug and with its name and aliases written as slugs ("Clé API" →
// "cle-api"): a candidate containing `unknown` (or contained in it, for four characters or more)
// comes first, then by edit distance; file order breaks ties. Only the first
// rules::max_glossary_suggestion_bytes of `unknown` are compared, so the cost is bounded.
std::vector<std::string> suggest(document const& doc, std::string_view unknown, std::size_t count = 3);

// The slug of the entry `text` names: a term's or question's slug, then a term's name or alias as
// written (case and accents aside), then the first search hit (for three characters or more).
// Nothing when none matches.
std::optional<std::string> lookup(document const& doc, std::string_view text);

}
