#pragma once

#include "glossary/document.hpp"

#include "pricing/rules.hpp"

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
std::vector<std::string> suggest(document const& doc, std::string_view unknown,
                                 std::size_t count = pricing::rules::glossary_suggestions);

// How a text named the entry it found.
enum class naming {
    exact,  // its slug, or one of its names word for word
    loose,  // the words given start the words of one of its names, in their order
};

struct named_entry {
    std::string slug;
    naming how = naming::exact;
};

// The entry `text` names. Exactly: a term's or question's slug, or a term's name or alias word for
// word (case, accents and punctuation aside: "gpu hours", "Clé API"), in `doc` or else in `other`, the
// same glossary in the other language (its slugs are the same), so that a name is found in either
// language. Loosely, for three characters or more: the first term of `doc` one of whose names has
// words starting with those of `text`, one after the other ("interruptible" → "Interruptible
// instance"; "multi instance gpu" does not find "Multi-GPU instance"). A word found only in
// definitions names nothing: search() lists those. Nothing when none matches.
std::optional<named_entry> lookup(document const& doc, std::string_view text, document const* other = nullptr);

}
