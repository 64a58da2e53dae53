#include "glossary/text.hpp"
#include "locale/folding.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <iterator>

using namespace lcg::glossary;

TEST_CASE("fold lowers case and removes Latin accents and ligatures")
{
    CHECK(lcg::locale::fold("Clé API") == "cle api");
    CHECK(lcg::locale::fold("Éèêë àâä çÇ îï ôö ùûü ÿ") == "eeee aaa cc ii oo uuu y");
    CHECK(lcg::locale::fold("Œuvre œil Æ ß") == "oeuvre oeil ae ss");
    CHECK(lcg::locale::fold("l’instance « spot »") == "l'instance \" spot \"");
    CHECK(lcg::locale::fold("Łódź Škoda") == "lodz skoda");
    CHECK(lcg::locale::fold("a\u00a0b\u202fc") == "a b c");
    CHECK(lcg::locale::fold("≈ × 2") == "≈ × 2");  // symbols pass through
    CHECK(lcg::locale::fold("\xff\xfe ok") == "\xff\xfe ok");  // invalid bytes are kept, the rest still folds
}

TEST_CASE("words are runs of letters and digits after folding")
{
    CHECK(words("GPU-heure, 70B !") == std::vector<std::string>{"gpu", "heure", "70b"});
    CHECK(words("Quantification (INT4)") == std::vector<std::string>{"quantification", "int4"});
    CHECK(words("  ").empty());
}

TEST_CASE("sentences end at a terminator followed by a new sentence")
{
    auto const s = split_sentences("One GPU for an hour. Four cards for two hours make eight! Really? Yes.");
    REQUIRE(s.size() == 4);
    CHECK(s[0] == "One GPU for an hour.");
    CHECK(s[3] == "Yes.");
    CHECK(split_sentences("").empty());
    CHECK(split_sentences("No final stop").size() == 1);
    CHECK(split_sentences("Ends with text. and goes on lower-case").size() == 1);
}

TEST_CASE("decimals, amounts, placeholders and abbreviations do not end a sentence")
{
    CHECK(split_sentences("A 12-minute job is 0.2 GPU-hours at $1.680 per hour. That is all.").size() == 2);
    CHECK(split_sentences("Un job compte pour 0,2 GPU-heure, soit 1,5 fois. Voilà.").size() == 2);
    CHECK(split_sentences("It costs {{price:h100-sxm:spot}} per hour. Then {{fact:spot_percent}} off.").size() == 2);
    CHECK(split_sentences("Use a runtime, e.g. Ollama or vLLM, to serve it. Done.").size() == 2);
    CHECK(split_sentences("H100 vs. A100 is the usual choice.").size() == 1);
    CHECK(split_sentences("Version 2.0. Then 3 more.").size() == 2);
}

TEST_CASE("sentences: closing marks, French spacing and openers")
{
    CHECK(split_sentences("He said \"stop.\" Then left.").size() == 2);
    CHECK(split_sentences("Qu’est-ce ? C’est simple.").size() == 2);
    CHECK(split_sentences("Fin… « Début » ensuite.").size() == 2);
    CHECK(split_sentences("Été comme hiver. Économie garantie.").size() == 2);
}

TEST_CASE("edit distance")
{
    CHECK(edit_distance("", "") == 0);
    CHECK(edit_distance("abc", "") == 3);
    CHECK(edit_distance("kitten", "sitting") == 3);
    CHECK(edit_distance("vram", "vram") == 0);
    CHECK(edit_distance("gpu-hour", "gpu-hours") == 1);
}

TEST_CASE("properties on random text: fold is idempotent, words are folded ASCII, sentences keep every character")
{
    // Fixed seed; an alphabet mixing ASCII, accents, typography, digits and terminators.
    static constexpr std::string_view alphabet[] = {"a", "Z", "é", "É", "œ", "ç", " ", " ", ".", ".", "!", "?",
                                                    "1", "5", "’", "«", "»", "\u202f", "{{", "}}", "…", "\xff"};
    std::uint32_t state = 12345;
    auto const next = [&] {
        state = state * 1664525u + 1013904223u;
        return state >> 8;
    };
    for (int round = 0; round < 2000; ++round) {
        std::string text;
        for (std::uint32_t n = next() % 40; n > 0; --n)
            text += alphabet[next() % std::size(alphabet)];
        CAPTURE(text);
        CHECK(lcg::locale::fold(lcg::locale::fold(text)) == lcg::locale::fold(text));
        for (auto const& w : words(text))
            CHECK(std::all_of(w.begin(), w.end(), [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }));
        std::string rejoined;
        for (auto const s : split_sentences(text)) {
            CHECK_FALSE(s.empty());
            CHECK(text.find(s) != std::string::npos);
            rejoined += s;
        }
        auto const without_spaces = [](std::string s) {
            std::erase(s, ' ');
            for (auto at = s.find("\u202f"); at != std::string::npos; at = s.find("\u202f"))
                s.erase(at, 3);
            return s;
        };
        CHECK(without_spaces(rejoined) == without_spaces(text));
    }
}
