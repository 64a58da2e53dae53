// Markdown of the methodology and of the glossary (both languages).
#include "render/markdown.hpp"

#include "render/markdown_text.hpp"

namespace lcg::render {

namespace {

namespace json = boost::json;
using md::at;
using md::escape;
using md::text;

// The few words the glossary pages add around the content, per language.
struct glossary_words {
    char const* title;
    char const* terms;
    char const* categories;
    char const* figures_from;
    char const* aliases;
    char const* related;
    char const* all_terms;
    char const* other_language;
    char const* search;
    char const* category;
    char const* none;
};

constexpr glossary_words english{"Glossary",      "terms",     "categories", "Figures quoted from the price sheet",
                                 "Also known as", "Related",   "All terms",  "En français",
                                 "Search",        "Category",  "No term matches."};
constexpr glossary_words french{"Glossaire",       "termes",     "catégories", "Chiffres tirés de la grille tarifaire",
                                "Autres noms",     "Voir aussi", "Tous les termes", "In English",
                                "Recherche",       "Catégorie",  "Aucun terme ne correspond."};

bool is_french(json::object const& o) { return text(o, "lang") == "fr"; }
glossary_words const& words_for(json::object const& o) { return is_french(o) ? french : english; }
std::string lang_query(json::object const& o) { return is_french(o) ? "?lang=fr" : ""; }

std::string related_links(json::array const& related, std::string const& query, links const& to)
{
    std::string out;
    for (auto const& r : related) {
        if (!out.empty())
            out += ", ";
        std::string const slug = text(r);
        out += md::link(slug, to("/v1/glossary/" + slug, query));
    }
    return out;
}

// How sheets are signed, the published keys and the stock commands that verify a sheet.
std::string signatures_section(json::object const& sig, links const& to)
{
    std::string out = "## Signatures\n\n";
    out += "- Algorithm: " + escape(text(sig, "algorithm")) + "\n";
    auto const& bytes = md::object_at(sig, "signed_bytes");
    out += "- Signed bytes: " + md::code(text(bytes, "url")) + ". " + escape(text(bytes, "format")) + "\n";
    out += "- Signature: " + escape(text(sig, "signature")) + "\n";
    out += "- Key id: " + escape(text(sig, "key_id")) + "\n";
    out += "- Keys: " + md::link(text(sig, "keys_url"), to(text(sig, "keys_url"))) + "; " +
           escape(text(sig, "validity")) + "\n\n";
    md::table keys{"Key id", "Valid from", "Valid until"};
    for (auto const& v : md::array_at(sig, "keys")) {
        auto const& k = v.get_object();
        keys.row({md::link(text(k, "key_id"), text(k, "pem_url")), text(k, "valid_from"),
                  at(k, "valid_until").is_string() ? text(k, "valid_until") : "in use"});
    }
    out += md::array_at(sig, "keys").empty() ? "No public key is configured on this server.\n" : keys.str();
    out += "\nTo verify a sheet with stock tools:\n\n";
    for (auto const& step : md::array_at(sig, "how_to_verify"))
        out += "    " + text(step) + "\n";
    return out + "\nThen check " + escape(text(sig, "also_check")) + ".\n\n";
}

}

std::string methodology_markdown(json::object const& m, links const& to)
{
    std::string out = "# Pricing methodology\n\n";
    out += escape(text(m, "summary")) + "\n\n";
    out += "Money: " + escape(text(m, "money")) + ".\n\n";
    out += "## Constants\n\n";
    md::table constants{"Constant", "Value"};
    for (auto const& [key, value] : md::object_at(m, "constants"))
        constants.row({md::code(key), escape(text(value))});
    out += constants.str();
    out += "\n## Rules\n\n";
    for (auto const& v : md::array_at(m, "rules")) {
        auto const& r = v.get_object();
        out += "### " + escape(text(r, "id")) + "\n\n" + escape(text(r, "rule")) + "\n\n    " + text(r, "formula") + "\n\n";
    }
    out += "## How to audit a sheet\n\n";
    int n = 1;
    for (auto const& step : md::array_at(m, "how_to_audit"))
        out += std::to_string(n++) + ". " + escape(text(step)) + "\n";
    auto const& csv = md::object_at(m, "canonical_csv");
    out += "\n## Canonical observations CSV\n\n";
    out += "- Columns: " + md::code(text(csv, "columns")) + "\n";
    out += "- Order: " + escape(text(csv, "order")) + "\n";
    out += "- Format: " + escape(text(csv, "format")) + "\n";
    out += "- Provenance: " + escape(text(csv, "provenance")) + "\n\n";
    out += "\n" + billing_section(md::object_at(m, "billing")) + "\n";
    out += signatures_section(md::object_at(m, "signatures"), to);
    out += md::link("Current prices", to("/v1/prices")) + " · " + md::link("sheets history", to("/v1/sheets")) + "\n";
    return out;
}

std::string glossary_markdown(json::object const& g, links const& to)
{
    auto const& w = words_for(g);
    std::string const query = lang_query(g);
    std::string out = "# " + std::string(w.title) + "\n\n";
    out += text(g, "count") + " " + w.terms + ", " + std::to_string(md::array_at(g, "categories").size()) + " " +
           w.categories + ". " + w.figures_from + " " + md::link(text(g, "week"), to("/v1/prices")) + ". " +
           md::link(w.other_language, to("/v1/glossary", is_french(g) ? "" : "?lang=fr")) + "\n\n";
    if (g.contains("q"))
        out += "**" + std::string(w.search) + "**: " + escape(text(g, "q")) + "\n\n";
    if (g.contains("category"))
        out += "**" + std::string(w.category) + "**: " + md::code(text(g, "category")) + "\n\n";
    if (g.contains("q") || g.contains("category"))
        out += md::link(w.all_terms, to("/v1/glossary", query)) + "\n\n";

    auto const& terms = md::array_at(g, "terms");
    if (terms.empty())
        out += std::string(w.none) + "\n";
    for (auto const& cv : md::array_at(g, "categories")) {
        auto const& c = cv.get_object();
        std::string const slug = text(c, "slug");
        bool heading = false;
        for (auto const& tv : terms) {
            auto const& t = tv.get_object();
            if (text(t, "category") != slug)
                continue;
            if (!heading)
                out += "## " + escape(text(c, "name")) + "\n\n";
            heading = true;
            out += "### " + md::link(text(t, "name"), to("/v1/glossary/" + text(t, "slug"), query)) + "\n\n" +
                   escape(text(t, "definition")) + "\n\n";
        }
    }
    if (auto const& questions = md::array_at(g, "questions"); !questions.empty()) {
        out += "## " + escape(text(g, "questions_name")) + "\n\n";
        for (auto const& qv : questions) {
            auto const& q = qv.get_object();
            out += "### " + md::link(text(q, "question"), to("/v1/glossary/" + text(q, "slug"), query)) + "\n\n" +
                   escape(text(q, "answer")) + "\n\n";
        }
    }
    return out;
}

std::string glossary_entry_markdown(json::object const& e, links const& to)
{
    auto const& w = words_for(e);
    std::string const query = lang_query(e);
    bool const question = e.contains("question");
    std::string out = "# " + escape(text(e, question ? "question" : "name")) + "\n\n";
    if (!question)
        out += "*" + escape(text(e, "category_name")) + "* · ";
    out += std::string(w.figures_from) + " " + md::link(text(e, "week"), to("/v1/prices")) + ".\n\n";
    out += escape(text(e, question ? "answer" : "definition")) + "\n\n";
    if (auto const& aliases = md::array_at(e, "aliases"); !aliases.empty())
        out += "- " + std::string(w.aliases) + ": " + md::list(aliases) + "\n";
    out += "- " + std::string(w.related) + ": " + related_links(md::array_at(e, "related"), query, to) + "\n\n";
    std::string const other_query = is_french(e) ? "" : "?lang=fr";
    out += md::link(w.all_terms, to("/v1/glossary", query)) + " · " +
           md::link(w.other_language, to("/v1/glossary/" + text(e, "slug"), other_query)) + "\n";
    return out;
}

}
