#include "glossary/search.hpp"

#include "glossary/glossary.hpp"
#include "glossary/text.hpp"

#include <doctest/doctest.h>

#include <algorithm>

using namespace lcg::glossary;

namespace {

document const& doc(language lang)
{
    auto const& c = embedded();
    REQUIRE_MESSAGE(c.has_value(), c.err().message);
    return c->in(lang);
}

std::vector<std::string> slugs(std::vector<term_ref> const& refs)
{
    std::vector<std::string> out;
    for (auto const& r : refs)
        out.push_back(r.term->slug);
    return out;
}

bool has(std::vector<std::string> const& v, std::string const& s) { return std::find(v.begin(), v.end(), s) != v.end(); }

}

TEST_CASE("search finds terms by name and alias without accents")
{
    auto const en = slugs(search(doc(language::en), "preemptible"));
    REQUIRE_FALSE(en.empty());
    CHECK(en.front() == "interruptible-instance");

    auto const fr = slugs(search(doc(language::fr), "quantification"));
    REQUIRE_FALSE(fr.empty());
    CHECK(fr.front() == "quantization");

    auto const key = slugs(search(doc(language::fr), "cle api"));
    REQUIRE_FALSE(key.empty());
    CHECK(key.front() == "api-key");
    CHECK(slugs(search(doc(language::fr), "CLÉ Api")) == key);
    CHECK(has(slugs(search(doc(language::fr), "preemptible")), "interruptible-instance"));
}

TEST_CASE("every query word must match (AND), as the start of a word")
{
    auto const& en = doc(language::en);
    auto const both = slugs(search(en, "api key"));
    REQUIRE_FALSE(both.empty());
    CHECK(both.front() == "api-key");
    for (auto const& s : both) {
        auto const t = en.find_term(s);
        std::string all = t.term->name + " " + t.term->text;
        for (auto const& a : t.term->aliases)
            all += " " + a;
        auto const w = words(all);
        CHECK(std::any_of(w.begin(), w.end(), [](auto const& x) { return x.starts_with("api"); }));
        CHECK(std::any_of(w.begin(), w.end(), [](auto const& x) { return x.starts_with("key"); }));
    }
    CHECK(search(en, "preemptible zebra").empty());
    CHECK(has(slugs(search(en, "quant")), "quantization"));  // a prefix matches
    CHECK(search(en, "").empty());
    CHECK(search(en, " - ; ").empty());
}

TEST_CASE("matches on the name come before matches in the text")
{
    auto const found = slugs(search(doc(language::en), "vram"));
    REQUIRE(found.size() > 1);
    CHECK(found.front() == "vram");
}

TEST_CASE("suggestions: the closest slugs, at most three")
{
    auto const& en = doc(language::en);
    auto s = suggest(en, "interruptible");
    REQUIRE(s.size() == 3);
    CHECK(s.front() == "interruptible-instance");
    s = suggest(en, "gpu-hours");
    CHECK(s.front() == "gpu-hour");
    s = suggest(en, "spot");
    CHECK(s.front() == "interruptible-instance");
    s = suggest(en, "vram");  // a slug that exists is its own best suggestion
    CHECK(s.front() == "vram");
    CHECK(suggest(en, "quantisation").front() == "quantization");
    CHECK(suggest(doc(language::fr), "cle-api").front() == "api-key");
    CHECK(suggest(en, "anything", 1).size() == 1);
}

TEST_CASE("every term is found by its own name and suggested first for its own slug, in both languages")
{
    for (language lang : all_languages) {
        auto const& d = doc(lang);
        for (auto const& t : d.terms()) {
            CAPTURE(t.term->slug);
            CHECK(has(slugs(search(d, t.term->name)), t.term->slug));
            for (auto const& alias : t.term->aliases)
                CHECK(has(slugs(search(d, alias)), t.term->slug));
            CHECK(suggest(d, t.term->slug).front() == t.term->slug);
        }
    }
}

