#include "glossary/validation.hpp"

#include "glossary/placeholders.hpp"
#include "glossary/text.hpp"

#include <algorithm>
#include <iterator>
#include <map>

namespace lcg::glossary {

namespace {

class report {
public:
    explicit report(document const& doc) : doc_(doc) {}

    void add(int line, std::string const& reason) { problems_.push_back({line, doc_.location(line) + ": " + reason}); }

    std::vector<std::string> take()
    {
        std::stable_sort(problems_.begin(), problems_.end(),
                         [](auto const& a, auto const& b) { return a.first < b.first; });
        std::vector<std::string> out;
        for (auto& p : problems_)
            out.push_back(std::move(p.second));
        return out;
    }

private:
    document const& doc_;
    std::vector<std::pair<int, std::string>> problems_;
};

std::string joined(std::vector<std::string> items)
{
    std::string out;
    for (auto const& item : items) {
        if (!out.empty())
            out += ", ";
        out += item;
    }
    return out.empty() ? "nothing" : out;
}

std::vector<std::string> sorted(std::vector<std::string> v)
{
    std::sort(v.begin(), v.end());
    return v;
}

std::vector<std::string> sorted_placeholders(std::string_view text)
{
    std::vector<std::string> out;
    for (auto const p : placeholders_in(text))
        out.emplace_back(p);
    return sorted(std::move(out));
}

// Last line that holds something, for problems about what is missing at the end.
int last_line(document const& doc)
{
    int line = std::max(1, doc.questions_line);
    for (auto const& c : doc.categories) {
        line = std::max(line, c.line);
        for (auto const& t : c.terms)
            line = std::max(line, t.text_line);
    }
    for (auto const& q : doc.questions)
        line = std::max(line, q.text_line);
    return line;
}

void check_categories(document const& doc, report& r)
{
    std::size_t const expected = std::size(expected_categories);
    for (std::size_t i = 0; i < doc.categories.size(); ++i) {
        auto const& c = doc.categories[i];
        if (i >= expected) {
            r.add(c.line, "category " + pricing::quote(c.slug) + " is one too many: the glossary has " +
                              std::to_string(expected) + " categories");
            continue;
        }
        auto const& want = expected_categories[i];
        if (c.slug != want.slug)
            r.add(c.line, "expected the category " + pricing::quote(want.slug) + " here, found " + pricing::quote(c.slug));
        else if (c.terms.size() != want.terms)
            r.add(c.line, "category " + pricing::quote(c.slug) + " has " + std::to_string(c.terms.size()) +
                              " terms; it must have " + std::to_string(want.terms));
    }
    for (std::size_t i = doc.categories.size(); i < expected; ++i)
        r.add(last_line(doc), "the category " + pricing::quote(expected_categories[i].slug) + " is missing");
}

void check_questions(document const& doc, report& r)
{
    if (doc.questions_line == 0) {
        r.add(last_line(doc), "no '# questions | <display name>' section after the categories");
        return;
    }
    std::size_t const expected = std::size(expected_questions);
    if (doc.questions.size() != expected)
        r.add(doc.questions_line, "the questions section has " + std::to_string(doc.questions.size()) +
                                      " entries; it must have " + std::to_string(expected));
    for (std::size_t i = 0; i < std::min(expected, doc.questions.size()); ++i)
        if (doc.questions[i].slug != expected_questions[i])
            r.add(doc.questions[i].line, "expected the question " + pricing::quote(expected_questions[i]) +
                                             " here, found " + pricing::quote(doc.questions[i].slug));
}

void check_entry(document const& doc, entry const& e, bool is_question, report& r)
{
    std::string const what = pricing::quote(e.slug);
    for (auto const& rel : e.related) {
        if (rel == e.slug)
            r.add(e.related_line, what + " relates to itself");
        else if (!doc.find_term(rel))
            r.add(e.related_line, what + " relates to " + pricing::quote(rel) + ", which is not a term of " + doc.file);
    }
    if (e.related.empty())
        r.add(e.related_line, what + " relates to nothing; list 1 to 4 slugs");
    if (e.name.find("{{") != std::string::npos)
        r.add(e.line, "a placeholder in the name of " + what + " (only texts may hold them)");
    for (auto const& alias : e.aliases)
        if (alias.find("{{") != std::string::npos)
            r.add(e.line, "a placeholder in an alias of " + what + " (only texts may hold them)");

    std::size_t const sentences = split_sentences(e.text).size();
    std::size_t const low = is_question ? min_answer_sentences : 1;
    std::size_t const high = is_question ? max_answer_sentences : max_definition_sentences;
    char const* noun = is_question ? "the answer" : "the definition";
    if (sentences == 0)
        r.add(e.text_line, std::string(noun) + " of " + what + " is empty");
    else if (sentences < low || sentences > high)
        r.add(e.text_line, std::string(noun) + " of " + what + " has " + std::to_string(sentences) +
                               (sentences == 1 ? " sentence" : " sentences") + "; it must have " +
                               std::to_string(low) + " to " + std::to_string(high));
    if (auto const problem = check_placeholders(e.text); !problem.empty())
        r.add(e.text_line, problem);
}

// The counterpart of `e` in the other file: a term or a question with the same slug.
entry const* counterpart(document const& other, entry const& e)
{
    if (auto const t = other.find_term(e.slug))
        return t.term;
    return other.find_question(e.slug);
}

}

std::vector<std::string> check_document(document const& doc)
{
    report r(doc);
    check_categories(doc, r);
    check_questions(doc, r);
    std::map<std::string, int, std::less<>> seen;
    auto const check_unique = [&](entry const& e) {
        if (auto [it, added] = seen.emplace(e.slug, e.line); !added)
            r.add(e.line, "the slug " + pricing::quote(e.slug) + " is already used at " + doc.location(it->second));
    };
    for (auto const& c : doc.categories)
        for (auto const& t : c.terms) {
            check_unique(t);
            check_entry(doc, t, false, r);
        }
    for (auto const& q : doc.questions) {
        check_unique(q);
        check_entry(doc, q, true, r);
    }
    return r.take();
}

std::vector<std::string> check_translation(document const& en, document const& fr)
{
    std::vector<std::string> problems = check_document(en);
    for (auto& p : check_document(fr))
        problems.push_back(std::move(p));

    report r(fr);
    for (std::size_t i = 0; i < std::min(en.categories.size(), fr.categories.size()); ++i)
        if (en.categories[i].slug != fr.categories[i].slug)
            r.add(fr.categories[i].line, "category " + pricing::quote(fr.categories[i].slug) + " where " +
                                             en.location(en.categories[i].line) + " has " +
                                             pricing::quote(en.categories[i].slug));

    // Order: the first place the lists part ways (everything after it would differ too).
    auto const order = [&](std::vector<std::pair<std::string, entry const*>> const& a,
                           std::vector<std::pair<std::string, entry const*>> const& b, char const* what) {
        for (std::size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
            if (i < a.size() && i < b.size() && a[i].first == b[i].first)
                continue;
            if (i >= b.size())
                r.add(last_line(fr), std::string(what) + " " + pricing::quote(a[i].first) + " of " +
                                         en.location(a[i].second->line) + " is missing");
            else if (i >= a.size())
                r.add(b[i].second->line, std::string(what) + " " + pricing::quote(b[i].first) + " is not in " + en.file);
            else
                r.add(b[i].second->line, "found " + pricing::quote(b[i].first) + " where " +
                                             en.location(a[i].second->line) + " has " + pricing::quote(a[i].first) +
                                             " (both files list the same " + what + "s in the same order)");
            return;
        }
    };
    auto const flatten_terms = [](document const& d) {
        std::vector<std::pair<std::string, entry const*>> out;
        for (auto const& t : d.terms())
            out.emplace_back(t.cat->slug + "/" + t.term->slug, t.term);
        return out;
    };
    auto const flatten_questions = [](document const& d) {
        std::vector<std::pair<std::string, entry const*>> out;
        for (auto const& q : d.questions)
            out.emplace_back(q.slug, &q);
        return out;
    };
    order(flatten_terms(en), flatten_terms(fr), "term");
    order(flatten_questions(en), flatten_questions(fr), "question");

    auto const compare = [&](entry const& f) {
        entry const* e = counterpart(en, f);
        if (!e)
            return;
        if (sorted(e->related) != sorted(f.related))
            r.add(f.related_line, pricing::quote(f.slug) + " relates to " + joined(f.related) + " but " +
                                      en.location(e->related_line) + " to " + joined(e->related));
        if (sorted_placeholders(e->text) != sorted_placeholders(f.text))
            r.add(f.text_line, pricing::quote(f.slug) + " quotes " + joined(sorted_placeholders(f.text)) + " but " +
                                   en.location(e->text_line) + " quotes " + joined(sorted_placeholders(e->text)));
    };
    for (auto const& t : fr.terms())
        compare(*t.term);
    for (auto const& q : fr.questions)
        compare(q);

    for (auto& p : r.take())
        problems.push_back(std::move(p));
    return problems;
}

}
