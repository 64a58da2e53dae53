#include "pricing/rent_vs_buy.hpp"

#include "pricing/estimate.hpp"
#include "pricing/rules.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace pricing = lcg::pricing;
namespace rules = lcg::pricing::rules;
using pricing::break_even_state;
using pricing::rent_vs_buy_parameters;
using pricing::rent_vs_buy_verdict;

namespace {

pricing::catalog two_models()
{
    pricing::catalog c;
    for (auto const* id : {"h100-sxm", "b200"}) {
        pricing::gpu_model g;
        g.id = id;
        g.name = id;
        g.max_gpus_per_instance = 8;
        c.gpus.push_back(g);
    }
    return c;
}

// The worked example of DESIGN §2 (on-demand $1.680, spot $0.840, reserved $1.092) and a model the
// week did not price.
pricing::price_sheet week_49()
{
    pricing::price_sheet s;
    s.week = {2026, 49};
    pricing::sheet_row h100;
    h100.gpu = "h100-sxm";
    h100.rates = pricing::rates_from_median(4'800'000);
    pricing::sheet_row b200;
    b200.gpu = "b200";
    b200.unavailable_reason = "fewer than 3 sources";
    s.rows = {h100, b200};
    return s;
}

// Eight H100s bought for $250,000, drawing 10.2 kW at $0.12 per kWh, hosted for $1,500 a month.
rent_vs_buy_parameters eight_h100(std::string utilisation, std::string months)
{
    rent_vs_buy_parameters p;
    p.gpu = "h100-sxm";
    p.gpus = "8";
    p.purchase_price = "250000";
    p.power_watts = "10200";
    p.electricity_price = "0.12";
    p.hosting_per_month = "1500";
    p.utilisation = std::move(utilisation);
    p.months = std::move(months);
    return p;
}

struct fixture {
    pricing::catalog cat = two_models();
    std::vector<pricing::price_sheet> sheets{week_49()};

    pricing::parsed<pricing::rent_vs_buy_request> parse(rent_vs_buy_parameters const& p) const
    {
        return pricing::parse_rent_vs_buy(p, cat, sheets, &sheets.front());
    }
    pricing::rent_vs_buy_answer compare(rent_vs_buy_parameters const& p) const
    {
        auto const q = parse(p);
        REQUIRE(q);
        auto const a = pricing::compare_rent_vs_buy(*q);
        REQUIRE(a);
        return *a;
    }
};

std::string text(pricing::break_even const& b) { return b.value ? b.value->text : "none"; }

}

TEST_CASE("rent versus buy: eight H100s over three years at half use, every figure by hand")
{
    fixture const f;
    auto const a = f.compare(eight_h100("50", "36"));
    // 36 × 730 h × 50 % = 13,140 working hours.
    CHECK(a.used_hours.text == "13140");
    // 8 × $1.680 × 13,140 h.
    CHECK(to_decimal(a.rent_total) == "176601.600");
    // 10.2 kW × $0.12 × 13,140 h; $1,500 × 36; and the purchase.
    CHECK(to_decimal(a.energy_total) == "16083.360");
    CHECK(to_decimal(a.hosting_total) == "54000.000");
    CHECK(to_decimal(a.own_total) == "320083.360");
    CHECK(to_decimal(a.difference) == "-143481.760");
    CHECK(a.verdict == rent_vs_buy_verdict::rent);
    // A month saves 8 × 1.68 × 365 − 10.2 × 0.12 × 365 − 1,500 = $2,958.84: 250,000 / 2,958.84 =
    // 84.4926… months, rounded up to 84.50, later than the 36 months given.
    CHECK(a.months.state == break_even_state::beyond);
    CHECK(text(a.months) == "84.5");
    // Over 36 months owning costs less from (250,000 + 54,000) / (26,280 h × $12.216) = 94.693…%.
    CHECK(a.utilisation.state == break_even_state::within);
    CHECK(text(a.utilisation) == "94.7");
}

TEST_CASE("rent versus buy: at the break-even utilisation and above it, buying wins, the months agree")
{
    fixture const f;
    auto const below = f.compare(eight_h100("94.69", "36"));
    CHECK(below.verdict == rent_vs_buy_verdict::rent);
    auto const above = f.compare(eight_h100("94.7", "36"));
    CHECK(above.verdict == rent_vs_buy_verdict::buy);
    CHECK(above.difference > pricing::money{});
    // At 94.7 % the break-even comes at 35.9969… months, rounded up to the horizon's end.
    CHECK(above.months.state == break_even_state::within);
    CHECK(text(above.months) == "36");
}

