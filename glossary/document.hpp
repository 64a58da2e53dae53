#pragma once

#include "pricing/outcome.hpp"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace lcg::glossary {

// A term or a question and answer: its name, slug, the slugs it relates to, the other names people
// search it by, and its text (the definition or the answer; placeholders as written, or resolved).
struct entry {
    std::string name;
    std::string slug;
    std::vector<std::string> related;
    std::vector<std::string> aliases;
    std::string text;
    int line = 0;          // of its "## " heading, for messages
    int related_line = 0;  // of its "related:" line
    int text_line = 0;     // of its definition or answer
};

struct category {
    std::string slug;
    std::string name;
    std::vector<entry> terms;
    int line = 0;
};

// A term with the category it belongs to; both point into a document that must outlive it.
struct term_ref {
    category const* cat = nullptr;
    entry const* term = nullptr;
    explicit operator bool() const { return term != nullptr; }
};

// One language's content file: the categories and their terms in file order, then the questions.
struct document {
    std::string file;  // "en.md": the prefix of every message about it
    std::vector<category> categories;
    std::string questions_name;
    std::vector<entry> questions;
    int questions_line = 0;

    std::vector<term_ref> terms() const;  // every term, in file order
    std::size_t term_count() const;
    term_ref find_term(std::string_view slug) const;
    entry const* find_question(std::string_view slug) const;
    category const* find_category(std::string_view slug) const;
    std::string location(int line) const;  // "en.md:12"
};

// Parses a content file. The format, line by line:
//
//   # category: <slug> | <display name>     starts a category
//   ## <name>                               starts a term of the current category
//   slug: <slug>                            required
//   related: <slug>, <slug>                 required, 1 to 4 slugs
//   aliases: <name>, <name>                 optional
//   <blank line>
//   <the definition, on one line>
//   <blank line or end of file>
//   ...
//   # questions | <display name>            after the categories: entries in the same shape,
//                                           the name being the question and the text the answer
//
// Slugs are lower-case ASCII letters and digits in hyphen-separated groups. Blank lines may
// separate blocks freely; a '\r' before '\n' is ignored. The error, an invalid_argument, is
// "<file>:<line>: <reason>" for the first problem met. Checks that need the whole file (or both
// languages) are in validation.hpp.
pricing::outcome<document> parse_document(std::string_view file, std::string_view text);

bool is_slug(std::string_view text);

}
