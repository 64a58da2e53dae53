#include "pricing/compare.hpp"

#include "pricing/catalog.hpp"
#include "pricing/sheet.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

using lcg::pricing::catalog;
using lcg::pricing::compare_gpus;
using lcg::pricing::comparison;
using lcg::pricing::errc;
using lcg::pricing::gpu_model;
using lcg::pricing::parse_figure;
using lcg::pricing::parse_gpu_list;
using lcg::pricing::price_sheet;
using lcg::pricing::rates_from_median;
using lcg::pricing::sheet_row;
using lcg::pricing::to_decimal;

namespace {

using ids = std::vector<std::string>;

gpu_model model(std::string id, int vram, int bandwidth, char const* tflops)
{
    gpu_model g;
    g.id = std::move(id);
    g.vram_gb = vram;
    g.memory_bandwidth_gbs = bandwidth;
    g.fp16_dense_tflops = parse_figure(tflops);
    return g;
}

catalog sample_catalog()
{
    catalog c;
    c.gpus = {model("a100-80gb-sxm", 80, 2039, "312"), model("h100-sxm", 80, 3350, "989.4"),
              model("l40", 48, 864, "181.05"), model("l40s", 48, 864, "362.05"),
              model("rtx-2060", 6, 336, "25.8?")};
    return c;
}

sheet_row priced(std::string gpu, std::int64_t twice_median)
{
    sheet_row r;
    r.gpu = std::move(gpu);
    r.observations = 5;
    r.twice_median_micros = twice_median;
    r.rates = rates_from_median(twice_median);
    return r;
}

price_sheet sample_sheet()
{
    price_sheet s;
    s.rows = {priced("a100-80gb-sxm", 2'800'000),  // median 1.400 → 0.980
              priced("h100-sxm", 4'800'000),       // median 2.400 → 1.680
              priced("l40", 2'000'000),            // median 1.000 → 0.700
              priced("l40s", 2'000'000)};          // median 1.000 → 0.700
    sheet_row r;
    r.gpu = "rtx-2060";
    r.unavailable_reason = "only 1 observation";
    s.rows.push_back(r);
    return s;
}

comparison compare(ids const& list)
{
    price_sheet const sheet = sample_sheet();
    auto const c = compare_gpus(list, sample_catalog(), &sheet);
    REQUIRE(c.has_value());
    return *c;
}

}

TEST_CASE("L40S against A100: prices, PowerScore, price per PowerScore and per GB, and the winners")
{
    comparison const c = compare({"l40s", "a100-80gb-sxm"});
    REQUIRE(c.rows.size() == 2);
    auto const& l40s = c.rows[0];
    auto const& a100 = c.rows[1];
    CHECK(l40s.gpu == "l40s");
    CHECK(to_string(l40s.score) == "509.9");
    CHECK(to_string(a100.score) == "439.4");
    CHECK(to_decimal(l40s.rates->on_demand) == "0.700");
    CHECK(to_decimal(a100.rates->on_demand) == "0.980");
    // 0.700 × 71 / 362.05 = 0.1372738… → 0.137274;  0.980 × 71 / 312 = 0.223012… → 0.223013
    CHECK(to_decimal(*l40s.per_100_power_score) == "0.137274");
    CHECK(to_decimal(*a100.per_100_power_score) == "0.223013");
    // 0.700 / 48 = 0.0145833… → 0.014583;  0.980 / 80 = 0.01225
    CHECK(to_decimal(*l40s.per_gb_vram_hour) == "0.014583");
    CHECK(to_decimal(*a100.per_gb_vram_hour) == "0.01225");

    CHECK(c.winners.lowest_price[0] == ids{"l40s"});
    CHECK(c.winners.lowest_price[1] == ids{"l40s"});
    CHECK(c.winners.lowest_price[2] == ids{"l40s"});
    CHECK(c.winners.most_vram == ids{"a100-80gb-sxm"});
    CHECK(c.winners.most_bandwidth == ids{"a100-80gb-sxm"});
    CHECK(c.winners.highest_power_score == ids{"l40s"});
    CHECK(c.winners.lowest_price_per_power_score == ids{"l40s"});
    CHECK(c.winners.lowest_price_per_gb_vram == ids{"a100-80gb-sxm"});
}

TEST_CASE("ties name every winner, and unpriced models take part only in the non-price criteria")
{
    comparison const c = compare({"l40", "l40s", "rtx-2060"});
    CHECK(c.winners.lowest_price[0] == ids{"l40", "l40s"});
    CHECK(c.winners.most_vram == ids{"l40", "l40s"});
    CHECK(c.winners.most_bandwidth == ids{"l40", "l40s"});
    CHECK(c.winners.highest_power_score == ids{"l40s"});
    CHECK(c.winners.lowest_price_per_power_score == ids{"l40s"});
    CHECK(c.winners.lowest_price_per_gb_vram == ids{"l40", "l40s"});
    auto const& rtx = c.rows[2];
    CHECK_FALSE(rtx.rates.has_value());
    CHECK_FALSE(rtx.per_100_power_score.has_value());
    CHECK(rtx.unpriced_reason == "only 1 observation");
    CHECK_FALSE(rtx.score.confirmed);
}

TEST_CASE("winners compare exact ratios, not their rounded values")
{
    // Two models whose prices per GB round to the same micro-dollar (0.000333) but differ exactly:
    // 0.001 / 3 GB = 0.000333333… and 1000 / 3,000,001 GB = 0.000333333222…
    catalog cat;
    cat.gpus = {model("x-a", 3, 1, "1"), model("x-b", 3'000'001, 1, "1")};
    price_sheet sheet;
    sheet.rows = {priced("x-a", 2'858), priced("x-b", 2'857'142'858)};  // on-demand 0.001 and 1000.000
    auto const c = compare_gpus({"x-a", "x-b"}, cat, &sheet);
    REQUIRE(c.has_value());
    CHECK(to_decimal(c->rows[0].rates->on_demand) == "0.001");
    CHECK(to_decimal(c->rows[1].rates->on_demand) == "1000.000");
    CHECK(to_decimal(*c->rows[0].per_gb_vram_hour) == "0.000333");
    CHECK(to_decimal(*c->rows[1].per_gb_vram_hour) == "0.000333");
    CHECK(c->winners.lowest_price_per_gb_vram == ids{"x-b"});
    CHECK(c->winners.lowest_price[0] == ids{"x-a"});
}

TEST_CASE("the list of models: distinct catalog ids")
{
    CHECK(*parse_gpu_list("gpus", std::string("l40s,a100-80gb-sxm"), sample_catalog()) == ids{"l40s", "a100-80gb-sxm"});
    CHECK(*parse_gpu_list("gpus", std::string(" L40S , H100-SXM "), sample_catalog()) == ids{"l40s", "h100-sxm"});
    struct row {
        std::string text;
        char const* phrase;
    };
    // How many (2 to 8) and whether given at all the decoder checks (tests/mcp/input_test.cpp).
    row const rows[] = {
        {"l40s,", "empty item"},
        {",l40s", "empty item"},
        {"l40s,l40s", "listed twice"},
        {"l40s,L40S", "listed twice"},
        {"l40s,h999", "'h999' is not a GPU of the catalog"},
    };
    for (auto const& r : rows) {
        auto const list = parse_gpu_list("gpus", r.text, sample_catalog());
        REQUIRE_FALSE(list.has_value());
        CAPTURE(list.err().cause.message);
        CHECK(list.err().parameter == "gpus");
        CHECK(list.err().cause.code == errc::invalid_argument);
        CHECK(list.err().cause.message.find(r.phrase) != std::string::npos);
    }
}
