#pragma once

#include "glossary/document.hpp"
#include "locale/language.hpp"

#include "pricing/sheet.hpp"

#include <boost/json/object.hpp>

#include <optional>
#include <span>
#include <vector>

namespace lcg::render {

// JSON of the glossary in one language, its figures already resolved from `sheet`: each document
// names its week, and says whether it is synthetic sample data (`sample`, render::is_sample).

// /v1/glossary: {"lang", "week", "sample", "count", "categories": [{"slug", "name", "count"}], "terms": [...],
// and "questions": [{"slug", "question", "answer", "related"}] when `questions` is given}. `terms`
// is the selection to list, in the order given (a filter or search result, or every term);
// "categories" lists all six, each counting the terms of the selection it holds; `questions` the
// questions to list (every one, or those a search found).
boost::json::object glossary_json(glossary::document const& doc, locale::language lang,
                                  std::span<const glossary::term_ref> terms,
                                  std::optional<std::vector<glossary::entry const*>> const& questions,
                                  pricing::price_sheet const& sheet);
// Every question of `doc`, in file order: what the unfiltered glossary lists.
std::vector<glossary::entry const*> every_question(glossary::document const& doc);

// One term: {"slug", "name", "category", "category_name", "definition", "related", "aliases"}.
boost::json::object glossary_term_json(glossary::term_ref term);

// One question: {"slug", "question", "answer", "related"}.
boost::json::object glossary_question_json(glossary::entry const& question);

// /v1/glossary/{term}: a term or a question, plus "lang", the "week" of the sheet its figures come
// from and "sample".
boost::json::object glossary_entry_json(boost::json::object entry, locale::language lang,
                                        pricing::price_sheet const& sheet);

}
