#include "glossary/glossary.hpp"

#include "glossary/validation.hpp"

#include "fixtures.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <string>

using namespace lcg::glossary;
using namespace lcg::glossary::testing;

namespace lcg::glossary {
std::span<const lcg::embedded_file> content_files();  // the generated content (see glossary.cpp)
}

namespace {

content const& real()
{
    auto const& c = embedded();
    REQUIRE_MESSAGE(c.has_value(), c.err().message);
    return *c;
}

std::string file_text(std::string_view name)
{
    for (auto const& f : content_files())
        if (f.name == name)
            return std::string(f.content);
    FAIL("no embedded file " << name);
    return {};
}

int line_of(std::string const& text, std::string const& needle)
{
    auto const at = text.find(needle);
    REQUIRE(at != std::string::npos);
    return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(at), '\n'));
}

entry const& term(content const& c, language lang, std::string_view slug)
{
    auto const t = c.in(lang).find_term(slug);
    REQUIRE(t);
    return *t.term;
}

}

TEST_CASE("the real content files parse and validate")
{
    auto const& c = real();
    CHECK(c.en.file == "en.md");
    CHECK(c.fr.file == "fr.md");
    CHECK(c.en.term_count() == 86);
    CHECK(c.fr.term_count() == 86);
    CHECK(c.en.questions.size() == 3);
    CHECK(c.fr.questions.size() == 3);
}

TEST_CASE("each category holds the expected number of terms, in both languages")
{
    for (language lang : lcg::locale::all_languages) {
        CAPTURE(to_string(lang));
        auto const& doc = real().in(lang);
        REQUIRE(doc.categories.size() == 6);
        for (std::size_t i = 0; i < 6; ++i) {
            CHECK(doc.categories[i].slug == expected_categories[i].slug);
            CHECK(doc.categories[i].terms.size() == expected_categories[i].terms);
            CHECK_FALSE(doc.categories[i].name.empty());
        }
    }
    CHECK(real().en.categories[0].terms.size() == 17);
    CHECK(real().en.categories[1].terms.size() == 20);
    CHECK(real().fr.categories[2].terms.size() == 14);
    CHECK(real().fr.categories[3].terms.size() == 9);
    CHECK(real().fr.categories[4].terms.size() == 18);
    CHECK(real().fr.categories[5].terms.size() == 8);
    CHECK(real().fr.categories[1].name == "Matériel GPU");
}

TEST_CASE("a broken content file is refused with its file and line")
{
    std::string const en = file_text("en.md");
    std::string const fr = file_text("fr.md");

    SUBCASE("a definition on two lines")
    {
        std::string broken = en;
        std::string const anchor = "slug: gpu-hour\n";
        auto const definition = broken.find("\n\n", broken.find(anchor)) + 2;
        broken.insert(broken.find('\n', definition), "\nA second line.");
        std::array<lcg::embedded_file, 2> const files{{{"en.md", broken}, {"fr.md", fr}}};
        auto const loaded = load(files);
        REQUIRE_FALSE(loaded.has_value());
        int const line = line_of(broken, "A second line.");
        CHECK(loaded.err().message ==
              "en.md:" + std::to_string(line) +
                  ": the definition of 'GPU-hour' must be on one line, followed by a blank line");
    }
    SUBCASE("a related slug that names no term")
    {
        std::string broken = fr;
        std::string const from = "related: on-demand-instance, reserved-instance, checkpoint, volume";
        broken.replace(broken.find(from), from.size(), "related: on-demand-instance, reserved-instance, checkpoints, volume");
        std::array<lcg::embedded_file, 2> const files{{{"en.md", en}, {"fr.md", broken}}};
        auto const loaded = load(files);
        REQUIRE_FALSE(loaded.has_value());
        CHECK(loaded.err().message ==
              "fr.md:" + std::to_string(line_of(broken, "checkpoints, volume")) +
                  ": 'interruptible-instance' relates to 'checkpoints', which is not a term of fr.md\n"
                  "fr.md:" + std::to_string(line_of(broken, "checkpoints, volume")) +
                  ": 'interruptible-instance' relates to on-demand-instance, reserved-instance, checkpoints, volume "
                  "but en.md:" + std::to_string(line_of(en, "slug: interruptible-instance") + 1) +
                  " to on-demand-instance, reserved-instance, checkpoint, volume");
    }
    SUBCASE("a missing file")
    {
        std::array<lcg::embedded_file, 1> const files{{{"en.md", en}}};
        auto const loaded = load(files);
        REQUIRE_FALSE(loaded.has_value());
        CHECK(loaded.err().message == "no content file named 'fr.md'");
    }
}

