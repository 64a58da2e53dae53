// The catalog of the pages' words (render/words.hpp) and the French the server publishes: every
// message in both languages, French typography, French numbers, and every English document with
// its French counterpart.
#include "render/words.hpp"

#include "fixture.hpp"

#include <boost/json.hpp>
#include <doctest/doctest.h>

#include <algorithm>
#include <set>
#include <string>

using namespace lcg;

namespace {

constexpr std::string_view nnbsp = "\u202F";
constexpr std::string_view nbsp = "\u00A0";

// Whether two JSON values have the same shape: the same kinds, the same members, arrays of the
// same length; only strings may differ (prose).
bool same_shape(boost::json::value const& a, boost::json::value const& b)
{
    if (a.kind() != b.kind())
        return false;
    if (a.is_object()) {
        auto const& x = a.get_object();
        auto const& y = b.get_object();
        if (x.size() != y.size())
            return false;
        for (auto const& [key, value] : x)
            if (!y.contains(key) || !same_shape(value, y.at(key)))
                return false;
        return true;
    }
    if (a.is_array()) {
        auto const& x = a.get_array();
        auto const& y = b.get_array();
        if (x.size() != y.size())
            return false;
        for (std::size_t i = 0; i < x.size(); ++i)
            if (!same_shape(x[i], y[i]))
                return false;
        return true;
    }
    return a.is_string() || a == b;  // numbers, booleans and null are the same in every language
}

// The names between braces, in order.
std::multiset<std::string> placeholders(std::string_view text)
{
    std::multiset<std::string> out;
    for (auto open = text.find('{'); open != std::string_view::npos; open = text.find('{', open + 1))
        out.insert(std::string(text.substr(open + 1, text.find('}', open) - open - 1)));
    return out;
}

}

TEST_CASE("every message has its English and its French, with the same placeholders")
{
    std::set<std::string_view> keys;
    for (auto const& m : render::messages()) {
        INFO(m.key);
        CHECK(keys.insert(m.key).second);  // one message per key
        CHECK(!m.en.empty());
        CHECK(!m.fr.empty());
        CHECK(placeholders(m.en) == placeholders(m.fr));
    }
    CHECK(keys.size() > 200);
}

TEST_CASE("French messages follow French typography: a narrow no-break space before ; : ! ? % and $")
{
    for (auto const& m : render::messages()) {
        std::string_view const fr = m.fr;
        INFO(m.key, " ", fr);
        for (std::size_t i = 0; i < fr.size(); ++i) {
            char const c = fr[i];
            if (c != ';' && c != ':' && c != '!' && c != '?' && c != '%' && c != '$')
                continue;
            // "00:00", "https://" or a `code span` are not punctuation of prose.
            if (std::count(fr.begin(), fr.begin() + static_cast<std::ptrdiff_t>(i), '`') % 2 == 1)
                continue;
            bool const between_word_characters = i > 0 && i + 1 < fr.size() && fr[i - 1] != ' ' && fr[i + 1] != ' ';
            if (c == ':' && between_word_characters)
                continue;
            if (fr.substr(0, i).ends_with(" "))
                FAIL_CHECK("a plain space before '", c, "'");
            // A colon or semicolon that ends a clause has its narrow space (a message may start with it).
            if ((c == ';' || c == ':') && i + 1 < fr.size() && fr[i + 1] == ' ' && i > 0)
                CHECK(fr.substr(0, i).ends_with(nnbsp));
        }
        CHECK(fr.find(nbsp) == std::string_view::npos);  // narrow spaces only, so that every page looks alike
    }
}

// The first place where `text` has a plain space before ; : ! ? % or $ (outside `code` and
// indented code lines), with what surrounds it; empty when there is none.
std::string plain_space_before_punctuation(std::string_view text)
{
    bool code = false;
    bool line_start = true;
    bool code_line = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        char const c = text[i];
        if (line_start)
            code_line = text.substr(i).starts_with("    ");
        line_start = c == '\n';
        if (c == '`')
            code = !code;
        if (code || code_line || i == 0 || text[i - 1] != ' ')
            continue;
        bool const closing = c == ';' || c == '!' || c == '?' || c == '%' || c == '$';
        bool const colon = c == ':' && (i + 1 == text.size() || text[i + 1] == ' ' || text[i + 1] == '\n');
        if (closing || colon)
            return std::string(text.substr(i < 30 ? 0 : i - 30, 40));
    }
    return {};
}

// The index and llms.txt are left out: their list of operations quotes the tools' descriptions,
// which are English.
TEST_CASE("French pages follow French typography, the glossary's terms included")
{
    for (auto const* target : {"/v1/glossary.md?lang=fr", "/v1/prices.md?lang=fr", "/v1/gpus.md?lang=fr",
                               "/v1/methodology.md?lang=fr", "/v1/sheets.md?lang=fr", "/v1/regions.md?lang=fr",
                               "/v1/inventory.md?lang=fr",
                               "/v1/prices/h100-sxm/history.md?lang=fr", "/v1/sheets.atom?lang=fr"}) {
        INFO(target);
        auto const body = testing::fixture_request(target).body();
        CHECK(plain_space_before_punctuation(body) == "");
        CHECK(plain_space_before_punctuation("a plain : colon") != "");  // the check can fail
    }
}

