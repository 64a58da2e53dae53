#include "pricing/sheet.hpp"

#include "pricing/median.hpp"
#include "pricing/rules.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

using lcg::pricing::all_tiers;
using lcg::pricing::cap_centimicros;
using lcg::pricing::cap_violations;
using lcg::pricing::compute_row;
using lcg::pricing::observation;
using lcg::pricing::decimal_string;
using lcg::pricing::errc;
using lcg::pricing::is_within_cap;
using lcg::pricing::money;
using lcg::pricing::parse_money;
using lcg::pricing::parse_tier;
using lcg::pricing::price_sheet;
using lcg::pricing::rates_from_median;
using lcg::pricing::sheet_row;
using lcg::pricing::tier;
using lcg::pricing::tier_rates;
using lcg::pricing::to_decimal;
using lcg::pricing::twice_median;
namespace rules = lcg::pricing::rules;

namespace {

// Version 1's rows from each model's prices, one observation each (version 1 reads prices alone).
std::vector<sheet_row> compute_rows(std::vector<std::string> const& ids,
                                    std::map<std::string, std::vector<money>, std::less<>> const& prices)
{
    std::vector<observation> observed;
    for (auto const& [gpu, list] : prices)
        for (money const p : list)
            observed.push_back({{}, gpu, p, "s", "L" + std::to_string(observed.size()), ""});
    return lcg::pricing::compute_rows(ids, observed, 1);
}

std::vector<money> dollars(std::initializer_list<char const*> texts)
{
    std::vector<money> out;
    for (auto t : texts)
        out.push_back(*parse_money(t));
    return out;
}

std::int64_t mills(money m) { return m.micros() / money::micros_per_mill; }

// DESIGN §2 restated independently of sheet.cpp: on_demand_mills = floor(7 * m2 / 20000), then the
// shares of on-demand floored to the mill. Every operand is non-negative, so '/' floors.
struct reference_rates {
    std::int64_t on_demand_mills;
    std::int64_t spot_mills;
    std::int64_t reserved_mills;
};

reference_rates reference(std::int64_t m2)
{
    std::int64_t const od = 7 * m2 / 20'000;
    return {od, od * 50 / 100, od * 65 / 100};
}

}

