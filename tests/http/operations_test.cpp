// The HTTP face of the operation registry on the fixture snapshot: how a refusal is told (which
// list of valid values comes with it), what a path segment may hold, and the validators of
// computed bodies.
#include "fixture.hpp"

#include "pricing/utf8.hpp"

#include <boost/json.hpp>
#include <doctest/doctest.h>

#include <map>
#include <string>

using namespace lcg::testing;
namespace json = boost::json;

namespace {

json::object problem_of(std::string const& target)
{
    auto const res = fixture_request(target);
    CHECK(res[lcg::http::beast_http::field::content_type] == "application/problem+json");
    return json::parse(res.body()).as_object();
}

}

TEST_CASE("a refused GPU id lists the valid ids, a refused count or an unknown parameter does not")
{
    auto o = problem_of("/v1/compare?gpus=h100-sxm,nope");
    CHECK(o.at("status") == 400);
    CHECK(o.at("parameter") == "gpus");
    CHECK(o.contains("valid_ids"));

    o = problem_of("/v1/estimate?gpu=h100-sxm&hours=1&gpus=99");
    CHECK(o.at("parameter") == "gpus");
    CHECK_FALSE(o.contains("valid_ids"));  // the integer gpus of an instance, not a GPU id

    o = problem_of("/v1/cheapest?gpu=h100-sxm");
    CHECK(std::string(o.at("detail").as_string()).find("unknown parameter 'gpu'") != std::string::npos);
    CHECK_FALSE(o.contains("valid_ids"));

    // other_gpu names a GPU too.
    o = problem_of("/v1/instances/check?gpu=a100-80gb-sxm&vcpus=8&memory_gib=64&cpu_generation=v7&other_gpu=h10");
    CHECK(o.at("parameter") == "other_gpu");
    CHECK(o.contains("valid_ids"));

    o = problem_of("/v1/inventory?region=mars-1");
    CHECK(o.contains("valid_regions"));

    o = problem_of("/v1/gpus/h999");
    CHECK(o.at("status") == 404);
    CHECK(o.contains("valid_ids"));
}

TEST_CASE("costing a model the sheet does not price is a conflict with the sheet, not a condition to retry")
{
    // The MI300X has 3 listings in the fixture: its row says why it has no price.
    for (auto const* target : {"/v1/estimate?gpu=mi300x&hours=1",
                               "/v1/rent-vs-buy?gpu=mi300x&purchase_price=250000&power_watts=10200&"
                               "electricity_price=0.12&hosting_per_month=1500&utilisation=40&months=36"}) {
        INFO(target);
        auto const res = fixture_request(target);
        CHECK(res.result() == lcg::http::beast_http::status::conflict);
        CHECK(res.find(lcg::http::beast_http::field::retry_after) == res.end());
        auto const o = json::parse(res.body()).as_object();
        CHECK(o.at("status") == 409);
        CHECK(std::string(o.at("detail").as_string()).find("mi300x has no price on the sheet") != std::string::npos);
        CHECK_FALSE(o.contains("valid_ids"));  // mi300x is a valid id
    }
    auto const fr = fixture_request("/v1/estimate?gpu=mi300x&hours=1&lang=fr");
    CHECK(json::parse(fr.body()).at("title") == "Conflit");
}

TEST_CASE("a query string that cannot be read is refused naming its parameter, in the language asked for")
{
    struct refusal {
        char const* target;
        char const* parameter;
        char const* english;
        char const* french;
    };
    for (auto const& r : {refusal{"/v1/estimate?gpu=h100-sxm&gpu=a100-80gb-sxm&hours=1", "gpu", "given more than once",
                                  "donné plusieurs fois"},
                          refusal{"/v1/estimate?gpu=%zz&hours=1", "gpu", "malformed %-escape", "échappement % mal formé"},
                          refusal{"/v1/glossary?q=%ff%fe", "q", "not valid UTF-8", "pas de l’UTF-8 valide"}}) {
        INFO(r.target);
        auto const o = problem_of(r.target);
        CHECK(o.at("status") == 400);
        CHECK(o.at("parameter") == r.parameter);
        CHECK(std::string(o.at("detail").as_string()).find(r.english) != std::string::npos);
        auto const fr = fixture_request(r.target, {{"Accept-Language", "fr"}});
        CHECK(fr.result_int() == 400);
        CHECK(fr[lcg::http::beast_http::field::content_language] == "fr");
        CHECK(fr.body().find(r.french) != std::string::npos);
        CHECK(lcg::pricing::utf8_length(fr.body()).has_value());
    }
    // Bytes outside ASCII as they arrived, not UTF-8: the refusal stays UTF-8, quoting them %-encoded.
    for (std::string const target : {"/v1/glossary?q=\xff", "/v1/glossary?\xff=1", "/v1/glossary?%ff=1"}) {
        INFO(target);
        auto const res = fixture_request(target);
        CHECK(res.result_int() == 400);
        CHECK(lcg::pricing::utf8_length(res.body()).has_value());
        bool const quoted = res.body().find("%FF") != std::string::npos || res.body().find("%ff") != std::string::npos;
        CHECK(quoted);
    }
}

