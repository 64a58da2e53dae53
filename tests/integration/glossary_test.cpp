// /v1/glossary and /v1/glossary/{term} from `lowcostgpu serve`, against the sample data.
#include "harness.hpp"

#include <boost/json.hpp>
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

using namespace lcg::testing;
namespace json = boost::json;

namespace {

json::object parse(std::string const& body) { return json::parse(body).as_object(); }

std::string definition_of(json::object const& list, std::string const& slug)
{
    for (auto const& t : list.at("terms").as_array())
        if (t.at("slug").as_string() == slug)
            return std::string(t.at("definition").as_string());
    FAIL("no term " << slug);
    return {};
}

// A rate of the sheet ("0.840") as the glossary writes it in each language.
std::string in_english(std::string const& rate) { return "$" + rate; }
std::string in_french(std::string rate)
{
    std::replace(rate.begin(), rate.end(), '.', ',');
    return rate + "\u202F$";
}

}

TEST_CASE("/v1/glossary lists the 86 terms in six categories, in English and in French")
{
    test_database db;
    server_process server(db.url("reader"));
    struct expected_count {
        char const* slug;
        std::int64_t count;
    };
    expected_count const counts[] = {{"pricing-billing", 17},     {"gpu-hardware", 20},   {"inference-serving", 14},
                                     {"training-fine-tuning", 9}, {"platform-access", 18}, {"payment-identity", 8}};
    for (char const* lang : {"en", "fr"}) {
        CAPTURE(lang);
        auto const r = server.get(std::string("/v1/glossary?lang=") + lang);
        REQUIRE(r.status == 200);
        CHECK(r.header("content-type") == "application/json");
        CHECK(r.header("content-language") == lang);
        CHECK(r.header("vary").find("Accept-Language") != std::string::npos);
        CHECK_FALSE(r.header("etag").empty());
        auto const o = parse(r.body);
        CHECK(o.at("lang").as_string() == lang);
        CHECK(o.at("count").as_int64() == 86);
        CHECK(o.at("terms").as_array().size() == 86);
        auto const& categories = o.at("categories").as_array();
        REQUIRE(categories.size() == 6);
        for (std::size_t i = 0; i < 6; ++i) {
            CHECK(categories[i].at("slug").as_string() == counts[i].slug);
            CHECK(categories[i].at("count").as_int64() == counts[i].count);
            CHECK_FALSE(categories[i].at("name").as_string().empty());
        }
        CHECK(o.at("questions").as_array().size() == 3);
        for (auto const& t : o.at("terms").as_array()) {
            auto const& term = t.as_object();
            CAPTURE(json::serialize(term));
            CHECK(term.at("definition").as_string().find("{{") == json::string::npos);
            CHECK(term.at("related").as_array().size() >= 1);
            CHECK(term.at("aliases").is_array());
            CHECK(term.at("category_name").is_string());
        }
    }
    auto const french = parse(server.get("/v1/glossary?lang=fr").body);
    CHECK(french.at("categories").as_array()[1].at("name").as_string() == "Matériel GPU");
}

TEST_CASE("the glossary quotes the H100 SXM spot rate of the current sheet, in both languages")
{
    test_database db;
    server_process server(db.url("reader"));
    auto const price = parse(server.get("/v1/prices/h100-sxm").body);
    std::string const spot(price.at("spot").as_string());
    CHECK(spot == "0.840");

    auto const en = server.get("/v1/glossary/interruptible-instance?lang=en");
    REQUIRE(en.status == 200);
    CHECK(en.header("content-language") == "en");
    auto const en_term = parse(en.body);
    CHECK(en_term.at("week").as_string() == price.at("week").as_string());
    CHECK(en_term.at("lang").as_string() == "en");
    CHECK(en_term.at("category").as_string() == "pricing-billing");
    std::string const en_definition(en_term.at("definition").as_string());
    CAPTURE(en_definition);
    CHECK(en_definition.find(in_english(spot) + " per GPU-hour") != std::string::npos);
    CHECK(definition_of(parse(server.get("/v1/glossary?lang=en").body), "interruptible-instance") == en_definition);

    auto const fr = server.get("/v1/glossary/interruptible-instance?lang=fr");
    REQUIRE(fr.status == 200);
    CHECK(fr.header("content-language") == "fr");
    auto const fr_term = parse(fr.body);
    std::string const fr_definition(fr_term.at("definition").as_string());
    CAPTURE(fr_definition);
    CHECK(fr_definition.find(in_french(spot) + " par GPU-heure") != std::string::npos);
    CHECK(fr_definition.find("50\u202F%") != std::string::npos);
    CHECK(definition_of(parse(server.get("/v1/glossary?lang=fr").body), "interruptible-instance") == fr_definition);

    auto const question = parse(server.get("/v1/glossary/on-demand-vs-interruptible?lang=en").body);
    CHECK(question.at("answer").as_string().find(in_english(spot)) != json::string::npos);
}