TEST_CASE("the worked example: median $2.400 gives 1.680 / 0.840 / 1.092")
{
    CHECK(rules::on_demand_of_median.numerator * 100 / rules::on_demand_of_median.denominator == 70);
    CHECK(rules::spot_of_on_demand.numerator * 100 / rules::spot_of_on_demand.denominator == 50);
    CHECK(rules::reserved_of_on_demand.numerator * 100 / rules::reserved_of_on_demand.denominator == 65);

    tier_rates const r = rates_from_median(4'800'000);
    CHECK(r.on_demand == money::from_mills(1'680));
    CHECK(r.spot == money::from_mills(840));
    CHECK(r.reserved == money::from_mills(1'092));
    CHECK(to_decimal(r.on_demand) == "1.680");
    CHECK(to_decimal(r.spot) == "0.840");
    CHECK(to_decimal(r.reserved) == "1.092");
    CHECK(is_within_cap(r.on_demand, 4'800'000));
    CHECK(cap_centimicros(4'800'000) == 168'000'000);
    CHECK(decimal_string(cap_centimicros(4'800'000), 8) == "1.680");

    SUBCASE("as a row from an odd count of observations")
    {
        sheet_row const row = compute_row("h100-sxm", dollars({"2.5", "2.2", "2.4", "2.6", "2.3"}));
        CHECK(row.gpu == "h100-sxm");
        CHECK(row.observations == 5);
        REQUIRE(row.twice_median_micros.has_value());
        CHECK(*row.twice_median_micros == 4'800'000);
        REQUIRE(row.available());
        CHECK(to_decimal(row.rates->on_demand) == "1.680");
        CHECK(to_decimal(row.rates->spot) == "0.840");
        CHECK(to_decimal(row.rates->reserved) == "1.092");
        CHECK(row.unavailable_reason.empty());
    }
    SUBCASE("as a row from an even count of observations")
    {
        sheet_row const row = compute_row("h100-sxm", dollars({"2.45", "2.1", "2.35", "2.9", "2.0", "3.0"}));
        REQUIRE(row.twice_median_micros.has_value());
        CHECK(*row.twice_median_micros == 4'800'000);
        REQUIRE(row.available());
        CHECK(row.rates->on_demand == money::from_mills(1'680));
        CHECK(row.rates->spot == money::from_mills(840));
        CHECK(row.rates->reserved == money::from_mills(1'092));
    }
}

TEST_CASE("on-demand rounds down to the mill at the exact boundary and one micro either side")
{
    // median 1.000 → 0.700 exactly, and that is within the cap with equality.
    CHECK(rates_from_median(2'000'000).on_demand == money::from_mills(700));
    CHECK(is_within_cap(money::from_mills(700), 2'000'000));
    // median 0.999999 → 0.6999993 → 0.699
    CHECK(rates_from_median(1'999'998).on_demand == money::from_mills(699));
    // median 1.000001 → 0.7000007 → 0.700
    CHECK(rates_from_median(2'000'002).on_demand == money::from_mills(700));
    // Other exact landings: median 2.400 → 1.680, median 0.010 → 0.007, median 100 → 70.
    CHECK(rates_from_median(20'000).on_demand == money::from_mills(7));
    CHECK(rates_from_median(19'998).on_demand == money::from_mills(6));
    CHECK(rates_from_median(200'000'000).on_demand == money::from_mills(70'000));
    CHECK(rates_from_median(199'999'998).on_demand == money::from_mills(69'999));
}

TEST_CASE("on-demand rounds down to the mill for a half-micro median (even count)")
{
    // median 0.9999995 → 0.69999965 → 0.699
    CHECK(rates_from_median(1'999'999).on_demand == money::from_mills(699));
    // median 1.0000005 → 0.70000035 → 0.700
    CHECK(rates_from_median(2'000'001).on_demand == money::from_mills(700));

    SUBCASE("through compute_row")
    {
        sheet_row const below = compute_row("a10", dollars({"0.5", "3", "0.999999", "2", "1.000000", "0.6"}));
        REQUIRE(below.twice_median_micros.has_value());
        CHECK(*below.twice_median_micros == 1'999'999);
        REQUIRE(below.available());
        CHECK(to_decimal(below.rates->on_demand) == "0.699");

        sheet_row const above = compute_row("a10", dollars({"0.5", "3", "1.000001", "2", "1.000000", "0.6"}));
        REQUIRE(above.twice_median_micros.has_value());
        CHECK(*above.twice_median_micros == 2'000'001);
        REQUIRE(above.available());
        CHECK(to_decimal(above.rates->on_demand) == "0.700");

        sheet_row const exact = compute_row("a10", dollars({"0.5", "3", "1", "2", "1.000000", "0.6"}));
        REQUIRE(exact.available());
        CHECK(to_decimal(exact.rates->on_demand) == "0.700");
    }
}

TEST_CASE("spot and reserved are floored shares of on-demand")
{
    SUBCASE("on-demand 0.001 → spot 0.000, reserved 0.000")
    {
        tier_rates const r = rates_from_median(4'000);  // median 0.002 → 0.0014
        CHECK(r.on_demand == money::from_mills(1));
        CHECK(r.spot == money::from_mills(0));
        CHECK(r.reserved == money::from_mills(0));
    }
    SUBCASE("on-demand 0.003 → spot 0.001, reserved 0.001")
    {
        tier_rates const r = rates_from_median(10'000);  // median 0.005 → 0.0035
        CHECK(r.on_demand == money::from_mills(3));
        CHECK(r.spot == money::from_mills(1));
        CHECK(r.reserved == money::from_mills(1));
    }
    SUBCASE("on-demand 0.000 → everything 0.000")
    {
        tier_rates const r = rates_from_median(2'000);  // median 0.001 → 0.0007
        CHECK(r.on_demand == money{});
        CHECK(r.spot == money{});
        CHECK(r.reserved == money{});
    }
    SUBCASE("on-demand 0.999 → spot 0.499, reserved 0.649")
    {
        tier_rates const r = rates_from_median(2'854'286);  // 7 × 2854286 / 20000 = 999.0001
        CHECK(r.on_demand == money::from_mills(999));
        CHECK(r.spot == money::from_mills(499));
        CHECK(r.reserved == money::from_mills(649));
    }
    SUBCASE("on-demand 0.020 → reserved 0.013 exactly")
    {
        tier_rates const r = rates_from_median(57'143);  // 7 × 57143 / 20000 = 20.00005
        CHECK(r.on_demand == money::from_mills(20));
        CHECK(r.spot == money::from_mills(10));
        CHECK(r.reserved == money::from_mills(13));
    }
}

TEST_CASE("tier_rates::of picks the tier")
{
    tier_rates const r = rates_from_median(4'800'000);
    CHECK(r.of(tier::on_demand) == r.on_demand);
    CHECK(r.of(tier::spot) == r.spot);
    CHECK(r.of(tier::reserved) == r.reserved);
}

TEST_CASE("is_within_cap is exact at the boundary")
{
    // 0.70 × 1.000 = 0.700 exactly.
    CHECK(is_within_cap(money::from_mills(700), 2'000'000));
    CHECK(is_within_cap(money::from_micros(699'999), 2'000'000));
    CHECK_FALSE(is_within_cap(money::from_micros(700'001), 2'000'000));
    CHECK_FALSE(is_within_cap(money::from_mills(701), 2'000'000));
    // A half-micro median: 0.70 × 0.9999995 = 0.69999965.
    CHECK_FALSE(is_within_cap(money::from_mills(700), 1'999'999));
    CHECK(is_within_cap(money::from_micros(699'999), 1'999'999));
    CHECK_FALSE(is_within_cap(money::from_micros(700'000), 1'999'999));
    // 0.70 × 2.400 = 1.680.
    CHECK(is_within_cap(money::from_mills(1'680), 4'800'000));
    CHECK_FALSE(is_within_cap(money::from_micros(1'680'001), 4'800'000));
    CHECK(is_within_cap(money{}, 0));
    CHECK_FALSE(is_within_cap(money::from_micros(1), 0));
    // Exactly at the boundary when 7 × m2 is a multiple of 20: m2 = 20 → cap = 7 micros.
    CHECK(is_within_cap(money::from_micros(7), 20));
    CHECK_FALSE(is_within_cap(money::from_micros(8), 20));
    // At the largest median an observation may have ($100,000): no overflow.
    std::int64_t const big = 2 * rules::max_observed_price.micros();
    CHECK(is_within_cap(money::from_dollars(70'000), big));
    CHECK_FALSE(is_within_cap(money::from_micros(70'000'000'001), big));
}

TEST_CASE("cap_centimicros is 0.70 × median in hundredths of a micro, exactly")
{
    CHECK(cap_centimicros(4'800'000) == 168'000'000);
    CHECK(cap_centimicros(2'000'000) == 70'000'000);
    CHECK(cap_centimicros(1'999'999) == 69'999'965);
    CHECK(cap_centimicros(1) == 35);
    CHECK(cap_centimicros(0) == 0);
    CHECK(decimal_string(cap_centimicros(1'999'999), 8) == "0.69999965");
    CHECK(decimal_string(cap_centimicros(1), 8) == "0.00000035");
    CHECK(cap_centimicros(2 * rules::max_observed_price.micros()) == 7'000'000'000'000);
    // The published rate never exceeds the printed cap.
    for (std::int64_t m2 : {1, 2, 19'999, 20'000, 1'999'999, 2'000'000, 4'800'000, 99'999'999}) {
        CAPTURE(m2);
        CHECK(rates_from_median(m2).on_demand.micros() * 100 <= cap_centimicros(m2));
    }
}

TEST_CASE("compute_row needs at least 5 observations")
{
    SUBCASE("4 observations: unavailable, with the reason, no rates")
    {
        sheet_row const row = compute_row("l4", dollars({"0.5", "0.6", "0.7", "0.8"}));
        CHECK(row.gpu == "l4");
        CHECK(row.observations == 4);
        CHECK_FALSE(row.available());
        CHECK_FALSE(row.rates.has_value());
        CHECK(row.unavailable_reason.find('5') != std::string::npos);
        CHECK(row.unavailable_reason.find('4') != std::string::npos);
        // The median is still published for an auditor.
        REQUIRE(row.twice_median_micros.has_value());
        CHECK(*row.twice_median_micros == 1'300'000);
    }
    SUBCASE("1 observation: unavailable")
    {
        sheet_row const row = compute_row("l4", dollars({"0.5"}));
        CHECK(row.observations == 1);
        CHECK_FALSE(row.available());
        CHECK(row.unavailable_reason.find('5') != std::string::npos);
    }
    SUBCASE("0 observations: unavailable and no median")
    {
        sheet_row const row = compute_row("l4", {});
        CHECK(row.observations == 0);
        CHECK_FALSE(row.available());
        CHECK_FALSE(row.twice_median_micros.has_value());
        CHECK_FALSE(row.rates.has_value());
        CHECK(row.unavailable_reason.find('5') != std::string::npos);
    }
    SUBCASE("exactly 5 observations: priced")
    {
        sheet_row const row = compute_row("l4", dollars({"0.5", "0.6", "0.7", "0.8", "0.9"}));
        CHECK(row.observations == 5);
        REQUIRE(row.available());
        CHECK(*row.twice_median_micros == 1'400'000);
        CHECK(row.rates->on_demand == money::from_mills(490));
        CHECK(row.rates->spot == money::from_mills(245));
        CHECK(row.rates->reserved == money::from_mills(318));
        CHECK(row.unavailable_reason.empty());
    }
}

TEST_CASE("a model whose rates round to $0.000 is not priced, with the reason, never a failed week")
{
    SUBCASE("five observations at $0.001: on-demand floors to $0.000")
    {
        sheet_row const row = compute_row("l4", dollars({"0.001", "0.001", "0.001", "0.001", "0.001"}));
        CHECK(row.observations == 5);
        CHECK_FALSE(row.available());
        REQUIRE(row.twice_median_micros.has_value());
        CHECK(*row.twice_median_micros == 2'000);  // the median is still published for an auditor
        CAPTURE(row.unavailable_reason);
        CHECK(row.unavailable_reason.find("on_demand") != std::string::npos);
        CHECK(row.unavailable_reason.find("0.000") != std::string::npos);
        CHECK(row.unavailable_reason.find(to_decimal(rules::min_published_rate)) != std::string::npos);
    }
    SUBCASE("on-demand $0.001 but spot and reserved $0.000: not priced, spot named")
    {
        sheet_row const row = compute_row("l4", dollars({"0.002", "0.002", "0.002", "0.002", "0.002"}));
        CHECK_FALSE(row.available());
        CAPTURE(row.unavailable_reason);
        CHECK(row.unavailable_reason.find("spot") != std::string::npos);
    }
    SUBCASE("the smallest median whose every rate is at least $0.001 is priced")
    {
        // on-demand 0.002 needs 7 × m2 ≥ 40000: m2 = 5715 (median $0.0028575); spot 0.001, reserved 0.001.
        sheet_row const below = compute_row("l4", {money::from_micros(2'857), money::from_micros(2'857),
                                                   money::from_micros(2'857), money::from_micros(2'858),
                                                   money::from_micros(2'858), money::from_micros(2'858)});
        CHECK(*below.twice_median_micros == 5'715);
        REQUIRE(below.available());
        CHECK(below.rates->on_demand == money::from_mills(2));
        CHECK(below.rates->spot == money::from_mills(1));
        CHECK(below.rates->reserved == money::from_mills(1));
        sheet_row const under = compute_row("l4", {money::from_micros(2'857), money::from_micros(2'857),
                                                   money::from_micros(2'857), money::from_micros(2'857),
                                                   money::from_micros(2'857)});
        CHECK_FALSE(under.available());
    }
}

TEST_CASE("compute_rows keeps catalog order and marks missing models unavailable")
{
    std::vector<std::string> const ids = {"rtx-4090", "h100-sxm", "a100-80gb-sxm", "l4"};  // not sorted
    std::map<std::string, std::vector<money>, std::less<>> prices;
    prices["h100-sxm"] = dollars({"2.5", "2.2", "2.4", "2.6", "2.3"});
    prices["rtx-4090"] = dollars({"0.4", "0.5", "0.6", "0.7", "0.8", "0.9"});
    prices["l4"] = dollars({"0.3", "0.4"});
    prices["not-in-catalog"] = dollars({"1", "1", "1", "1", "1"});

    std::vector<sheet_row> const rows = compute_rows(ids, prices);
    REQUIRE(rows.size() == ids.size());
    for (std::size_t i = 0; i < ids.size(); ++i)
        CHECK(rows[i].gpu == ids[i]);

    CHECK(rows[0].available());
    CHECK(*rows[0].twice_median_micros == 1'300'000);
    CHECK(rows[0].rates->on_demand == money::from_mills(455));

    REQUIRE(rows[1].available());
    CHECK(rows[1].rates->on_demand == money::from_mills(1'680));

    CHECK_FALSE(rows[2].available());
    CHECK(rows[2].observations == 0);
    CHECK_FALSE(rows[2].twice_median_micros.has_value());
    CHECK_FALSE(rows[2].unavailable_reason.empty());

    CHECK_FALSE(rows[3].available());
    CHECK(rows[3].observations == 2);
    CHECK_FALSE(rows[3].unavailable_reason.empty());

    CHECK(compute_rows({}, prices).empty());
}

TEST_CASE("cap_violations: none for computed rows, the id of a tampered row")
{
    std::vector<std::string> const ids = {"a10", "h100-sxm", "l4"};
    std::map<std::string, std::vector<money>, std::less<>> prices;
    prices["a10"] = dollars({"0.5", "3", "0.999999", "2", "1.000000", "0.6"});
    prices["h100-sxm"] = dollars({"2.5", "2.2", "2.4", "2.6", "2.3"});
    std::vector<sheet_row> rows = compute_rows(ids, prices);
    CHECK(cap_violations(rows).empty());

    SUBCASE("one mill over the cap")
    {
        rows[1].rates->on_demand = rows[1].rates->on_demand + money::from_mills(1);
        CHECK(cap_violations(rows) == std::vector<std::string>{"h100-sxm"});
    }
    SUBCASE("one micro over the cap")
    {
        rows[1].rates->on_demand = rows[1].rates->on_demand + money::from_micros(1);
        CHECK(cap_violations(rows) == std::vector<std::string>{"h100-sxm"});
    }
    SUBCASE("the median lowered under a published rate")
    {
        rows[0].twice_median_micros = *rows[0].twice_median_micros - 3'000;  // cap 0.69894965 < 0.699
        CHECK(cap_violations(rows) == std::vector<std::string>{"a10"});
    }
    SUBCASE("a rate without a median")
    {
        rows[1].twice_median_micros.reset();
        CHECK(cap_violations(rows) == std::vector<std::string>{"h100-sxm"});
    }
    SUBCASE("every violating row, in order")
    {
        rows[0].rates->on_demand = money::from_dollars(1);
        rows[1].rates->on_demand = money::from_dollars(2);
        CHECK(cap_violations(rows) == std::vector<std::string>{"a10", "h100-sxm"});
    }
    SUBCASE("an unpriced row never violates")
    {
        rows[2].twice_median_micros = 2;
        CHECK(cap_violations(rows).empty());
    }
}

TEST_CASE("tiers: to_string and parse_tier")
{
    CHECK(to_string(tier::on_demand) == "on_demand");
    CHECK(to_string(tier::spot) == "spot");
    CHECK(to_string(tier::reserved) == "reserved");
    for (tier t : all_tiers) {
        auto const parsed = parse_tier(to_string(t));
        REQUIRE(parsed.has_value());
        CHECK(*parsed == t);
    }
    for (auto text : {"", "on-demand", "ondemand", "On_Demand", "SPOT", "spot ", " reserved", "interruptible"}) {
        CAPTURE(text);
        auto const parsed = parse_tier(text);
        REQUIRE_FALSE(parsed.has_value());
        CHECK(parsed.err().code == errc::invalid_argument);
        CHECK(parsed.err().message.find("on_demand") != std::string::npos);
    }
}

TEST_CASE("price_sheet::find and priced_models")
{
    price_sheet sheet;
    CHECK(sheet.find("h100-sxm") == nullptr);
    CHECK(sheet.priced_models() == 0);

    std::vector<std::string> const ids = {"a10", "h100-sxm", "l4"};
    std::map<std::string, std::vector<money>, std::less<>> prices;
    prices["h100-sxm"] = dollars({"2.5", "2.2", "2.4", "2.6", "2.3"});
    prices["a10"] = dollars({"1", "1", "1", "1", "1"});
    sheet.rows = compute_rows(ids, prices);
    CHECK(sheet.priced_models() == 2);
    REQUIRE(sheet.find("h100-sxm") != nullptr);
    CHECK(sheet.find("h100-sxm")->gpu == "h100-sxm");
    REQUIRE(sheet.find("l4") != nullptr);
    CHECK_FALSE(sheet.find("l4")->available());
    CHECK(sheet.find("h100") == nullptr);
    CHECK(sheet.find("") == nullptr);
}

TEST_CASE("property: 10,000 random observation sets obey DESIGN §2")
{
    std::mt19937_64 rng(20261130);
    std::uniform_int_distribution<std::size_t> size(1, 60);
    std::uniform_int_distribution<int> kind(0, 3);
    std::uniform_int_distribution<std::int64_t> any_micros(1, 50'000'000);  // 1 micro to $50
    std::uniform_int_distribution<std::int64_t> any_mills(1, 50'000);
    std::uniform_int_distribution<std::int64_t> any_cents(1, 5'000);
    std::uniform_int_distribution<std::int64_t> near_round(-3, 3);

    int priced = 0;
    int unpriced = 0;
    int even_odd_sum = 0;  // sets whose median is a half micro
    for (int set = 0; set < 10'000; ++set) {
        // Mix prices so that mill and cent boundaries, duplicates and half-micro medians all occur.
        int const style = kind(rng);
        std::vector<money> prices(size(rng));
        std::int64_t const pool_base = any_mills(rng) * 1'000;
        for (auto& p : prices) {
            std::int64_t m = 0;
            switch (style) {
            case 0: m = any_micros(rng); break;
            case 1: m = any_mills(rng) * 1'000; break;
            case 2: m = any_cents(rng) * 10'000; break;
            default: m = std::clamp<std::int64_t>(pool_base + near_round(rng), 1, 50'000'000); break;
            }
            p = money::from_micros(m);
        }

        std::vector<money> sorted = prices;
        std::sort(sorted.begin(), sorted.end());
        std::size_t const n = sorted.size();
        std::int64_t const m2 = n % 2 == 1 ? 2 * sorted[n / 2].micros() : sorted[n / 2 - 1].micros() + sorted[n / 2].micros();
        if (m2 % 2 != 0)
            ++even_odd_sum;

        CAPTURE(set);
        CAPTURE(n);
        CAPTURE(m2);
        CHECK(twice_median(prices) == m2);

        sheet_row const row = compute_row("h100-sxm", prices);
        CHECK(row.observations == static_cast<int>(n));
        REQUIRE(row.twice_median_micros.has_value());
        CHECK(*row.twice_median_micros == m2);
        if (n < 5 || reference(m2).spot_mills == 0) {  // too few, or a rate that rounds to $0.000
            ++unpriced;
            CHECK_FALSE(row.available());
            CHECK_FALSE(row.unavailable_reason.empty());
            continue;
        }
        ++priced;
        REQUIRE(row.available());
        tier_rates const& r = *row.rates;
        reference_rates const ref = reference(m2);

        CHECK(r.on_demand.micros() * 20 <= 7 * m2);                      // the cap, never exceeded
        CHECK((r.on_demand.micros() + money::micros_per_mill) * 20 > 7 * m2);  // the largest mill under it
        CHECK(is_within_cap(r.on_demand, m2));
        CHECK(r.on_demand.is_whole_mills());
        CHECK(r.spot.is_whole_mills());
        CHECK(r.reserved.is_whole_mills());
        CHECK(mills(r.on_demand) == ref.on_demand_mills);
        CHECK(mills(r.spot) == ref.spot_mills);
        CHECK(mills(r.reserved) == ref.reserved_mills);
        CHECK(r.spot <= r.reserved);
        CHECK(r.reserved <= r.on_demand);
        CHECK(r.on_demand.micros() * 100 <= cap_centimicros(m2));
    }
    CHECK(priced > 8'000);
    CHECK(unpriced > 300);
    CHECK(even_odd_sum > 100);
}

TEST_CASE("exhaustive: every median from 0 to $0.1 and around $2.40, in half micros")
{
    // Quiet on success: one assertion per range, the first mismatch reported.
    for (auto const& range : {std::pair<std::int64_t, std::int64_t>{0, 200'000},
                             std::pair<std::int64_t, std::int64_t>{4'700'000, 4'900'000}}) {
        // Plain variables rather than a structured binding: CAPTURE's lambda needs them (clang 14).
        std::int64_t const from = range.first;
        std::int64_t const to = range.second;
        std::int64_t mismatches = 0;
        std::int64_t first_mismatch = -1;
        for (std::int64_t m2 = from; m2 <= to; ++m2) {
            tier_rates const r = rates_from_median(m2);
            reference_rates const ref = reference(m2);
            bool const ok = mills(r.on_demand) == ref.on_demand_mills && mills(r.spot) == ref.spot_mills &&
                            mills(r.reserved) == ref.reserved_mills && r.on_demand.is_whole_mills() &&
                            r.spot.is_whole_mills() && r.reserved.is_whole_mills() &&
                            is_within_cap(r.on_demand, m2) &&
                            !is_within_cap(r.on_demand + money::from_mills(1), m2) &&
                            cap_centimicros(m2) == m2 * 35;
            if (!ok) {
                ++mismatches;
                if (first_mismatch < 0)
                    first_mismatch = m2;
            }
        }
        CAPTURE(from);
        CAPTURE(first_mismatch);
        CHECK(mismatches == 0);
    }
}
