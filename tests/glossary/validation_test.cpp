#include "glossary/validation.hpp"

#include "glossary/glossary.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <string>

using namespace lcg::glossary;

namespace {

document parsed(std::string_view file, std::string const& text)
{
    auto d = parse_document(file, text);
    REQUIRE_MESSAGE(d.has_value(), d.err().message);
    return std::move(d).value();
}

// A document with the expected shape: each category filled with terms t<i>, then the questions.
std::string valid_text(std::string const& definition = "A short definition.")
{
    std::string out;
    int n = 0;
    for (auto const& c : expected_categories) {
        out += "# category: " + std::string(c.slug) + " | Name\n\n";
        for (std::size_t i = 0; i < c.terms; ++i, ++n)
            out += "## Term " + std::to_string(n) + "\nslug: t" + std::to_string(n) + "\nrelated: t" +
                   std::to_string(n == 0 ? 1 : 0) + "\n\n" + definition + "\n\n";
    }
    out += "# questions | Questions\n\n";
    for (auto const q : expected_questions)
        out += "## Question?\nslug: " + std::string(q) + "\nrelated: t0\n\nFirst sentence. Second one.\n\n";
    return out;
}

// The line of the first occurrence of `needle`.
int line_of(std::string const& text, std::string const& needle)
{
    auto const at = text.find(needle);
    REQUIRE(at != std::string::npos);
    return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(at), '\n'));
}

std::string replaced(std::string text, std::string const& from, std::string const& to)
{
    auto const at = text.find(from);
    REQUIRE(at != std::string::npos);
    return text.replace(at, from.size(), to);
}

}

TEST_CASE("a document of the expected shape passes")
{
    auto const text = valid_text();
    CHECK(check_document(parsed("x.md", text)).empty());
    CHECK(check_translation(parsed("en.md", text), parsed("fr.md", text)).empty());
}

TEST_CASE("problems name the file and the line")
{
    auto const text = valid_text();

    auto bad = replaced(text, "related: t0\n\nA short definition.\n\n## Term 2\n", "related: t99\n\nA short definition.\n\n## Term 2\n");
    auto p = check_document(parsed("x.md", bad));
    REQUIRE(p.size() == 1);
    CHECK(p[0] == "x.md:" + std::to_string(line_of(bad, "related: t99")) +
                      ": 't1' relates to 't99', which is not a term of x.md");

    bad = replaced(text, "slug: t5\nrelated: t0", "slug: t5\nrelated: t5");
    p = check_document(parsed("x.md", bad));
    REQUIRE(p.size() == 1);
    CHECK(p[0] == "x.md:" + std::to_string(line_of(bad, "related: t5")) + ": 't5' relates to itself");

    bad = replaced(text, "slug: t7\n", "slug: t6\n");
    p = check_document(parsed("x.md", bad));
    REQUIRE(p.size() == 1);
    CHECK(p[0] == "x.md:" + std::to_string(line_of(bad, "## Term 7")) + ": the slug 't6' is already used at x.md:" +
                      std::to_string(line_of(bad, "## Term 6")));

    bad = replaced(text, "slug: t9\nrelated: t0\n\nA short definition.",
                   "slug: t9\nrelated: t0\n\nOne. Two. Three. Four at {{price:h100-sxm:spot}} is 1.5 times.");
    p = check_document(parsed("x.md", bad));
    REQUIRE(p.size() == 1);
    CHECK(p[0] == "x.md:" + std::to_string(line_of(bad, "One. Two.")) +
                      ": the definition of 't9' has 4 sentences; it must have 1 to 3");

    bad = replaced(text, "First sentence. Second one.", "Only one.");
    p = check_document(parsed("x.md", bad));
    REQUIRE(p.size() == 1);
    CHECK(p[0] == "x.md:" + std::to_string(line_of(bad, "Only one.")) +
                      ": the answer of 'what-is-a-gpu-hour' has 1 sentence; it must have 2 to 5");

    bad = replaced(text, "slug: t3\nrelated: t0\n\nA short definition.", "slug: t3\nrelated: t0\n\nCosts {{fact:cost}}.");
    p = check_document(parsed("x.md", bad));
    REQUIRE(p.size() == 1);
    CHECK(p[0].starts_with("x.md:" + std::to_string(line_of(bad, "Costs {{")) + ": {{fact:cost}}: unknown fact 'cost'"));

    bad = replaced(text, "## Term 4\n", "## Term {{fact:max_gpus}}\n");
    p = check_document(parsed("x.md", bad));
    REQUIRE(p.size() == 1);
    CHECK(p[0] == "x.md:" + std::to_string(line_of(bad, "## Term {{")) +
                      ": a placeholder in the name of 't4' (only texts may hold them)");
}

