// The operations of the glossary: one term explained, and the terms a search or a category gives.
#include "api/answer_kit.hpp"

#include "render/glossary_json.hpp"

#include "glossary/search.hpp"
#include "glossary/text.hpp"

#include "pricing/utf8.hpp"

#include <algorithm>

namespace lcg::api::answers {

using namespace kit;

namespace {

std::string lang_query(locale::language l) { return "?lang=" + std::string(locale::to_string(l)); }

failure glossary_unavailable(data_view const& data)
{
    return {pricing::errc::unavailable, "", "the glossary is unavailable: " + std::string(data.glossary_problem()), {},
            "le glossaire est indisponible\u202F: " + std::string(data.glossary_problem())};
}

// No entry is named so: the terms whose text mentions the words come first among the suggestions,
// then the slugs closest in spelling.
failure no_glossary_entry(glossary::document const& doc, std::string const& term)
{
    std::vector<std::string> suggestions;
    for (auto const& hit : glossary::search(doc, term))
        if (suggestions.size() < rules::glossary_suggestions)
            suggestions.push_back(hit.term->slug);
    for (auto& s : glossary::suggest(doc, term, rules::glossary_suggestions))  // suggest() reads it as a slug
        if (suggestions.size() < rules::glossary_suggestions && std::find(suggestions.begin(), suggestions.end(), s) == suggestions.end())
            suggestions.push_back(std::move(s));
    std::string closest;
    for (auto const& s : suggestions)
        closest += (closest.empty() ? "" : ", ") + s;
    std::string const asked = pricing::quote(pricing::utf8_prefix(term, 80));
    return failure{pricing::errc::not_found, "term",
                   "term: no glossary entry is named " + asked +
                       (closest.empty() ? std::string() : "; closest: " + closest) +
                       "; accepted: a slug, or a term's name or alias in English or French (/v1/glossary lists them)",
                   std::move(suggestions),
                   "term\u202F: aucune entrée du glossaire ne s’appelle " + asked +
                       (closest.empty() ? std::string() : "\u202F; les plus proches\u202F: " + closest) +
                       "\u202F; accepté\u202F: un identifiant, ou le nom ou un alias d’un terme en anglais ou en français "
                       "(/v1/glossary les donne)"};
}

struct term_input : input {
    argument term{this, {.name = "term",
                         .type = vt::string,
                         .description = "A slug (gpu-hour), a term's name or alias in English or French (Clé API, cle "
                                        "api, spot), or the first words of one (a loose match, which the answer marks "
                                        "with match)",
                         .required = true,
                         .max_length = rules::max_glossary_query_characters}};
};

result explain(request& r, term_input const& in)
{
    auto const& term = in.term();
    auto const language = r.lang;
    if (glossary::words(*term).empty())  // given (required), but blank or punctuation only
        return invalid_parameter("term",
                                 "term: required; accepted: a glossary slug (gpu-hour), a term's name in English or "
                                 "French (accents optional) or words to search for",
                                 "term\u202F: obligatoire\u202F; accepté\u202F: un identifiant du glossaire (gpu-hour), le nom d’un "
                                 "terme en anglais ou en français (accents facultatifs) ou des mots à chercher");
    auto const* doc = r.data.glossary(language);
    if (!doc)
        return glossary_unavailable(r.data);
    auto const other = language == locale::language::en ? locale::language::fr : locale::language::en;
    auto const found = glossary::lookup(*doc, *term, r.data.glossary(other));
    if (!found)
        return no_glossary_entry(*doc, *term);
    if (found->how == glossary::naming::exact) {
        auto a = published(render::resource::glossary_entry, found->slug, lang_query(language));
        a.lang = language;
        return a;
    }
    // A loose match answers, and says so: the words asked only start those of the term's name.
    auto const* sheet = r.data.current_sheet();
    if (!sheet)
        return glossary_unavailable(r.data);
    auto entry = render::glossary_entry_json(render::glossary_term_json(doc->find_term(found->slug)), language, *sheet);
    entry["match"] = {{"asked", *term}, {"how", "loose"}};
    answer a;
    a.document = std::move(entry);
    a.lang = language;
    return a;
}

struct glossary_input : input {
    argument q{this, {.name = "q",
                      .type = vt::string,
                      .description = "Words to search for in the terms' names, aliases and definitions (case and accents "
                                     "ignored)",
                      .max_length = rules::max_glossary_query_characters}};
    argument category{this, {"category", vt::string, "Only the terms of this category slug"}};
};

result glossary_search(request& r, glossary_input const& in)
{
    auto const& q = in.q();
    auto const& category = in.category();
    auto const language = r.lang;
    if (q && glossary::words(*q).empty())
        return invalid_parameter("q", "q: needs at least one letter or digit to search for",
                                 "q\u202F: il faut au moins une lettre ou un chiffre à chercher");
    auto const* doc = r.data.glossary(language);
    auto const* sheet = r.data.current_sheet();
    if (!doc || !sheet)
        return glossary_unavailable(r.data);
    glossary::category const* only = nullptr;
    if (category) {
        only = doc->find_category(*category);
        if (!only) {
            std::string slugs;
            for (auto const& c : doc->categories)
                slugs += (slugs.empty() ? "" : ", ") + c.slug;
            return invalid_parameter("category",
                                     "category: " + pricing::quote(*category) +
                                         " is not a glossary category; accepted: " + slugs,
                                     "category\u202F: " + pricing::quote(*category) +
                                         " n’est pas une catégorie du glossaire\u202F; accepté\u202F: " + slugs);
        }
    }
    if (!only && !q) {
        auto a = published(render::resource::glossary, {}, lang_query(language));
        a.lang = language;
        return a;
    }
    std::vector<glossary::term_ref> terms = q ? glossary::search(*doc, *q) : doc->terms();
    if (only)
        std::erase_if(terms, [&](glossary::term_ref const& t) { return t.cat != only; });
    // A search covers the questions too; a category holds terms only.
    std::optional<std::vector<glossary::entry const*>> questions;
    if (q && !only)
        questions = glossary::search_questions(*doc, *q);
    auto body = render::glossary_json(*doc, language, terms, questions, *sheet);
    if (category)
        body["category"] = *category;
    if (q)
        body["q"] = *q;
    auto a = computed(std::move(body));
    a.lang = language;
    return a;
}

}

answering explain_term() { return answered_by<term_input, explain>(); }
answering search_glossary() { return answered_by<glossary_input, glossary_search>(); }

}