TEST_CASE("every placeholder of both files resolves against a sheet")
{
    auto const catalog = synthetic_catalog();
    auto const sheet = synthetic_sheet();
    auto const r = resolve(real(), {sheet, catalog});
    REQUIRE_MESSAGE(r.has_value(), r.err().message);
    for (language lang : lcg::locale::all_languages) {
        auto const& doc = r->in(lang);
        for (auto const& t : doc.terms()) {
            CAPTURE(t.term->slug);
            CHECK(t.term->text.find("{{") == std::string::npos);
            CHECK(t.term->text.find("}}") == std::string::npos);
        }
        for (auto const& q : doc.questions)
            CHECK(q.text.find("{{") == std::string::npos);
    }
    CHECK(term(*r, language::en, "interruptible-instance").text.find("($0.840 per GPU-hour for an H100 SXM)") !=
          std::string::npos);
    CHECK(term(*r, language::fr, "interruptible-instance").text.find("(0,840\u202F$ par GPU-heure sur une H100 SXM)") !=
          std::string::npos);
    CHECK(term(*r, language::en, "region").text.find("32 regions") != std::string::npos);
    CHECK(term(*r, language::fr, "sla").text.find("99,9\u202F%") != std::string::npos);
    CHECK(term(*r, language::en, "sla").text.find("99.9%") != std::string::npos);
    CHECK(term(*r, language::en, "reserved-instance").text.find("$1.092") != std::string::npos);
    // The source keeps its placeholders: resolving copies.
    CHECK(term(real(), language::en, "interruptible-instance").text.find("{{price:h100-sxm:spot}}") != std::string::npos);
}

TEST_CASE("the resolved text follows the sheet")
{
    auto const catalog = synthetic_catalog();
    auto const before = resolve(real(), {synthetic_sheet(2'400'000), catalog});
    auto const after = resolve(real(), {synthetic_sheet(2'000'000), catalog});  // spot 0.840 → 0.700
    REQUIRE(before.has_value());
    REQUIRE(after.has_value());
    for (language lang : lcg::locale::all_languages) {
        CAPTURE(to_string(lang));
        auto const& a = term(*before, lang, "interruptible-instance").text;
        auto const& b = term(*after, lang, "interruptible-instance").text;
        CHECK(a != b);
        CHECK(a.find(lang == language::en ? "$0.840" : "0,840\u202F$") != std::string::npos);
        CHECK(b.find(lang == language::en ? "$0.700" : "0,700\u202F$") != std::string::npos);
        CHECK(before->in(lang).questions[1].text != after->in(lang).questions[1].text);
        // Terms without a price do not move.
        CHECK(term(*before, lang, "sla").text == term(*after, lang, "sla").text);
    }
}

TEST_CASE("resolution fails, with the file and line, when the sheet does not price a quoted model")
{
    auto sheet = synthetic_sheet();
    std::erase_if(sheet.rows, [](auto const& row) { return row.gpu == "h100-sxm"; });
    auto const r = resolve(real(), {sheet, synthetic_catalog()});
    REQUIRE_FALSE(r.has_value());
    CHECK(r.err().code == lcg::pricing::errc::unavailable);
    CHECK(r.err().message.starts_with("en.md:"));
    CHECK(r.err().message.find(": {{price:h100-sxm:") != std::string::npos);
    CHECK(r.err().message.ends_with("'h100-sxm' has no price on the 2026-W49 sheet"));
}