TEST_CASE("Accept-Language chooses the language when lang is absent, English by default")
{
    test_database db;
    server_process server(db.url("reader"));
    auto r = server.get("/v1/glossary", {{"Accept-Language", "fr-CH, fr;q=0.9, en;q=0.8"}});
    REQUIRE(r.status == 200);
    CHECK(r.header("content-language") == "fr");
    CHECK(parse(r.body).at("lang").as_string() == "fr");

    r = server.get("/v1/glossary/sla", {{"Accept-Language", "de-DE, en;q=0.5, fr;q=0.4"}});
    REQUIRE(r.status == 200);
    CHECK(r.header("content-language") == "en");
    CHECK(parse(r.body).at("definition").as_string().find("99.9%") != json::string::npos);

    r = server.get("/v1/glossary/sla", {{"Accept-Language", "fr"}});
    CHECK(r.header("content-language") == "fr");
    CHECK(parse(r.body).at("definition").as_string().find("99,9\u202F%") != json::string::npos);

    r = server.get("/v1/glossary");
    CHECK(r.header("content-language") == "en");
    r = server.get("/v1/glossary?lang=en", {{"Accept-Language", "fr"}});  // the parameter wins
    CHECK(r.header("content-language") == "en");

    // The two languages are two representations: different validators.
    auto const en = server.get("/v1/glossary?lang=en");
    auto const fr = server.get("/v1/glossary?lang=fr");
    CHECK(en.header("etag") != fr.header("etag"));
    auto const again = server.get("/v1/glossary?lang=fr", {{"If-None-Match", fr.header("etag")}});
    CHECK(again.status == 304);
    CHECK(again.header("content-language") == "fr");
}

TEST_CASE("filters and search: category, q (case- and accent-insensitive)")
{
    test_database db;
    server_process server(db.url("reader"));
    auto r = server.get("/v1/glossary?lang=fr&q=cle%20api");
    REQUIRE(r.status == 200);
    CHECK(r.header("content-language") == "fr");
    auto o = parse(r.body);
    REQUIRE(o.at("count").as_int64() >= 1);
    CHECK(o.at("terms").as_array()[0].at("slug").as_string() == "api-key");
    CHECK(o.at("terms").as_array()[0].at("name").as_string() == "Clé API");
    CHECK(o.at("q").as_string() == "cle api");
    CHECK(o.at("questions").as_array().empty());  // a search covers the questions; none speaks of API keys

    o = parse(server.get("/v1/glossary?lang=en&q=preemptible").body);
    REQUIRE(o.at("count").as_int64() >= 1);
    CHECK(o.at("terms").as_array()[0].at("slug").as_string() == "interruptible-instance");

    o = parse(server.get("/v1/glossary?lang=fr&q=QUANTIFICATION").body);
    REQUIRE(o.at("count").as_int64() >= 1);
    CHECK(o.at("terms").as_array()[0].at("slug").as_string() == "quantization");

    r = server.get("/v1/glossary?category=payment-identity");
    REQUIRE(r.status == 200);
    o = parse(r.body);
    CHECK(o.at("count").as_int64() == 8);
    CHECK(o.at("category").as_string() == "payment-identity");
    for (auto const& t : o.at("terms").as_array())
        CHECK(t.at("category").as_string() == "payment-identity");
    CHECK(o.at("categories").as_array()[5].at("count").as_int64() == 8);
    CHECK_FALSE(o.contains("questions"));  // a category holds terms only
    CHECK(o.at("categories").as_array()[0].at("count").as_int64() == 0);

    o = parse(server.get("/v1/glossary?category=pricing-billing&q=spot").body);
    REQUIRE(o.at("count").as_int64() >= 1);
    for (auto const& t : o.at("terms").as_array())
        CHECK(t.at("category").as_string() == "pricing-billing");

    o = parse(server.get("/v1/glossary?q=zzzz-no-such-word").body);
    CHECK(o.at("count").as_int64() == 0);
}

TEST_CASE("glossary errors: unknown slug with suggestions, bad lang, bad category, bad q")
{
    test_database db;
    server_process server(db.url("reader"));
    // A name or words resolve ("/v1/glossary/interruptible" is the interruptible instance); a typo
    // does not, and gets the closest slugs.
    CHECK(parse(server.get("/v1/glossary/interruptible").body).at("slug").as_string() == "interruptible-instance");
    auto r = server.get("/v1/glossary/interruptibel");
    REQUIRE(r.status == 404);
    CHECK(r.header("content-type") == "application/problem+json");
    auto o = parse(r.body);
    auto const& suggestions = o.at("suggestions").as_array();
    REQUIRE(suggestions.size() == 3);
    CHECK(suggestions[0].as_string() == "interruptible-instance");
    CHECK(o.at("detail").as_string().find("'interruptibel'") != json::string::npos);

    // An English alias asked in French finds its term (in French); a typo of one gets suggestions.
    o = parse(server.get("/v1/glossary/gpu-hours?lang=fr").body);
    CHECK(o.at("slug").as_string() == "gpu-hour");
    CHECK(o.at("lang").as_string() == "fr");
    o = parse(server.get("/v1/glossary/gpu-hourz?lang=fr").body);
    CHECK(o.at("suggestions").as_array()[0].as_string() == "gpu-hour");

    r = server.get("/v1/glossary?lang=de");
    REQUIRE(r.status == 400);
    CHECK(r.header("content-type") == "application/problem+json");
    o = parse(r.body);
    CHECK(o.at("parameter").as_string() == "lang");
    CHECK(o.at("detail").as_string().find("en, fr") != json::string::npos);

    r = server.get("/v1/glossary/vram?lang=english");
    REQUIRE(r.status == 400);
    CHECK(parse(r.body).at("parameter").as_string() == "lang");

    r = server.get("/v1/glossary?category=hardware");
    REQUIRE(r.status == 400);
    o = parse(r.body);
    CHECK(o.at("parameter").as_string() == "category");
    CHECK(o.at("detail").as_string().find("gpu-hardware") != json::string::npos);

    r = server.get("/v1/glossary?q=%20-%20");
    REQUIRE(r.status == 400);
    CHECK(parse(r.body).at("parameter").as_string() == "q");

    r = server.get("/v1/glossary?langue=fr");
    REQUIRE(r.status == 400);
    CHECK(parse(r.body).at("parameter").as_string() == "langue");

    r = server.get("/v1/glossary/vram?q=x");
    REQUIRE(r.status == 400);
    CHECK(parse(r.body).at("parameter").as_string() == "q");
}
