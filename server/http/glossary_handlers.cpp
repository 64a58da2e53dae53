// The glossary: unfiltered documents pre-rendered per language in the snapshot; filters and
// searches computed per request from the snapshot's resolved glossary.
#include "server/http/handlers.hpp"

#include "server/render/glossary_json.hpp"

#include "glossary/search.hpp"
#include "glossary/text.hpp"

#include <algorithm>
#include <string>

namespace lcg::http {

namespace {

namespace json = boost::json;

constexpr std::size_t max_query_bytes = 200;

// `lang` when given (refused unless en or fr), else what Accept-Language prefers, else English.
pricing::outcome<glossary::language> chosen_language(route_input& in)
{
    if (auto const lang = in.query.take("lang")) {
        if (auto const parsed = glossary::parse_language(*lang))
            return *parsed;
        return pricing::invalid("lang " + pricing::quote(*lang) + " is not a glossary language (accepted: en, fr)");
    }
    return glossary::negotiate_language(std::string_view(in.req[beast_http::field::accept_language]));
}

response in_language(response res, glossary::language lang)
{
    res.set(beast_http::field::content_language, glossary::to_string(lang));
    return res;
}

response glossary_unavailable(route_input& in)
{
    auto res = problem(in.req, beast_http::status::service_unavailable, in.snap().glossary_problem);
    res.set(beast_http::field::retry_after, "60");
    return res;
}

response document_in(route_input& in, std::string const& path, glossary::language lang)
{
    return in_language(document_at(in, path, "?lang=" + std::string(glossary::to_string(lang))), lang);
}

std::string category_slugs(glossary::document const& doc)
{
    std::string out;
    for (auto const& c : doc.categories) {
        if (!out.empty())
            out += ", ";
        out += c.slug;
    }
    return out;
}

}

response handle_glossary(route_input& in)
{
    auto const lang = chosen_language(in);
    if (!lang)
        return from_error(in.req, lang.err(), "lang");
    auto const category = in.query.take("category");
    auto const q = in.query.take("q");
    if (q && glossary::words(*q).empty())
        return bad_parameter(in.req, "q", "q needs at least one letter or digit to search for");
    if (q && q->size() > max_query_bytes)
        return bad_parameter(in.req, "q", "q is longer than " + std::to_string(max_query_bytes) + " bytes");
    if (!in.snap().glossary)
        return glossary_unavailable(in);

    auto const& doc = in.snap().glossary->in(*lang);
    glossary::category const* only = nullptr;
    if (category) {
        only = doc.find_category(*category);
        if (!only)
            return bad_parameter(in.req, "category",
                                 "category " + pricing::quote(*category) +
                                     " is not a glossary category (accepted: " + category_slugs(doc) + ")");
    }
    if (!only && !q)
        return document_in(in, "/v1/glossary", *lang);

    std::vector<glossary::term_ref> terms = q ? glossary::search(doc, *q) : doc.terms();
    if (only)
        std::erase_if(terms, [&](glossary::term_ref const& t) { return t.cat != only; });
    json::object body = render::glossary_json(doc, *lang, terms, false, in.snap().current->week);
    if (category)
        body["category"] = *category;
    if (q)
        body["q"] = *q;
    auto const unfiltered = in.snap().find_document("/v1/glossary", render::format::json,
                                                    "?lang=" + std::string(glossary::to_string(*lang)));
    return in_language(serve_computed(in, render::glossary_view, body,
                                      unfiltered ? std::optional(unfiltered->last_modified) : std::nullopt),
                       *lang);
}

response handle_glossary_term(route_input& in)
{
    auto const lang = chosen_language(in);
    if (!lang)
        return from_error(in.req, lang.err(), "lang");
    std::string const slug = percent_decode(in.captures[0], false).value_or(std::string(in.captures[0]));
    if (!in.snap().glossary)
        return glossary_unavailable(in);
    auto const& doc = in.snap().glossary->in(*lang);
    if (!doc.find_term(slug) && !doc.find_question(slug)) {
        json::array suggestions;
        for (auto& s : glossary::suggest(doc, slug))
            suggestions.push_back(json::value(std::move(s)));
        return problem(in.req, beast_http::status::not_found,
                       pricing::quote(slug) + " is not a glossary term; suggestions lists the closest slugs, "
                                              "/v1/glossary lists them all",
                       {{"suggestions", std::move(suggestions)}});
    }
    return document_in(in, "/v1/glossary/" + slug, *lang);
}

}
