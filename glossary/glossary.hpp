#pragma once

#include "glossary/document.hpp"
#include "locale/language.hpp"
#include "glossary/placeholders.hpp"

#include "embedded_file.hpp"

#include "pricing/outcome.hpp"

#include <span>

// The glossary: 86 terms in six categories and three questions, in English and in French, with
// live figures from the price sheet in force. The content files are compiled into the binary.
namespace lcg::glossary {

// Both languages of the glossary, in the same order.
struct content {
    document en;
    document fr;

    document const& in(language lang) const { return lang == language::fr ? fr : en; }
};

// Parses "en.md" and "fr.md" from `files` and checks them (check_translation). The error, an
// invalid_argument, lists every problem found, one "<file>:<line>: <reason>" per line.
pricing::outcome<content> load(std::span<const lcg::embedded_file> files);

// The content compiled into the binary (glossary/content/*.md), loaded once on first use.
pricing::outcome<content> const& embedded();

// `text` with every placeholder of every definition and answer replaced by its figure for that
// language (see placeholders.hpp). The first placeholder that does not resolve is the error, its
// message prefixed with "<file>:<line>: ".
pricing::outcome<content> resolve(content const& text, figures const& with);

}
