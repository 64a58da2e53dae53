// Markdown of the methodology and of the glossary (both languages).
#include "render/markdown.hpp"
#include "render/resources.hpp"

#include "render/markdown_text.hpp"

namespace lcg::render {

namespace {

namespace json = boost::json;
using namespace md::reading;

// The link to the page in the other language names it, English included, since the French page
// links to it; the other links follow the page's language (links add it).
std::string lang_query(links const& to) { return to.lang == language::fr ? "?lang=fr" : ""; }
std::string other_query(links const& to) { return to.lang == language::fr ? "?lang=en" : "?lang=fr"; }

std::string related_links(json::array const& related, std::string const& query, links const& to)
{
    std::string out;
    for (auto const& r : related) {
        if (!out.empty())
            out += ", ";
        std::string const slug = text(r);
        out += md::link(slug, to(path_of(resource::glossary_entry, slug), query));
    }
    return out;
}

// How sheets are signed, the published keys and the stock commands that verify a sheet.
std::string signatures_section(json::object const& sig, links const& to)
{
    auto const l = to.lang;
    std::string out = "## " + say(l, "method_md.signatures") + "\n\n";
    out += "- " + say(l, "method_md.algorithm", {{"algorithm", escape(text(sig, "algorithm"))}}) + "\n";
    auto const& bytes = md::object_at(sig, "signed_bytes");
    out += "- " + say(l, "method_md.signed_bytes", {{"url", md::code(text(bytes, "url"))}, {"format", escape(text(bytes, "format"))}}) +
           "\n";
    out += "- " + say(l, "method_md.signature", {{"signature", escape(text(sig, "signature"))}}) + "\n";
    out += "- " + say(l, "method_md.key_id", {{"key_id", escape(text(sig, "key_id"))}}) + "\n";
    out += "- " + say(l, "method_md.keys", {{"link", md::link(text(sig, "keys_url"), to(text(sig, "keys_url")))},
                                            {"validity", escape(text(sig, "validity"))}}) + "\n\n";
    md::table keys{say(l, "col.key_id"), say(l, "col.valid_from"), say(l, "col.valid_until")};
    for (auto const& v : md::array_at(sig, "keys")) {
        auto const& k = v.get_object();
        keys.row({md::link(text(k, "key_id"), text(k, "pem_url")), text(k, "valid_from"),
                  at(k, "valid_until").is_string() ? text(k, "valid_until") : say(l, "method_md.in_use")});
    }
    out += md::array_at(sig, "keys").empty() ? say(l, "method_md.no_key") + "\n" : keys.str();
    out += "\n" + say(l, "method_md.verify") + "\n\n";
    for (auto const& step : md::array_at(sig, "how_to_verify"))
        out += "    " + text(step) + "\n";
    out += "\n" + say(l, "method_md.then_check", {{"what", escape(text(sig, "also_check"))}}) + "\n\n";
    return out + escape(text(md::object_at(sig, "catalog"), "covers")) + "\n\n";
}

}

namespace {

// The GPU lifecycle: its states, each move with what it needs, the two kinds of GPU, a VM type change.
std::string lifecycle_section(json::object const& life, language l)
{
    std::string out = "## " + say(l, "method_md.lifecycle") + "\n\n";
    for (auto const& v : md::array_at(life, "states"))
        out += "- " + md::code(text(v.as_object(), "id")) + say(l, "colon") + escape(text(v.as_object(), "meaning")) + "\n";
    md::table moves{say(l, "col.action"), say(l, "col.from"), say(l, "col.to"), say(l, "col.needs"), say(l, "col.note")};
    for (auto const& v : md::array_at(life, "moves")) {
        auto const& m = v.as_object();
        std::string needs;
        for (auto const& n : md::array_at(m, "needs"))
            needs += (needs.empty() ? "" : say(l, "semicolon") + " ") + escape(text(n.as_object(), "meaning"));
        moves.row({md::code(text(m, "action")), text(m, "from"), text(m, "to"), needs.empty() ? "—" : needs,
                   escape(text(m, "meaning"))});
    }
    out += "\n" + moves.str() + "\n";
    for (auto const& v : md::array_at(life, "kinds"))
        out += "- " + md::code(text(v.as_object(), "id")) + say(l, "colon") + escape(text(v.as_object(), "meaning")) + "\n";
    return out + "\n" + escape(text(life, "vm_type_change")) + "\n\n";
}

}

std::string methodology_markdown(json::object const& m, links const& to)
{
    auto const l = to.lang;
    std::string out = "# " + say(l, "method_md.title") + "\n\n";
    out += escape(text(m, "summary")) + "\n\n";
    out += say(l, "method_md.money", {{"money", escape(text(m, "money"))}}) + "\n\n";
    out += "## " + say(l, "method_md.constants") + "\n\n";
    md::table constants{say(l, "col.constant"), say(l, "col.value")};
    for (auto const& [key, value] : md::object_at(m, "constants"))
        constants.row({md::code(key), escape(shown(l, value))});
    out += constants.str();
    out += "\n## " + say(l, "method_md.rules") + "\n\n";
    for (auto const& v : md::array_at(m, "rules")) {
        auto const& r = v.get_object();
        out += "### " + escape(text(r, "id")) + "\n\n" + escape(text(r, "rule")) + "\n\n    " + text(r, "formula") + "\n\n";
    }
    out += "## " + say(l, "method_md.sources") + "\n\n" +
           say(l, "method_md.sources_intro", {{"link", md::link(path_of(resource::sources), to(path_of(resource::sources)))}}) + "\n\n" +
           md::sources_table(l, md::array_at(m, "sources")) + "\n";
    out += "## " + say(l, "method_md.audit") + "\n\n";
    int n = 1;
    for (auto const& step : md::array_at(m, "how_to_audit"))
        out += std::to_string(n++) + ". " + escape(text(step)) + "\n";
    auto const& csv = md::object_at(m, "canonical_csv");
    out += "\n## " + say(l, "method_md.csv") + "\n\n";
    out += "- " + say(l, "method_md.columns", {{"columns", md::code(text(csv, "columns"))}}) + "\n";
    out += "- " + say(l, "method_md.order", {{"order", escape(text(csv, "order"))}}) + "\n";
    out += "- " + say(l, "method_md.format", {{"format", escape(text(csv, "format"))}}) + "\n";
    out += "- " + say(l, "method_md.provenance", {{"provenance", escape(text(csv, "provenance"))}}) + "\n\n";
    out += "\n" + billing_section(md::object_at(m, "billing"), l) + "\n";
    out += lifecycle_section(md::object_at(m, "gpu_lifecycle"), l);
    out += signatures_section(md::object_at(m, "signatures"), to);
    out += md::link(say(l, "method_md.current_prices"), to(path_of(resource::prices))) + " · " +
           md::link(say(l, "audit.sheets_history"), to(path_of(resource::sheets))) + "\n";
    return out;
}

std::string glossary_markdown(json::object const& g, links const& to)
{
    auto const l = to.lang;
    std::string const query = lang_query(to);
    std::string out = "# " + say(l, "glossary.title") + "\n\n";
    out += say(l, "glossary.counts", {{"terms", text(g, "count")},
                                      {"categories", std::to_string(md::array_at(g, "categories").size())}}) +
           " " + say(l, "glossary.figures_from", {{"week", md::link(text(g, "week"), to(path_of(resource::prices)))}}) + ". " +
           md::link(say(l, "other_language"), to(path_of(resource::glossary), other_query(to))) + "\n\n";
    if (g.contains("q"))
        out += say(l, "glossary.search", {{"q", escape(text(g, "q"))}}) + "\n\n";
    if (g.contains("category"))
        out += say(l, "glossary.category", {{"category", md::code(text(g, "category"))}}) + "\n\n";
    if (g.contains("q") || g.contains("category"))
        out += md::link(say(l, "glossary.all_terms"), to(path_of(resource::glossary), query)) + "\n\n";

    auto const& terms = md::array_at(g, "terms");
    if (terms.empty())
        out += say(l, "glossary.none") + "\n";
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
            out += "### " + md::link(text(t, "name"), to(path_of(resource::glossary_entry, text(t, "slug")), query)) + "\n\n" +
                   escape(text(t, "definition")) + "\n\n";
        }
    }
    if (auto const& questions = md::array_at(g, "questions"); !questions.empty()) {
        out += "## " + escape(text(g, "questions_name")) + "\n\n";
        for (auto const& qv : questions) {
            auto const& q = qv.get_object();
            out += "### " + md::link(text(q, "question"), to(path_of(resource::glossary_entry, text(q, "slug")), query)) + "\n\n" +
                   escape(text(q, "answer")) + "\n\n";
        }
    }
    return out;
}

