#include "glossary/document.hpp"

#include "glossary/text.hpp"

#include "pricing/lines.hpp"

#include <algorithm>
#include <optional>

namespace lcg::glossary {

namespace {

constexpr std::size_t max_related = 4;

bool is_blank(std::string_view line) { return trim(line).empty(); }

std::vector<std::string_view> split_list(std::string_view text)
{
    std::vector<std::string_view> out;
    while (true) {
        auto const comma = text.find(',');
        out.push_back(trim(text.substr(0, comma)));
        if (comma == std::string_view::npos)
            return out;
        text.remove_prefix(comma + 1);
    }
}

class parser {
public:
    parser(std::string_view file, std::string_view text)
    {
        doc_.file = std::string(file);
        while (!text.empty()) {
            std::string_view line = pricing::take_line(text);
            if (line.ends_with('\r'))
                line.remove_suffix(1);
            lines_.push_back(line);
        }
    }

    pricing::outcome<document> run()
    {
        while (at_ < lines_.size()) {
            std::string_view const line = lines_[at_];
            if (is_blank(line)) {
                ++at_;
                continue;
            }
            std::optional<pricing::error> e;
            if (line.starts_with("## "))
                e = parse_entry();
            else if (line.starts_with("# "))
                e = parse_heading();
            else
                e = fail(line_no(), "unexpected text outside a term (a term starts with '## <name>')");
            if (e)
                return *e;
        }
        return std::move(doc_);
    }

private:
    int line_no() const { return static_cast<int>(at_) + 1; }

    pricing::error fail(int line, std::string const& reason) const
    {
        return pricing::invalid(doc_.location(line) + ": " + reason);
    }

    std::optional<pricing::error> parse_heading()
    {
        std::string_view const line = lines_[at_];
        int const here = line_no();
        ++at_;
        if (line.starts_with("# category:")) {
            if (in_questions_)
                return fail(here, "categories must come before the '# questions' section");
            std::string_view const rest = line.substr(11);
            auto const bar = rest.find('|');
            if (bar == std::string_view::npos)
                return fail(here, "expected '# category: <slug> | <display name>'");
            category c;
            c.slug = std::string(trim(rest.substr(0, bar)));
            c.name = std::string(trim(rest.substr(bar + 1)));
            c.line = here;
            if (!is_slug(c.slug))
                return fail(here, pricing::quote(c.slug) + " is not a slug (lower-case letters, digits, hyphens)");
            if (c.name.empty())
                return fail(here, "category " + pricing::quote(c.slug) + " has no display name after '|'");
            doc_.categories.push_back(std::move(c));
            return std::nullopt;
        }
        if (line.starts_with("# questions")) {
            if (in_questions_)
                return fail(here, "a second '# questions' section");
            std::string_view const rest = trim(line.substr(11));
            if (!rest.starts_with('|') || trim(rest.substr(1)).empty())
                return fail(here, "expected '# questions | <display name>'");
            doc_.questions_name = std::string(trim(rest.substr(1)));
            doc_.questions_line = here;
            in_questions_ = true;
            return std::nullopt;
        }
        return fail(here, "unknown heading: expected '# category: <slug> | <display name>' or "
                          "'# questions | <display name>'");
    }