TEST_CASE("rent versus buy: when owning never catches up, and when it would take more than 100 years")
{
    fixture const f;
    // Hosting above what a month of rent saves: never, at any horizon.
    auto p = eight_h100("10", "120");
    p.hosting_per_month = "1000";
    auto const a = f.compare(p);
    CHECK(a.months.state == break_even_state::never);
    CHECK_FALSE(a.months.value);
    // Over ten years, though, owning costs less from (250,000 + 120,000) / (87,600 h × $12.216) = 34.575…%.
    CHECK(a.utilisation.state == break_even_state::within);
    CHECK(text(a.utilisation) == "34.58");
    // Electricity dearer than the rent itself: owning never costs less per hour.
    auto q = eight_h100("100", "12");
    q.gpus = "1";
    q.electricity_price = "2";
    q.power_watts = "1000";
    auto const b = f.compare(q);
    CHECK(b.utilisation.state == break_even_state::never);
    CHECK(b.months.state == break_even_state::never);
    // A saving of a few cents a month against a large purchase: past 1,200 months, not given.
    auto r = eight_h100("100", "120");
    r.gpus = "1";
    r.power_watts = "0";
    r.hosting_per_month = "1226.39";  // a month of rent is 730 × $1.680 = $1,226.40
    auto const c = f.compare(r);
    CHECK(c.months.state == break_even_state::beyond);
    CHECK_FALSE(c.months.value);
    // Nor does any utilisation pay within ten years: above 100 %, no figure.
    CHECK(c.utilisation.state == break_even_state::beyond);
    CHECK_FALSE(c.utilisation.value);
}

TEST_CASE("rent versus buy: equal totals are even, and a zero purchase pays off at once")
{
    fixture const f;
    // One H100 all the time for a month is 730 × $1.680 = $1,226.40 of rent.
    auto p = eight_h100("100", "1");
    p.gpus = "1";
    p.purchase_price = "1226.4";
    p.power_watts = "0";
    p.hosting_per_month = "0";
    auto const a = f.compare(p);
    CHECK(a.verdict == rent_vs_buy_verdict::even);
    CHECK(to_decimal(a.difference) == "0.000");
    CHECK(text(a.months) == "1");
    CHECK(text(a.utilisation) == "100");
    p.purchase_price = "0";
    auto const b = f.compare(p);
    CHECK(b.verdict == rent_vs_buy_verdict::buy);
    CHECK(text(b.months) == "0");
}

TEST_CASE("rent versus buy: the tier and the week rented at")
{
    fixture const f;
    auto p = eight_h100("50", "36");
    p.tier = "spot";
    auto const a = f.compare(p);
    CHECK(to_decimal(a.per_gpu_hour) == "0.840");
    CHECK(to_decimal(a.rent_total) == "88300.800");
    p.tier = "réservé";
    CHECK(to_decimal(f.compare(p).per_gpu_hour) == "1.092");
    p.week = "2019-W01";
    CHECK(f.parse(p).err().parameter == "week");
}

// Whether each figure is given and within its bounds the API's decoder checks, from the operation's
// declaration (tests/mcp/input_test.cpp); pricing/ reads the figures into exact units.
TEST_CASE("rent versus buy: each figure is read exactly, and a malformed one is refused by name")
{
    fixture const f;
    struct bad {
        std::string parameter;
        std::string value;
    };
    for (auto const& b : {bad{"utilisation", "50.001"}, bad{"power_watts", "10.5"}, bad{"hosting_per_month", "1e3"},
                          bad{"electricity_price", "0.1234567"}, bad{"months", "1.5"}, bad{"gpus", "two"}}) {
        CAPTURE(b.parameter);
        CAPTURE(b.value);
        auto p = eight_h100("50", "36");
        if (b.parameter == "utilisation") p.utilisation = b.value;
        if (b.parameter == "months") p.months = b.value;
        if (b.parameter == "power_watts") p.power_watts = b.value;
        if (b.parameter == "electricity_price") p.electricity_price = b.value;
        if (b.parameter == "hosting_per_month") p.hosting_per_month = b.value;
        if (b.parameter == "gpus") p.gpus = b.value;
        auto const q = f.parse(p);
        REQUIRE_FALSE(q);
        CHECK(q.err().parameter == b.parameter);
    }
}

TEST_CASE("rent versus buy: a model the week did not price is unavailable, with the reason")
{
    fixture const f;
    auto p = eight_h100("50", "36");
    p.gpu = "b200";
    auto const q = f.parse(p);
    REQUIRE(q);
    auto const a = pricing::compare_rent_vs_buy(*q);
    REQUIRE_FALSE(a);
    CHECK(a.err().code == pricing::errc::unpriced);
    CHECK(a.err().message.find("2026-W49: fewer than 3 sources") != std::string::npos);
}

TEST_CASE("rent versus buy: the largest figures every bound allows stay exact")
{
    fixture f;
    f.sheets.front().rows.front().rates = pricing::rates_from_on_demand(
        pricing::money::from_mills(rules::max_observed_price.micros() / 1000 * 7 / 10));
    auto p = eight_h100("100", std::to_string(rules::max_horizon_months));
    p.gpus = std::to_string(rules::max_requested_gpus);
    p.purchase_price = "100000000";
    p.power_watts = std::to_string(rules::max_power_watts);
    p.electricity_price = "2";
    p.hosting_per_month = "1000000";
    auto const a = f.compare(p);
    // 64 × $70,000 × 87,600 h.
    CHECK(to_decimal(a.rent_total) == "392448000000.000");
    // 200 kW × $2 × 87,600 h, $1,000,000 × 120, and the purchase.
    CHECK(to_decimal(a.own_total) == "255040000.000");
    CHECK(a.verdict == rent_vs_buy_verdict::buy);
    CHECK(a.months.state == break_even_state::within);
    CHECK(a.utilisation.state == break_even_state::within);
}
