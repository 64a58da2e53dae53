#include "glossary/search.hpp"

#include "locale/folding.hpp"

#include "glossary/text.hpp"

#include "pricing/rules.hpp"

#include <algorithm>
#include <limits>

namespace lcg::glossary {

namespace {

bool starts_some(std::vector<std::string> const& haystack, std::string const& prefix)
{
    return std::any_of(haystack.begin(), haystack.end(), [&](std::string const& w) { return w.starts_with(prefix); });
}

bool all_found(std::vector<std::string> const& query, std::vector<std::string> const& haystack)
{
    return std::all_of(query.begin(), query.end(), [&](std::string const& q) { return starts_some(haystack, q); });
}

// Whether `wanted` starts consecutive words of `name`, the first wanted word starting one of them.
bool starts_in_order(std::vector<std::string> const& wanted, std::vector<std::string> const& name)
{
    for (std::size_t at = 0; at + wanted.size() <= name.size(); ++at) {
        std::size_t i = 0;
        while (i < wanted.size() && name[at + i].starts_with(wanted[i]))
            ++i;
        if (i == wanted.size())
            return true;
    }
    return false;
}

// Whether `holds` is true of the words of the entry's name or of one of its aliases.
template <class Predicate>
bool some_name(entry const& e, Predicate holds)
{
    return holds(words(e.name)) ||
           std::any_of(e.aliases.begin(), e.aliases.end(), [&](std::string const& a) { return holds(words(a)); });
}

std::vector<std::string> name_words(entry const& e)
{
    std::vector<std::string> out = words(e.name);
    for (auto const& alias : e.aliases)
        for (auto& w : words(alias))
            out.push_back(std::move(w));
    return out;
}

std::string as_slug(std::string_view text)
{
    std::string out;
    for (auto const& w : words(text)) {
        if (!out.empty())
            out += '-';
        out += w;
    }
    return out;
}

struct candidate {
    std::string slug;
    bool contains = false;
    std::size_t distance = std::numeric_limits<std::size_t>::max();
};

void score(candidate& c, std::string const& wanted, std::string const& key)
{
    if (key.empty())
        return;
    bool const contains = key.find(wanted) != std::string::npos ||
                          (key.size() >= 4 && wanted.find(key) != std::string::npos);
    std::size_t const distance = edit_distance(wanted, key);
    if (contains > c.contains || (contains == c.contains && distance < c.distance)) {
        c.contains = contains;
        c.distance = distance;
    }
}

}

std::vector<term_ref> search(document const& doc, std::string_view query)
{
    std::vector<std::string> const wanted = words(query);
    if (wanted.empty())
        return {};
    std::vector<term_ref> by_name;
    std::vector<term_ref> by_text;
    for (auto const& ref : doc.terms()) {
        std::vector<std::string> haystack = name_words(*ref.term);
        if (all_found(wanted, haystack)) {
            by_name.push_back(ref);
            continue;
        }
        for (auto& w : words(ref.term->text))
            haystack.push_back(std::move(w));
        if (all_found(wanted, haystack))
            by_text.push_back(ref);
    }
    by_name.insert(by_name.end(), by_text.begin(), by_text.end());
    return by_name;
}

std::vector<entry const*> search_questions(document const& doc, std::string_view query)
{
    std::vector<std::string> const wanted = words(query);
    if (wanted.empty())
        return {};
    std::vector<entry const*> by_name;
    std::vector<entry const*> by_text;
    for (auto const& q : doc.questions) {
        std::vector<std::string> haystack = name_words(q);
        if (all_found(wanted, haystack)) {
            by_name.push_back(&q);
            continue;
        }
        for (auto& w : words(q.text))
            haystack.push_back(std::move(w));
        if (all_found(wanted, haystack))
            by_text.push_back(&q);
    }
    by_name.insert(by_name.end(), by_text.begin(), by_text.end());
    return by_name;
}

std::vector<std::string> suggest(document const& doc, std::string_view unknown, std::size_t count)
{
    // The edit distance grows with the input's length: past the longest slug more bytes only add cost.
    std::string wanted = as_slug(unknown);
    if (wanted.size() > pricing::rules::max_glossary_suggestion_bytes)
        wanted.resize(pricing::rules::max_glossary_suggestion_bytes);
    std::vector<candidate> candidates;
    auto const consider = [&](entry const& e) {
        candidate c{e.slug};
        score(c, wanted, e.slug);
        score(c, wanted, as_slug(e.name));
        for (auto const& alias : e.aliases)
            score(c, wanted, as_slug(alias));
        candidates.push_back(std::move(c));
    };
    for (auto const& ref : doc.terms())
        consider(*ref.term);
    for (auto const& q : doc.questions)
        consider(q);
    std::stable_sort(candidates.begin(), candidates.end(), [](candidate const& a, candidate const& b) {
        if (a.contains != b.contains)
            return a.contains;
        return a.distance < b.distance;
    });
    std::vector<std::string> out;
    for (std::size_t i = 0; i < std::min(count, candidates.size()); ++i)
        out.push_back(std::move(candidates[i].slug));
    return out;
}

std::optional<named_entry> lookup(document const& doc, std::string_view text, document const* other)
{
    std::string const folded = locale::fold(text);
    if (doc.find_term(folded) || doc.find_question(folded))
        return named_entry{folded};
    auto const wanted = words(text);
    if (wanted.empty())
        return std::nullopt;
    for (auto const* in : {&doc, other}) {
        if (!in)
            continue;
        for (auto const& t : in->terms())
            if (some_name(*t.term, [&](std::vector<std::string> const& name) { return name == wanted; }) &&
                doc.find_term(t.term->slug))
                return named_entry{t.term->slug};
    }
    // Words of one or two letters start too many names to name one: a near miss gets suggestions.
    if (folded.size() < 3)
        return std::nullopt;
    for (auto const& t : doc.terms())
        if (some_name(*t.term, [&](std::vector<std::string> const& name) { return starts_in_order(wanted, name); }))
            return named_entry{t.term->slug, naming::loose};
    return std::nullopt;
}

}
