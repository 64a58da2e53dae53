// The catalog of the pages' words (render/words.hpp) and the French the server publishes: every
// message in both languages, French typography, French numbers, and every English document with
// its French counterpart.
#include "locale/words.hpp"

#include "api/calculator.hpp"
#include "api/decoder.hpp"
#include "api/operation.hpp"
#include "render/html.hpp"

#include "fixture.hpp"

#include <boost/json.hpp>
#include <doctest/doctest.h>

#include <algorithm>
#include <iterator>
#include <set>
#include <string>
#include <vector>

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
    for (auto const& m : locale::messages()) {
        INFO(m.key);
        CHECK(keys.insert(m.key).second);  // one message per key
        CHECK(!m.en.empty());
        CHECK(!m.fr.empty());
        CHECK(placeholders(m.en) == placeholders(m.fr));
    }
    CHECK(keys.size() > 200);
}

TEST_CASE("French messages follow French typography: a narrow no-break space before the semicolon, colon, ! ? % and $")
{
    for (auto const& m : locale::messages()) {
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

// French pages of the costing tools, each with its notes: an estimate with a throughput, a reserved
// one, sizings (one with too many GPUs for one instance), a comparison, the cheapest configuration
// and an instance check.
constexpr char const* french_costing_pages[] = {
    "/v1/estimate.md?gpu=h100-sxm&gpus=2&hours=10&tier=spot&storage_gb=500&egress_gb=50&tokens_per_second=1500&lang=fr",
    "/v1/estimate.md?gpu=h100-sxm&hours=2&tier=reserved&images_per_hour=120&lang=fr",
    "/v1/sizing.md?params_b=70&precision=int8&lang=fr",
    "/v1/sizing.md?params_b=405&precision=fp16&lang=fr",
    "/v1/compare.md?gpus=h100-sxm,a100-80gb-sxm&lang=fr",
    "/v1/cheapest.md?params_b=70&precision=fp8&hours=10&lang=fr",
    "/v1/instances/check.md?gpu=h100-sxm&gpus=2&vcpus=64&memory_gib=256&cpu_generation=v7&lang=fr",
};

TEST_CASE("French pages follow French typography, the glossary's terms included")
{
    std::vector<std::string> targets{"/v1/glossary.md?lang=fr", "/v1/prices.md?lang=fr", "/v1/gpus.md?lang=fr",
                                     "/v1/methodology.md?lang=fr", "/v1/sheets.md?lang=fr", "/v1/regions.md?lang=fr", "/v1/sources.md?lang=fr",
                                     "/v1/inventory.md?lang=fr", "/v1/prices/h100-sxm/history.md?lang=fr",
                                     "/v1/sheets.atom?lang=fr", "/v1/gpus/h100-sxm.md?lang=fr", "/index.md?lang=fr",
                                     "/llms.txt?lang=fr"};
    targets.insert(targets.end(), std::begin(french_costing_pages), std::end(french_costing_pages));
    for (auto const& target : targets) {
        INFO(target);
        auto const body = testing::fixture_request(target).body();
        CHECK(plain_space_before_punctuation(body) == "");
        CHECK(plain_space_before_punctuation("a plain : colon") != "");  // the check can fail
    }
}

// The English sentences of the messages that write the prose of JSON documents, units and the
// operations' descriptions (and, for pages, the reasons a model has no price, which JSON keeps as
// published): each stretch between placeholders long enough to be a sentence of its own, for
// messages whose French differs.
std::vector<std::string> english_prose(bool reasons)
{
    std::vector<std::string> out;
    for (auto const& m : locale::messages()) {
        bool const prose = m.key.starts_with("json.") || m.key.starts_with("tool.") || m.key.starts_with("unit.") ||
                           m.key.starts_with("param.") || (reasons && m.key.starts_with("reason."));
        if (m.en == m.fr || !prose)
            continue;
        std::string_view rest = m.en;
        while (!rest.empty()) {
            auto const open = rest.find('{');
            auto const stretch = rest.substr(0, open);
            if (stretch.size() >= 24)
                out.emplace_back(stretch);
            rest = open == std::string_view::npos ? std::string_view{} : rest.substr(rest.find('}', open) + 1);
        }
    }
    return out;
}

TEST_CASE("French pages and JSON documents hold none of the English notes, units or operation descriptions")
{
    auto const page_sentences = english_prose(true);
    auto const json_sentences = english_prose(false);
    CHECK(json_sentences.size() > 40);
    CHECK(page_sentences.size() > json_sentences.size());
    std::vector<std::string> targets{"/v1/gpus.md?lang=fr", "/v1/gpus.json?lang=fr", "/index.md?lang=fr",
                                     "/index.json?lang=fr", "/llms.txt?lang=fr", "/llms-full.txt?lang=fr"};
    for (auto const& m : testing::fixture_snapshot()->catalog.gpus) {
        targets.push_back("/v1/gpus/" + m.id + ".md?lang=fr");
        targets.push_back("/v1/gpus/" + m.id + ".html?lang=fr");
    }
    for (std::string const page : french_costing_pages) {
        targets.push_back(page);
        auto const md = page.find(".md?");
        targets.push_back(page.substr(0, md) + ".json?" + page.substr(md + 4));
        targets.push_back(page.substr(0, md) + ".html?" + page.substr(md + 4));
    }
    int english_found = 0;
    for (auto const& target : targets) {
        INFO(target);
        auto const res = testing::fixture_request(target);
        REQUIRE(res.result_int() == 200);
        auto const question = target.find('?');
        auto const english =
            testing::fixture_request(target.substr(0, question) + render::without_language(target.substr(question)));
        bool const json = target.find(".json?") != std::string::npos;
        for (auto const& sentence : json ? json_sentences : page_sentences) {
            INFO(sentence);
            CHECK(res.body().find(sentence) == std::string::npos);
            english_found += english.body().find(sentence) != std::string::npos;
        }
        // Data stay the same: the French JSON has the English one's members, numbers and money.
        if (json)
            CHECK(same_shape(boost::json::parse(english.body()), boost::json::parse(res.body())));
    }
    CHECK(english_found > 100);  // the English pages do say them: the check can fail
}

TEST_CASE("the site's English words for an operation are the registry's, which MCP and OpenAPI read")
{
    for (auto const& op : api::operations()) {
        INFO(op.tool);
        std::string const key = "tool." + std::string(op.tool);
        CHECK(locale::say(locale::language::en, key + ".title") == op.title);
        CHECK(locale::say(locale::language::en, key + ".description") == op.description);
        CHECK(locale::say(locale::language::fr, key + ".title") != op.title);
        CHECK(api::calculator_title(op, locale::language::fr) == locale::say(locale::language::fr, key + ".title"));
    }
}

// The "param.*" message whose English is `description`: the French of a parameter is found by the
// declaration's own words, so an English description changed without its French has none.
locale::message const* parameter_words(std::string_view description)
{
    auto const all = locale::messages();
    auto const it = std::find_if(all.begin(), all.end(),
                                 [&](locale::message const& m) { return m.key.starts_with("param.") && m.en == description; });
    return it == all.end() ? nullptr : &*it;
}

TEST_CASE("every parameter of every operation has its description in French, and every such word a parameter")
{
    std::set<std::string_view> used;
    int parameters = 0;
    for (auto const& op : api::operations())
        for (auto const& p : op.parameters()) {
            INFO(op.tool, " ", p.name);
            ++parameters;
            CHECK(api::parameter_hint(p, locale::language::en) == p.description);
            auto const* words = parameter_words(p.description);
            CHECK_MESSAGE(words != nullptr, "no French for this description: add a param.* word whose English is it");
            if (!words)
                continue;
            CHECK(words->fr != words->en);
            CHECK(api::parameter_hint(p, locale::language::fr) == words->fr);
            used.insert(words->key);
        }
    CHECK(parameters > 90);
    for (auto const& m : locale::messages())
        if (m.key.starts_with("param.")) {
            INFO(m.key);
            CHECK(used.contains(m.key));  // a word no declaration has any more
        }
}

TEST_CASE("a French calculator names its fields in French, before its first use as after")
{
    for (auto const& op : api::operations()) {
        if (!op.calculator)
            continue;
        INFO(op.tool);
        auto const empty = testing::fixture_request(std::string(op.route) + ".html?lang=fr").body();
        auto const example = api::example_target(op);
        auto const used = testing::fixture_request(example.path + ".html" + example.query + "&lang=fr").body();
        CHECK(empty.find(std::string(op.title)) == std::string::npos);
        for (auto const& p : op.parameters()) {
            INFO(p.name);
            std::string const hint = render::html_escape(api::parameter_hint(p, locale::language::fr));
            CHECK(empty.find(hint) != std::string::npos);
            CHECK(used.find(hint) != std::string::npos);
            CHECK(used.find(render::html_escape(p.description)) == std::string::npos);
        }
    }
}

TEST_CASE("say fills placeholders and refuses an unknown key or a missing value")
{
    CHECK(locale::say(locale::language::en, "sheet.title", {{"week", "2026-W49"}}) == "GPU price sheet 2026-W49");
    CHECK(locale::say(locale::language::fr, "sheet.title", {{"week", "2026-W49"}}) == "Fiche de prix GPU 2026-W49");
    CHECK_THROWS_AS(locale::say(locale::language::fr, "no.such.key"), std::logic_error);
    CHECK_THROWS_AS(locale::say(locale::language::fr, "sheet.title"), std::logic_error);
}

TEST_CASE("numbers and money in French prose, English as given")
{
    using locale::language;
    CHECK(locale::dollars(language::fr, "0.840") == "0,840\u202F$");
    CHECK(locale::dollars(language::en, "0.840") == "$0.840");
    CHECK(locale::number(language::fr, "12345.678") == "12\u202F345,678");
    CHECK(locale::number(language::fr, "1500") == "1\u202F500");
    CHECK(locale::number(language::fr, "999") == "999");
    CHECK(locale::number(language::fr, "1234567") == "1\u202F234\u202F567");
    CHECK(locale::number(language::fr, "-0.013") == "\u22120,013");
    CHECK(locale::number(language::fr, "+0.013") == "+0,013");
    CHECK(locale::number(language::en, "12345.678") == "12345.678");
    // Not numbers: left alone.
    for (auto const* s : {"—", "2026-W49", "1.2.3", ".5", "5.", "", "h100"})
        CHECK(locale::number(language::fr, s) == s);
    CHECK(locale::percent(language::fr, "70") == "70\u202F%");
    CHECK(locale::percent(language::en, "70") == "70 %");
}

TEST_CASE("a language in a query string: added, kept, or removed")
{
    using locale::language;
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
// machine descriptions: signatures, the signed catalog, keys, the publication log and the OpenAPI description. (The audit inputs are not in
// the snapshot: the archive serves them, their pages in both languages, archive_test.cpp.)
bool written_once(std::string const& key)
{
    // Signatures, and the data's machine-readable descriptions (their words are the column names').
    bool const signature = key.ends_with(".txt") || key.ends_with(".sig") || key.ends_with(".note") ||
                           key.ends_with("/datapackage.json") || key.ends_with("/csv-metadata.json");
    return (key.starts_with("/v1/sheets/") && signature) || key.starts_with("/.well-known/lowcostgpu-keys") ||
           key.starts_with("/v1/catalog") || key.starts_with("/v1/log") || key == "/openapi.json" ||
           key == "/.well-known/api-catalog";
}

TEST_CASE("every English document the server publishes has its French counterpart, which the server serves")
{
    auto const snap = testing::fixture_snapshot();
    int walked = 0;
    for (auto const& entry : snap->documents) {
        std::string const& key = entry.first;  // named: doctest's lambdas cannot capture a structured binding
        auto const& doc = entry.second;
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
        std::string const french_key = path + render::language_query(query, locale::language::fr);
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
    for (auto const& entry : snap->documents) {
        std::string const& key = entry.first;  // named: doctest's lambdas cannot capture a structured binding
        if (key.find("?lang=en") != std::string::npos) {
            INFO(key);
            CHECK(snap->find_document(key.substr(0, key.find("?lang=en")) + "?lang=fr") != nullptr);
        }
    }
}
