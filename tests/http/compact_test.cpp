// The compact form of the two list operations (issue 28, item 5): `fields` gives a table of the
// members asked, the id first, in every format, and refuses a member the items do not give.
#include "fixture.hpp"

#include "api/operation.hpp"

#include <boost/json.hpp>
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

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

TEST_CASE("the members accepted are the schema's, whatever rows a call selects: none, or unpriced ones only")
{
    // Nothing is as cheap as $0, no model has 100 TB, and the MI300X has no price in the fixture (3 listings).
    for (std::string const target : {"/v1/prices?max_price=0&fields=name,on_demand", "/v1/gpus?min_vram_gb=100000&fields=name",
                                     "/v1/prices?gpu=mi300x&fields=on_demand,reason"}) {
        INFO(target);
        auto const res = testing::fixture_request(target);
        REQUIRE(res.result() == bh::status::ok);
        auto const doc = json::parse(res.body().str()).as_object();
        CHECK(doc.contains("columns"));
        for (auto const& row : doc.at("rows").as_array())
            CHECK(row.as_array().size() == doc.at("columns").as_array().size());
    }
    auto const unpriced = json::parse(testing::fixture_request("/v1/prices?gpu=mi300x&fields=on_demand").body().str());
    CHECK(unpriced.at("rows").as_array().at(0).as_array().at(1).is_null());
    // A name given twice is one column.
    auto const twice = json::parse(testing::fixture_request("/v1/prices?fields=name,name").body().str());
    CHECK(twice.at("columns").as_array().size() == 2);
}

TEST_CASE("every member a full document's items show as a cell is one the schema lists as a column")
{
    struct document {
        char const* tool;
        char const* target;
        char const* list;
    };
    for (auto const& d : {document{"get_prices", "/v1/prices", "prices"}, document{"list_gpus", "/v1/gpus", "gpus"}}) {
        INFO(d.tool);
        auto const columns = api::item_columns(*api::find_tool(d.tool), d.list);
        auto const doc = json::parse(testing::fixture_request(d.target).body().str()).as_object();
        for (auto const& item : doc.at(d.list).as_array())
            for (auto const& member : item.as_object()) {
                auto const& value = member.value();
                if (value.is_null())
                    continue;  // fits any column, and says nothing of what the member holds
                bool const cell = !value.is_array() && (!value.is_object() || (value.as_object().contains("value") &&
                                                                                 !value.as_object().at("value").is_structured()));
                std::string const name(member.key());
                INFO(name);
                CHECK(cell == (std::find(columns.begin(), columns.end(), name) != columns.end()));
            }
    }
}