    std::optional<pricing::error> parse_entry()
    {
        int const heading = line_no();
        entry e;
        e.name = std::string(trim(lines_[at_].substr(3)));
        e.line = heading;
        ++at_;
        if (e.name.empty())
            return fail(heading, "a term needs a name after '## '");
        if (!in_questions_ && doc_.categories.empty())
            return fail(heading, pricing::quote(e.name) + " comes before any '# category:' line");
        std::string const what = pricing::quote(e.name);

        bool has_slug = false;
        bool has_related = false;
        bool has_aliases = false;
        for (; at_ < lines_.size() && !is_blank(lines_[at_]); ++at_) {
            std::string_view const line = lines_[at_];
            auto const colon = line.find(':');
            std::string_view const key = colon == std::string_view::npos ? std::string_view{} : trim(line.substr(0, colon));
            std::string_view const value = colon == std::string_view::npos ? std::string_view{} : trim(line.substr(colon + 1));
            bool* seen = key == "slug" ? &has_slug : key == "related" ? &has_related : key == "aliases" ? &has_aliases : nullptr;
            if (!seen)
                return fail(line_no(), "expected 'slug: …', 'related: …' or 'aliases: …' under " + what +
                                           ", then a blank line before the definition");
            if (*seen)
                return fail(line_no(), what + " has a second '" + std::string(key) + ":' line");
            *seen = true;
            if (key == "slug") {
                if (!is_slug(value))
                    return fail(line_no(), pricing::quote(value) + " is not a slug (lower-case letters, digits, hyphens)");
                e.slug = std::string(value);
            } else if (key == "related") {
                e.related_line = line_no();
                for (auto const item : split_list(value)) {
                    if (!is_slug(item))
                        return fail(line_no(), "related: " + pricing::quote(item) + " is not a slug");
                    if (std::find(e.related.begin(), e.related.end(), item) != e.related.end())
                        return fail(line_no(), "related: " + pricing::quote(item) + " is listed twice");
                    e.related.emplace_back(item);
                }
                if (e.related.size() > max_related)
                    return fail(line_no(), what + " relates to " + std::to_string(e.related.size()) +
                                               " slugs; at most 4 are allowed");
            } else {
                for (auto const item : split_list(value)) {
                    if (item.empty())
                        return fail(line_no(), "aliases: an empty alias (check the commas)");
                    e.aliases.emplace_back(item);
                }
            }
        }
        if (!has_slug)
            return fail(heading, what + " has no 'slug:' line");
        if (!has_related)
            return fail(heading, what + " has no 'related:' line (1 to 4 slugs)");
        if (at_ >= lines_.size())
            return fail(heading, what + " has no definition");
        ++at_;  // the blank line after the metadata
        if (at_ >= lines_.size() || is_blank(lines_[at_]) || lines_[at_].starts_with('#'))
            return fail(at_ < lines_.size() ? line_no() : heading,
                        what + " has no definition: put it on the line right after the blank line");
        e.text = std::string(trim(lines_[at_]));
        e.text_line = line_no();
        ++at_;
        if (at_ < lines_.size() && !is_blank(lines_[at_]))
            return fail(line_no(), "the definition of " + what + " must be on one line, followed by a blank line");

        if (in_questions_)
            doc_.questions.push_back(std::move(e));
        else
            doc_.categories.back().terms.push_back(std::move(e));
        return std::nullopt;
    }

    document doc_;
    std::vector<std::string_view> lines_;
    std::size_t at_ = 0;
    bool in_questions_ = false;
};

}

bool is_slug(std::string_view text)
{
    if (text.empty() || text.front() == '-' || text.back() == '-' || text.find("--") != std::string_view::npos)
        return false;
    return std::all_of(text.begin(), text.end(),
                       [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'; });
}

std::vector<term_ref> document::terms() const
{
    std::vector<term_ref> out;
    out.reserve(term_count());
    for (auto const& c : categories)
        for (auto const& t : c.terms)
            out.push_back({&c, &t});
    return out;
}

std::size_t document::term_count() const
{
    std::size_t n = 0;
    for (auto const& c : categories)
        n += c.terms.size();
    return n;
}

term_ref document::find_term(std::string_view slug) const
{
    for (auto const& c : categories)
        for (auto const& t : c.terms)
            if (t.slug == slug)
                return {&c, &t};
    return {};
}

entry const* document::find_question(std::string_view slug) const
{
    for (auto const& q : questions)
        if (q.slug == slug)
            return &q;
    return nullptr;
}

category const* document::find_category(std::string_view slug) const
{
    for (auto const& c : categories)
        if (c.slug == slug)
            return &c;
    return nullptr;
}

std::string document::location(int line) const
{
    return file + ":" + std::to_string(line);
}

pricing::outcome<document> parse_document(std::string_view file, std::string_view text)
{
    return parser(file, text).run();
}

}
