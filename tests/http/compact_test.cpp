// The compact form of the two list operations (issue 28, item 5): `fields` gives a table of the
// members asked, the id first, in every format, and refuses a member the items do not give.
#include "fixture.hpp"

#include <boost/json.hpp>
#include <doctest/doctest.h>

using namespace lcg;
namespace bh = http::beast_http;
namespace json = boost::json;

TEST_CASE("fields turns a list into columns and rows of the members asked, the id first")
{
    auto const full = json::parse(testing::fixture_request("/v1/prices").body().str()).as_object();
    auto const res = testing::fixture_request("/v1/prices?fields=name,on_demand,gpu");
    REQUIRE(res.result() == bh::status::ok);
    auto const compact = json::parse(res.body().str()).as_object();
    CHECK_FALSE(compact.contains("prices"));
    CHECK(compact.at("columns") == json::array{"gpu", "name", "on_demand"});
    auto const& rows = compact.at("rows").as_array();
    auto const& prices = full.at("prices").as_array();
    REQUIRE(rows.size() == prices.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        auto const& row = rows[i].as_array();
        auto const& price = prices[i].as_object();
        CHECK(row[0] == price.at("gpu"));
        CHECK(row[1] == price.at("name"));
        CHECK(row[2] == (price.contains("on_demand") ? price.at("on_demand") : json::value(nullptr)));
    }

    // A datasheet figure gives its value.
    auto const gpus = json::parse(testing::fixture_request("/v1/gpus?fields=vram_gb").body().str()).as_object();
    CHECK(gpus.at("columns") == json::array{"id", "vram_gb"});
    CHECK(gpus.at("rows").as_array().at(0).as_array().at(1).is_number());
}

TEST_CASE("the compact form in Markdown and CSV is the same table")
{
    auto const md = testing::fixture_request("/v1/prices.md?fields=on_demand").body().str();
    CHECK(md.find("| gpu | on_demand |") != std::string::npos);
    auto const csv = testing::fixture_request("/v1/gpus.csv?fields=name").body().str();
    CHECK(csv.starts_with("id,name\n"));
}

TEST_CASE("a field the items do not give is 400 naming fields and the members accepted")
{
    for (std::string const target : {"/v1/prices?fields=colour", "/v1/gpus?fields=name,prices", "/v1/gpus?fields="}) {
        auto const res = testing::fixture_request(target);
        INFO(target);
        CHECK(res.result() == bh::status::bad_request);
        CHECK(res.body().str().find("fields") != std::string::npos);
    }
}
