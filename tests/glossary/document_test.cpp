#include "glossary/document.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace lcg::glossary;

namespace {

constexpr char const* sample = R"(# category: pricing-billing | Pricing & billing

## GPU-hour
slug: gpu-hour
related: spot
aliases: gpu hour, gpu-hours

One GPU for one hour.

## Spot
slug: spot
related: gpu-hour

Cheaper, can stop.

# questions | Questions and answers

## What is a GPU-hour?
slug: what-is-a-gpu-hour
related: gpu-hour

GPUs times hours. That is all.
)";

// The message of a parse that must fail.
std::string error_of(std::string const& text)
{
    auto const doc = parse_document("t.md", text);
    REQUIRE_FALSE(doc.has_value());
    CHECK(doc.err().code == lcg::pricing::errc::invalid_argument);
    return doc.err().message;
}

}

TEST_CASE("a well-formed file parses into categories, terms and questions")
{
    auto const doc = parse_document("en.md", sample);
    REQUIRE(doc.has_value());
    REQUIRE(doc->categories.size() == 1);
    auto const& c = doc->categories[0];
    CHECK(c.slug == "pricing-billing");
    CHECK(c.name == "Pricing & billing");
    REQUIRE(c.terms.size() == 2);
    CHECK(c.terms[0].name == "GPU-hour");
    CHECK(c.terms[0].slug == "gpu-hour");
    CHECK(c.terms[0].related == std::vector<std::string>{"spot"});
    CHECK(c.terms[0].aliases == std::vector<std::string>{"gpu hour", "gpu-hours"});
    CHECK(c.terms[0].text == "One GPU for one hour.");
    CHECK(c.terms[0].line == 3);
    CHECK(c.terms[0].related_line == 5);
    CHECK(c.terms[0].text_line == 8);
    CHECK(c.terms[1].aliases.empty());
    CHECK(doc->questions_name == "Questions and answers");
    REQUIRE(doc->questions.size() == 1);
    CHECK(doc->questions[0].text == "GPUs times hours. That is all.");
    CHECK(doc->term_count() == 2);
    CHECK(doc->find_term("spot").cat == &c);
    CHECK_FALSE(doc->find_term("what-is-a-gpu-hour"));
    CHECK(doc->find_question("what-is-a-gpu-hour") != nullptr);
    CHECK(doc->find_category("pricing-billing") == &c);
    CHECK(doc->location(12) == "en.md:12");
}

TEST_CASE("Windows line ends and extra blank lines between blocks are accepted")
{
    std::string crlf;
    for (char ch : std::string(sample)) {
        if (ch == '\n')
            crlf += '\r';
        crlf += ch;
    }
    CHECK(parse_document("en.md", crlf).has_value());
    CHECK(parse_document("en.md", "\n\n" + std::string(sample) + "\n\n\n").has_value());
}

TEST_CASE("errors carry the file and the line")
{
    std::string const head = "# category: pricing-billing | Pricing\n\n";  // lines 1-2

    CHECK(error_of(head + "## A\nslug: a\nrelated: b\n\nOne line.\nA second line.\n") ==
          "t.md:8: the definition of 'A' must be on one line, followed by a blank line");
    CHECK(error_of(head + "## A\nrelated: b\n\nText.\n") == "t.md:3: 'A' has no 'slug:' line");
    CHECK(error_of(head + "## A\nslug: a\n\nText.\n") == "t.md:3: 'A' has no 'related:' line (1 to 4 slugs)");
    CHECK(error_of(head + "## A\nslug: A_1\nrelated: b\n\nText.\n") ==
          "t.md:4: 'A_1' is not a slug (lower-case letters, digits, hyphens)");
    CHECK(error_of(head + "## A\nslug: a\nrelated: b, c, d, e, f\n\nText.\n") ==
          "t.md:5: 'A' relates to 5 slugs; at most 4 are allowed");
    CHECK(error_of(head + "## A\nslug: a\nrelated: b, b\n\nText.\n") == "t.md:5: related: 'b' is listed twice");
    CHECK(error_of(head + "## A\nslug: a\nrelated: b,\n\nText.\n") == "t.md:5: related: '' is not a slug");
    CHECK(error_of(head + "## A\nslug: a\nslug: b\n") == "t.md:5: 'A' has a second 'slug:' line");
    CHECK(error_of(head + "## A\nslug: a\nrelated: b\nsee: c\n\nText.\n").starts_with("t.md:6: expected 'slug: …'"));
    CHECK(error_of(head + "## A\nslug: a\nrelated: b\naliases: x,,y\n\nText.\n") ==
          "t.md:6: aliases: an empty alias (check the commas)");
    CHECK(error_of(head + "## A\nslug: a\nrelated: b\n\n\nText.\n").starts_with("t.md:7: 'A' has no definition"));
    CHECK(error_of(head + "## A\nslug: a\nrelated: b\n").starts_with("t.md:3: 'A' has no definition"));
    CHECK(error_of(head + "## A\nslug: a\nrelated: b\n\n## B\n").starts_with("t.md:7: 'A' has no definition"));
    CHECK(error_of(head + "Stray text.\n") ==
          "t.md:3: unexpected text outside a term (a term starts with '## <name>')");
    CHECK(error_of("## A\nslug: a\nrelated: b\n\nText.\n") == "t.md:1: 'A' comes before any '# category:' line");
    CHECK(error_of("# category pricing | Pricing\n").starts_with("t.md:1: unknown heading"));
    CHECK(error_of("# category: pricing\n") == "t.md:1: expected '# category: <slug> | <display name>'");
    CHECK(error_of("# category: Pricing | P\n").starts_with("t.md:1: 'Pricing' is not a slug"));
    CHECK(error_of("# category: pricing |  \n") == "t.md:1: category 'pricing' has no display name after '|'");
    CHECK(error_of("# questions | Q\n\n# category: pricing | P\n") ==
          "t.md:3: categories must come before the '# questions' section");
    CHECK(error_of("# questions\n") == "t.md:1: expected '# questions | <display name>'");
    CHECK(error_of("# questions | Q\n# questions | Q\n") == "t.md:2: a second '# questions' section");
    CHECK(error_of(head + "## \nslug: a\n") == "t.md:3: a term needs a name after '## '");
}

TEST_CASE("slugs")
{
    CHECK(is_slug("gpu-hour"));
    CHECK(is_slug("h100"));
    CHECK_FALSE(is_slug(""));
    CHECK_FALSE(is_slug("-a"));
    CHECK_FALSE(is_slug("a-"));
    CHECK_FALSE(is_slug("a--b"));
    CHECK_FALSE(is_slug("GPU"));
    CHECK_FALSE(is_slug("a b"));
    CHECK_FALSE(is_slug("é"));
}
