#include "render/glossary_json.hpp"

#include "render/json.hpp"

#include <boost/json/array.hpp>

#include <string>

namespace lcg::render {

namespace {

namespace json = boost::json;

}

json::object glossary_term_json(glossary::term_ref t)
{
    return {{"slug", t.term->slug},
            {"name", t.term->name},
            {"category", t.cat->slug},
            {"category_name", t.cat->name},
            {"definition", t.term->text},
            {"related", string_array(t.term->related)},
            {"aliases", string_array(t.term->aliases)}};
}

json::object glossary_question_json(glossary::entry const& q)
{
    return {{"slug", q.slug}, {"question", q.name}, {"answer", q.text}, {"related", string_array(q.related)}};
}

std::vector<glossary::entry const*> every_question(glossary::document const& doc)
{
    std::vector<glossary::entry const*> out;
    for (auto const& q : doc.questions)
        out.push_back(&q);
    return out;
}

json::object glossary_json(glossary::document const& doc, locale::language lang,
                           std::span<const glossary::term_ref> terms,
                           std::optional<std::vector<glossary::entry const*>> const& questions,
                           pricing::price_sheet const& sheet)
{
    json::array categories;
    for (auto const& c : doc.categories) {
        std::size_t count = 0;
        for (auto const& t : terms)
            count += t.cat == &c ? 1 : 0;
        categories.push_back(json::object{{"slug", c.slug}, {"name", c.name}, {"count", count}});
    }
    json::array listed;
    for (auto const& t : terms)
        listed.push_back(glossary_term_json(t));
    json::object o{{"lang", locale::to_string(lang)},
                   {"week", pricing::to_string(sheet.week)},
                   {"sample", sheet.is_sample()},
                   {"count", terms.size()},
                   {"categories", std::move(categories)},
                   {"terms", std::move(listed)}};
    if (questions) {
        json::array listed_questions;
        for (auto const* q : *questions)
            listed_questions.push_back(glossary_question_json(*q));
        o["questions_name"] = doc.questions_name;
        o["questions"] = std::move(listed_questions);
    }
    return o;
}

json::object glossary_entry_json(json::object entry, locale::language lang, pricing::price_sheet const& sheet)
{
    entry["lang"] = locale::to_string(lang);
    entry["week"] = pricing::to_string(sheet.week);
    entry["sample"] = sheet.is_sample();
    return entry;
}

}
