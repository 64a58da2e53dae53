// week= on the costing operations (issue 25, item 7): estimate, sizing, cheapest and compare answer
// at the rates of the sheet in effect that week and name it; a week no sheet covers is refused.
#include "fixture_json.hpp"

#include <boost/json.hpp>
#include <doctest/doctest.h>

#include <string>
#include <utility>

using namespace lcg::testing;
namespace json = boost::json;

namespace {

std::string text(json::object const& o, std::string_view key) { return std::string(o.at(key).as_string()); }

// A model whose on-demand rate on the sheet of `earlier` differs from today's, and that rate.
std::pair<std::string, std::string> moved_since(std::string const& earlier)
{
    auto const then = fixture_json("/v1/sheets/" + earlier);
    auto const now = fixture_json("/v1/sheets/2026-W49");
    for (auto const& a : then.at("prices").as_array())
        for (auto const& b : now.at("prices").as_array())
            if (auto const *x = a.as_object().if_contains("on_demand"), *y = b.as_object().if_contains("on_demand");
                a.at("gpu") == b.at("gpu") && x && y && x->is_string() && y->is_string() && *x != *y)
                return {std::string(a.at("gpu").as_string()), std::string(x->as_string())};
    return {};
}

}

TEST_CASE("estimate, sizing, cheapest and compare answer at the sheet of the week asked, and name it")
{
    std::string const earlier = "2026-W48";
    auto const moved = moved_since(earlier);
    std::string const gpu = moved.first;
    std::string const then = moved.second;
    CAPTURE(gpu);
    REQUIRE(!gpu.empty());  // the fixture's weeks differ, so the test can tell them apart

    auto estimate = fixture_json("/v1/estimate?gpu=" + gpu + "&hours=1&week=" + earlier);
    CHECK(text(estimate, "week") == earlier);
    CHECK(text(estimate, "effective_per_gpu_hour").starts_with(then));
    CHECK(text(fixture_json("/v1/estimate?gpu=" + gpu + "&hours=1"), "week") == "2026-W49");

    auto const sizing = fixture_json("/v1/sizing?params_b=70&precision=fp8&gpu=h100-sxm&week=" + earlier);
    CHECK(text(sizing, "week") == earlier);

    auto const cheapest = fixture_json("/v1/cheapest?vram_gb=80&week=" + earlier);
    CHECK(text(cheapest, "week") == earlier);

    std::string other;  // any other model of the sheet
    auto const current = fixture_json("/v1/sheets/2026-W49");
    for (auto const& v : current.at("prices").as_array())
        if (other.empty() && v.at("gpu").as_string() != gpu)
            other = std::string(v.at("gpu").as_string());
    auto const compare = fixture_json("/v1/compare?gpus=" + gpu + "," + other + "&week=" + earlier);
    CHECK(text(compare, "week") == earlier);
    CHECK(json::serialize(compare).find("\"" + then + "\"") != std::string::npos);

    // latest and current name sheets too; a week before the first sheet is refused, naming week.
    CHECK(text(fixture_json("/v1/sizing?params_b=7&precision=fp16&week=latest"), "week") == "2026-W49");
    for (auto const& target : {"/v1/estimate?gpu=" + gpu + "&hours=1&week=2001-W01",
                               std::string("/v1/sizing?params_b=7&precision=fp16&week=2001-W01"),
                               std::string("/v1/cheapest?vram_gb=80&week=2001-W01"),
                               "/v1/compare?gpus=" + gpu + "," + other + "&week=2001-W01"}) {
        CAPTURE(target);
        CHECK(text(fixture_json(target, 404), "parameter") == "week");
    }
    CHECK(text(fixture_json("/v1/estimate?gpu=" + gpu + "&hours=1&week=last", 400), "parameter") == "week");
}