TEST_CASE("a path segment must decode to UTF-8, and every refusal is valid UTF-8")
{
    auto const res = fixture_request("/v1/gpus/%FF%FE");
    CHECK(res.result_int() == 400);
    CHECK(lcg::pricing::utf8_length(res.body()).has_value());
    CHECK(fixture_request("/v1/prices/%FF").result_int() == 404);
    CHECK(lcg::pricing::utf8_length(fixture_request("/v1/prices/%FF").body()).has_value());
    // A long term cut in the middle of a character when it is echoed.
    auto const long_term = fixture_request("/v1/glossary/" + std::string(79, 'x') + "%C3%A9%C3%A9");
    CHECK(long_term.result_int() == 404);
    CHECK(lcg::pricing::utf8_length(long_term.body()).has_value());
}

TEST_CASE("lookups: any letter case for ids and orders, one or two letters name no glossary term")
{
    CHECK(fixture_request("/v1/prices?sort=PRICE").result_int() == 200);
    CHECK(fixture_request("/v1/prices/H100-SXM").result_int() == 200);
    CHECK(fixture_request("/v1/prices/h100%2Dsxm").result_int() == 200);
    CHECK(fixture_request("/v1/gpus/H100-SXM").result_int() == 200);
    auto const o = problem_of("/v1/glossary/x");
    CHECK(o.at("status") == 404);
    CHECK_FALSE(o.at("suggestions").as_array().empty());
}

TEST_CASE("a computed body changes when its own data does: a glossary search dates from the glossary")
{
    using lcg::http::beast_http::field;
    auto const search = fixture_request("/v1/glossary?q=spot&lang=fr");
    REQUIRE(search.result_int() == 200);
    auto const glossary = fixture_request("/v1/glossary?lang=fr");
    CHECK(search[field::last_modified] == glossary[field::last_modified]);
    auto const filtered = fixture_request("/v1/inventory?region=eu-paris-1");
    CHECK(filtered[field::last_modified] == fixture_request("/v1/inventory")[field::last_modified]);
}

TEST_CASE("/readyz measures age from the last successful database check, not from the snapshot's build")
{
    auto const snap = fixture_snapshot();
    lcg::http::request req{lcg::http::beast_http::verb::get, "/readyz", 11};
    auto const later = snap->built_at + std::chrono::seconds(100);  // no new sheet for 100 s: no rebuild
    lcg::http::request_context ctx{snap, later, std::chrono::seconds(10)};
    ctx.database_checked_at = later - std::chrono::seconds(1);
    auto const healthy = lcg::http::handle(req, ctx);
    CHECK(healthy.result() == lcg::http::beast_http::status::ok);
    auto const body = json::parse(healthy.body()).as_object();
    CHECK(body.at("status") == "ready");
    CHECK(body.at("database_checked_age_seconds") == 1);
    CHECK(body.at("snapshot_age_seconds") == 100);

    ctx.database_checked_at = later - std::chrono::seconds(11);  // the database has not answered for 11 s
    auto const stale = lcg::http::handle(req, ctx);
    CHECK(stale.result() == lcg::http::beast_http::status::service_unavailable);
    CHECK(json::parse(stale.body()).at("status") == "stale");

    ctx.database_checked_at.reset();  // never checked: the snapshot's own age decides
    CHECK(lcg::http::handle(req, ctx).result() == lcg::http::beast_http::status::service_unavailable);
}

TEST_CASE("a glossary search lists the questions it matches, a category lists none")
{
    auto const found = boost::json::parse(fixture_request("/v1/glossary?q=vram").body()).as_object();
    auto const& questions = found.at("questions").as_array();
    REQUIRE(questions.size() == 1);
    CHECK(questions[0].at("slug") == "how-much-vram");
    CHECK(fixture_request("/v1/glossary.md?q=vram").body().find("How much VRAM does a model need?") != std::string::npos);
    auto const none = boost::json::parse(fixture_request("/v1/glossary?q=qwxzv").body()).as_object();
    CHECK(none.at("questions").as_array().empty());
    auto const category = boost::json::parse(fixture_request("/v1/glossary?category=pricing-billing").body()).as_object();
    CHECK_FALSE(category.contains("questions"));
}

TEST_CASE("an unknown parameter is refused whether the answer would have been whole or not modified")
{
    auto const whole = fixture_request("/v1/sheets/latest");
    REQUIRE(whole.result() == lcg::http::beast_http::status::ok);
    std::string const etag(whole[lcg::http::beast_http::field::etag]);
    CHECK(fixture_request("/v1/sheets/latest", {{"If-None-Match", etag}}).result() == lcg::http::beast_http::status::not_modified);
    for (auto const& headers : {std::map<std::string, std::string>{}, std::map<std::string, std::string>{{"If-None-Match", etag}}}) {
        auto const r = fixture_request("/v1/sheets/latest?bogus=1", headers);
        CHECK(r.result() == lcg::http::beast_http::status::bad_request);
        CHECK(r.body().find("unknown parameter 'bogus'") != std::string::npos);
    }
}