TEST_CASE("suggest compares a long unknown name by its first bytes only, so it costs what a typo does")
{
    auto const& en = doc(language::en);
    std::string const typo = "interruptibel";
    std::string const long_name = typo + std::string(4000, 'x');
    // The same closest slugs as for its first 32 bytes: nothing past them was compared.
    CHECK(suggest(en, long_name) == suggest(en, long_name.substr(0, 32)));
    CHECK(suggest(en, long_name).front() == "interruptible-instance");
}

TEST_CASE("a search covers the questions: by their wording first, then by their answer")
{
    auto const& en = doc(language::en);
    auto const slugs_of = [](std::vector<entry const*> const& found) {
        std::vector<std::string> out;
        for (auto const* q : found)
            out.push_back(q->slug);
        return out;
    };
    CHECK(slugs_of(search_questions(en, "vram")) == std::vector<std::string>{"how-much-vram"});
    CHECK(has(slugs_of(search_questions(en, "gpu hour")), "what-is-a-gpu-hour"));
    // "requeues" is only in an answer.
    CHECK(slugs_of(search_questions(en, "requeues")) == std::vector<std::string>{"on-demand-vs-interruptible"});
    CHECK(search_questions(en, "!!").empty());
    CHECK(search_questions(en, "qwxzv").empty());
    auto const& fr = doc(language::fr);
    CHECK_FALSE(search_questions(fr, "vram").empty());
}

TEST_CASE("lookup: a slug, name or alias in either language is exact, the first words of a name are loose")
{
    auto const& en = doc(language::en);
    auto const& fr = doc(language::fr);
    auto const named = [](document const& d, std::string_view text, document const* other = nullptr) {
        auto const found = lookup(d, text, other);
        return found ? found->slug + (found->how == naming::loose ? " (loose)" : "") : std::string("-");
    };
    CHECK(named(en, "gpu-hour") == "gpu-hour");
    CHECK(named(en, "spot") == "interruptible-instance");
    CHECK(named(en, "GPU hours") == "gpu-hour");  // word for word, punctuation aside
    CHECK(named(en, "TP") == "tensor-parallelism");  // acronyms are aliases, however short
    CHECK(named(en, "NVL") == "nvlink");
    CHECK(named(fr, "nvl") == "nvlink");
    // Either language: a French name asked in English and the other way round.
    CHECK(named(en, "Clé API", &fr) == "api-key");
    CHECK(named(en, "Clé API") == "-");  // without the other language, a French name is no English one
    CHECK(named(fr, "gpu-hours", &en) == "gpu-hour");
    CHECK(named(fr, "interruptible instance", &en) == "interruptible-instance");
    // Loose: the words start those of a name, in order.
    CHECK(named(en, "interruptible") == "interruptible-instance (loose)");
    CHECK(named(en, "multi gpu inst") == "multi-gpu-instance (loose)");
    // MIG is its own term, never the opposite idea (a multi-GPU instance).
    CHECK(named(en, "multi-instance GPU", &fr) == "mig");
    CHECK(named(en, "MIG", &fr) == "mig");
    CHECK(named(fr, "MIG", &en) == "mig");
    CHECK(named(en, "GPU multi-instance", &fr) == "mig");
    // Not a word found only in a definition, nor a name's words in another order.
    CHECK(named(en, "silicon", &fr) == "-");
    CHECK(named(en, "gpu instance multi", &fr) == "-");
}

TEST_CASE("lookup: every term's name finds that term in both languages, from either one")
{
    for (auto const lang : all_languages) {
        auto const& d = doc(lang);
        auto const& other = doc(lang == language::en ? language::fr : language::en);
        for (auto const& t : d.terms()) {
            CAPTURE(t.term->name);
            auto const here = lookup(d, t.term->name, &other);
            REQUIRE(here);
            CHECK(here->slug == t.term->slug);
            CHECK(here->how == naming::exact);
            auto const there = lookup(other, t.term->name, &d);
            REQUIRE(there);
            CHECK(there->slug == t.term->slug);
        }
    }
}