TEST_CASE("categories, counts and questions are checked")
{
    auto const text = valid_text();
    auto bad = replaced(text, "# category: gpu-hardware |", "# category: hardware |");
    auto p = check_document(parsed("x.md", bad));
    REQUIRE(p.size() == 1);
    CHECK(p[0] == "x.md:" + std::to_string(line_of(bad, "# category: hardware")) +
                      ": expected the category 'gpu-hardware' here, found 'hardware'");

    // Moving one term to the next category breaks two counts.
    bad = replaced(text, "\n# category: gpu-hardware | Name\n\n", "\n");
    bad = replaced(bad, "## Term 16\n", "# category: gpu-hardware | Name\n\n## Term 16\n");
    p = check_document(parsed("x.md", bad));
    REQUIRE(p.size() == 2);
    CHECK(p[0] == "x.md:1: category 'pricing-billing' has 16 terms; it must have 17");
    CHECK(p[1].ends_with("category 'gpu-hardware' has 21 terms; it must have 20"));

    bad = text.substr(0, text.find("# questions"));
    p = check_document(parsed("x.md", bad));
    REQUIRE(p.size() == 1);
    CHECK(p[0].ends_with(": no '# questions | <display name>' section after the categories"));

    bad = replaced(text, "slug: how-much-vram", "slug: how-much-memory");
    p = check_document(parsed("x.md", bad));
    REQUIRE(p.size() == 1);
    CHECK(p[0].ends_with(": expected the question 'how-much-vram' here, found 'how-much-memory'"));
}

TEST_CASE("both languages list the same entries with the same related slugs and figures")
{
    auto const text = valid_text("Costs {{price:h100-sxm:spot}} per hour.");
    auto const en = parsed("en.md", text);

    auto fr_text = replaced(text, "## Term 3\nslug: t3\n", "## Term 3\nslug: t3b\n");
    auto p = check_translation(en, parsed("fr.md", fr_text));
    REQUIRE_FALSE(p.empty());
    CHECK(p.back() == "fr.md:" + std::to_string(line_of(fr_text, "## Term 3")) +
                          ": found 'pricing-billing/t3b' where en.md:" + std::to_string(line_of(text, "## Term 3")) +
                          " has 'pricing-billing/t3' (both files list the same terms in the same order)");

    fr_text = replaced(text, "slug: t2\nrelated: t0", "slug: t2\nrelated: t1");
    p = check_translation(en, parsed("fr.md", fr_text));
    REQUIRE(p.size() == 1);
    CHECK(p[0] == "fr.md:" + std::to_string(line_of(fr_text, "slug: t2") + 1) +
                      ": 't2' relates to t1 but en.md:" + std::to_string(line_of(text, "slug: t2") + 1) + " to t0");

    fr_text = replaced(text, "## Term 8\nslug: t8\nrelated: t0\n\nCosts {{price:h100-sxm:spot}}",
                       "## Term 8\nslug: t8\nrelated: t0\n\nCosts {{price:h100-sxm:reserved}}");
    p = check_translation(en, parsed("fr.md", fr_text));
    REQUIRE(p.size() == 1);
    CHECK(p[0].starts_with("fr.md:" + std::to_string(line_of(fr_text, "Costs {{price:h100-sxm:reserved}}")) +
                           ": 't8' quotes {{price:h100-sxm:reserved}} but en.md:"));
}