TEST_CASE("say fills placeholders and refuses an unknown key or a missing value")
{
    CHECK(render::say(render::language::en, "sheet.title", {{"week", "2026-W49"}}) == "GPU price sheet 2026-W49");
    CHECK(render::say(render::language::fr, "sheet.title", {{"week", "2026-W49"}}) == "Fiche de prix GPU 2026-W49");
    CHECK_THROWS_AS(render::say(render::language::fr, "no.such.key"), std::logic_error);
    CHECK_THROWS_AS(render::say(render::language::fr, "sheet.title"), std::logic_error);
}

TEST_CASE("numbers and money in French prose; English as given")
{
    using render::language;
    CHECK(render::dollars(language::fr, "0.840") == "0,840\u202F$");
    CHECK(render::dollars(language::en, "0.840") == "$0.840");
    CHECK(render::number(language::fr, "12345.678") == "12\u202F345,678");
    CHECK(render::number(language::fr, "1500") == "1\u202F500");
    CHECK(render::number(language::fr, "999") == "999");
    CHECK(render::number(language::fr, "1234567") == "1\u202F234\u202F567");
    CHECK(render::number(language::fr, "-0.013") == "\u22120,013");
    CHECK(render::number(language::fr, "+0.013") == "+0,013");
    CHECK(render::number(language::en, "12345.678") == "12345.678");
    // Not numbers: left alone.
    for (auto const* s : {"—", "2026-W49", "1.2.3", ".5", "5.", "", "h100"})
        CHECK(render::number(language::fr, s) == s);
    CHECK(render::percent(language::fr, "70") == "70\u202F%");
    CHECK(render::percent(language::en, "70") == "70 %");
}

TEST_CASE("a language in a query string: added, kept, or removed")
{
    using render::language;
    CHECK(render::language_query("", language::fr) == "?lang=fr");
    CHECK(render::language_query("?tier=spot", language::fr) == "?tier=spot&lang=fr");
    CHECK(render::language_query("", language::en).empty());
    CHECK(render::language_query("", language::en, true) == "?lang=en");
    CHECK(render::language_query("?lang=en", language::fr) == "?lang=en");  // the query's own language wins
    CHECK(render::without_language("?tier=spot&lang=fr") == "?tier=spot");
    CHECK(render::without_language("?lang=fr").empty());
}

// The snapshot's documents are keyed by URL; a French document is its English one's URL with
// lang=fr. Every English document has one, except those written once because they are data or
// machine descriptions: the audit inputs (CSV rows, being moved to an archive), signatures, keys
// and the OpenAPI description.
bool written_once(std::string const& key)
{
    return key.find("/observations") != std::string::npos ||
           (key.starts_with("/v1/sheets/") && key.ends_with(".txt")) || key.starts_with("/.well-known/lowcostgpu-keys") ||
           key == "/openapi.json";
}

TEST_CASE("every English document the server publishes has its French counterpart, which the server serves")
{
    auto const snap = testing::fixture_snapshot();
    int walked = 0;
    for (auto const& [key, doc] : snap->documents) {
        if (key.find("lang=") != std::string::npos)
            continue;
        INFO(key);
        CHECK(doc->translated == !written_once(key));
        if (!doc->translated)
            continue;
        ++walked;
        auto const question = key.find('?');
        std::string const path = key.substr(0, question);
        std::string const query = question == std::string::npos ? "" : key.substr(question);
        std::string const french_key = path + render::language_query(query, render::language::fr);
        auto const french = snap->find_document(french_key);
        REQUIRE(french != nullptr);
        if (doc->content_type.starts_with("application/json"))
            CHECK(same_shape(boost::json::parse(doc->body), boost::json::parse(french->body)));  // only prose differs
        else if (doc->content_type.starts_with("text/csv"))
            CHECK(french->body == doc->body);  // CSV is data: language-neutral
        else
            CHECK(french->body != doc->body);
        // And over HTTP, with lang=fr in the URL; the English one says it is English.
        auto const res = testing::fixture_request(french_key);
        CHECK(res.result_int() == 200);
        CHECK(res[http::beast_http::field::content_language] == "fr");
        CHECK(res.body() == french->body);
        CHECK(testing::fixture_request(key)[http::beast_http::field::content_language] == "en");
    }
    CHECK(walked > 50);
}

TEST_CASE("the glossary's English and French documents both exist under their language")
{
    auto const snap = testing::fixture_snapshot();
    for (auto const& [key, doc] : snap->documents)
        if (key.find("?lang=en") != std::string::npos) {
            INFO(key);
            CHECK(snap->find_document(key.substr(0, key.find("?lang=en")) + "?lang=fr") != nullptr);
        }
}