std::string glossary_entry_markdown(json::object const& e, links const& to)
{
    auto const l = to.lang;
    std::string const query = lang_query(to);
    bool const question = e.contains("question");
    std::string out = "# " + escape(text(e, question ? "question" : "name")) + "\n\n";
    if (!question)
        out += "*" + escape(text(e, "category_name")) + "* · ";
    out += say(l, "glossary.figures_from", {{"week", md::link(text(e, "week"), to(path_of(resource::prices)))}}) + ".\n\n";
    if (auto const* match = e.if_contains("match"))
        out += "> " + say(l, "glossary.loose_match", {{"asked", md::code(text(match->as_object(), "asked"))}}) + "\n\n";
    out += escape(text(e, question ? "answer" : "definition")) + "\n\n";
    if (auto const& aliases = md::array_at(e, "aliases"); !aliases.empty())
        out += "- " + say(l, "glossary.aliases", {{"aliases", md::list(aliases)}}) + "\n";
    out += "- " + say(l, "glossary.related", {{"related", related_links(md::array_at(e, "related"), query, to)}}) +
           "\n\n";
    out += md::link(say(l, "glossary.all_terms"), to(path_of(resource::glossary), query)) + " · " +
           md::link(say(l, "other_language"), to(path_of(resource::glossary_entry, text(e, "slug")), other_query(to))) + "\n";
    return out;
}

}
