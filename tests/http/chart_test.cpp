// The small charts of the HTML sheet (render/chart.hpp): each sparkline spans its own model's range
// and prints the on-demand change from the week before, in the page's language.
#include "render/chart.hpp"

#include "fixture.hpp"

#include <boost/json.hpp>
#include <doctest/doctest.h>

#include <algorithm>
#include <initializer_list>
#include <string>
#include <vector>

using namespace lcg;
using lcg::testing::fixture_request;
namespace json = boost::json;

namespace {

// A history document whose weeks have these on-demand rates; "" is a week the model was not priced.
json::object history_of(std::initializer_list<char const*> rates)
{
    json::array weeks;
    int n = 40;
    for (std::string_view rate : rates) {
        json::object w{{"week", "2026-W" + std::to_string(n++)}, {"available", !rate.empty()}, {"change", nullptr}};
        if (!rate.empty())
            w["on_demand"] = rate;
        weeks.push_back(std::move(w));
    }
    return {{"gpu", "h100-sxm"}, {"name", "H100 SXM"}, {"weeks", std::move(weeks)}};
}

// The y coordinates of every point of the sparkline's polylines.
std::vector<int> ys(std::string const& svg)
{
    std::vector<int> out;
    for (auto at = svg.find("points=\""); at != std::string::npos; at = svg.find("points=\"", at + 1)) {
        auto const end = svg.find('"', at + 8);
        std::string const points = svg.substr(at + 8, end - at - 8);
        for (std::size_t comma = points.find(','); comma != std::string::npos; comma = points.find(',', comma + 1))
            out.push_back(std::stoi(points.substr(comma + 1)));
    }
    return out;
}

// The text printed beside the line.
std::string change_text(std::string const& svg)
{
    auto const open = svg.find('>', svg.find("<text class=\"change\"")) + 1;
    return svg.substr(open, svg.find("</text>", open) - open);
}

}

TEST_CASE("a sparkline spans its own model's lowest to highest rate, whatever their level")
{
    auto const svg = render::history_sparkline_svg(history_of({"2.000", "2.100", "1.900", "2.050"}));
    auto const y = ys(svg);
    REQUIRE(y.size() == 4);
    CHECK(*std::min_element(y.begin(), y.end()) == 2);   // the top of the frame: 2.100
    CHECK(*std::max_element(y.begin(), y.end()) == 22);  // its bottom: 1.900
    CHECK(y[1] == 2);
    CHECK(y[2] == 22);
    // A cheap model moving by a few mills fills the height too.
    auto const cheap = ys(render::history_sparkline_svg(history_of({"0.100", "0.110", "0.105"})));
    CHECK(cheap == std::vector<int>{22, 2, 12});
}

TEST_CASE("a flat sparkline, or a single week, is a line across the middle")
{
    CHECK(ys(render::history_sparkline_svg(history_of({"1.680", "1.680", "1.680"}))) == std::vector<int>{12, 12, 12});
    CHECK(ys(render::history_sparkline_svg(history_of({"1.680"}))) == std::vector<int>{12});
    // One mill on $1.680 is under the floor: drawn close to the middle, not across the whole height.
    auto const y = ys(render::history_sparkline_svg(history_of({"1.680", "1.681"})));
    REQUIRE(y.size() == 2);
    CHECK(y[0] - y[1] <= 1);
}

TEST_CASE("a sparkline prints the on-demand change from the week before, in the page's language")
{
    auto const down = history_of({"2.000", "2.100", "1.900"});  // −9.52… %
    CHECK(change_text(render::history_sparkline_svg(down)) == "-9.5 %");
    CHECK(change_text(render::history_sparkline_svg(down, locale::language::fr)) == "\u22129,5\u202F%");
    CHECK(render::history_sparkline_svg(down).find("<title>H100 SXM: on-demand rate by week; -9.5 % on the week before</title>") !=
          std::string::npos);
    CHECK(change_text(render::history_sparkline_svg(history_of({"2.000", "2.042"}))) == "+2.1 %");
    CHECK(change_text(render::history_sparkline_svg(history_of({"2.000", "2.042"}), locale::language::fr)) == "+2,1\u202F%");
    CHECK(change_text(render::history_sparkline_svg(history_of({"1.680", "1.680"}))) == "0 %");
}

TEST_CASE("no change is printed without two priced weeks in a row")
{
    CHECK(change_text(render::history_sparkline_svg(history_of({"1.680"}))) == "—");
    CHECK(change_text(render::history_sparkline_svg(history_of({"1.680", ""}))) == "—");
    CHECK(change_text(render::history_sparkline_svg(history_of({"", "1.680"}))) == "—");
    CHECK(change_text(render::history_sparkline_svg(history_of({}))) == "—");
    auto const weeks = history_of({"1.000", "", "1.100"}).at("weeks").as_array();
    CHECK_FALSE(render::on_demand_change(weeks, 0).has_value());
    CHECK_FALSE(render::on_demand_change(weeks, 1).has_value());
    CHECK_FALSE(render::on_demand_change(weeks, 2).has_value());
    CHECK_FALSE(render::on_demand_change(weeks, 3).has_value());
}

TEST_CASE("the served sparkline of the fixture: its line and its change, in each language")
{
    auto const en = fixture_request("/v1/prices/h100-sxm/sparkline.svg");
    CHECK(en.result_int() == 200);
    CHECK(en.body().find("<polyline data-series=\"on_demand\"") != std::string::npos);
    CHECK(en.body().find("<text class=\"change\"") != std::string::npos);
    auto const fr = fixture_request("/v1/prices/h100-sxm/sparkline.svg?lang=fr");
    CHECK(fr.body().find("semaine précédente") != std::string::npos);
}

TEST_CASE("a chart's path names a GPU as the price's path does: percent-decoded, any letter case")
{
    for (std::string const chart : {"history.svg", "sparkline.svg"}) {
        INFO(chart);
        auto const by_id = fixture_request("/v1/prices/h100-sxm/" + chart);
        REQUIRE(by_id.result() == http::beast_http::status::ok);
        auto const by_name = fixture_request("/v1/prices/H100%20SXM5/" + chart);
        CHECK(by_name.result() == http::beast_http::status::ok);
        CHECK(by_name.body() == by_id.body());
        CHECK(fixture_request("/v1/prices/H100%20SXM5").result() == http::beast_http::status::ok);
        CHECK(fixture_request("/v1/prices/h100%ff/" + chart).result() == http::beast_http::status::not_found);
    }
}
