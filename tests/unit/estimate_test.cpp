#include "pricing/estimate.hpp"

#include "pricing/catalog.hpp"
#include "pricing/rules.hpp"
#include "pricing/sheet.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <tuple>
#include <utility>

using lcg::pricing::all_tiers;
using lcg::pricing::catalog;
using lcg::pricing::cost_per_image;
using lcg::pricing::cost_per_million_tokens;
using lcg::pricing::errc;
using lcg::pricing::estimate_job;
using lcg::pricing::estimate_parameters;
using lcg::pricing::gpu_model;
using lcg::pricing::gpu_time_cost;
using lcg::pricing::job_estimate;
using lcg::pricing::job_spec;
using lcg::pricing::line_kind;
using lcg::pricing::microseconds_per_hour;
using lcg::pricing::money;
using lcg::pricing::network_cost;
using lcg::pricing::parse_job;
using lcg::pricing::prorate;
using lcg::pricing::rates_from_median;
using lcg::pricing::sheet_row;
using lcg::pricing::storage_cost;
using lcg::pricing::tier;
using lcg::pricing::tier_parameter;
using lcg::pricing::to_decimal;
using lcg::pricing::work_unit;
namespace rules = lcg::pricing::rules;

namespace {

gpu_model model(std::string id, int max_gpus)
{
    gpu_model g;
    g.id = std::move(id);
    g.max_gpus_per_instance = max_gpus;
    return g;
}

catalog sample_catalog()
{
    catalog c;
    c.gpus = {model("a10", 4), model("h100-sxm", 8), model("rtx-4090", 4)};
    return c;
}

// The worked example of DESIGN §2: median 2.400 → 1.680 / 0.840 / 1.092.
sheet_row h100_row()
{
    sheet_row row;
    row.gpu = "h100-sxm";
    row.observations = 5;
    row.twice_median_micros = 4'800'000;
    row.rates = rates_from_median(4'800'000);
    return row;
}

job_estimate estimate(estimate_parameters const& p)
{
    auto const job = parse_job(p, sample_catalog());
    REQUIRE(job.has_value());
    sheet_row const row = h100_row();
    auto const e = estimate_job(*job, &row);
    REQUIRE(e.has_value());
    return *e;
}

std::string amount(job_estimate const& e, line_kind kind)
{
    for (auto const& l : e.lines)
        if (l.kind == kind)
            return to_decimal(l.amount);
    return "missing";
}

}

TEST_CASE("12 minutes of one H100 SXM on demand cost 0.336 USD, given in seconds or in hours")
{
    for (auto const& p : {estimate_parameters{.gpu = "h100-sxm", .seconds = "720"},
                          estimate_parameters{.gpu = "h100-sxm", .hours = "0.2"},
                          estimate_parameters{.gpu = "H100-SXM", .gpus = "1", .hours = "0.200000", .tier = "on_demand"}}) {
        job_estimate const e = estimate(p);
        CHECK(e.job.duration_us == 720'000'000);
        CHECK(to_decimal(e.total) == "0.336");
        CHECK(amount(e, line_kind::gpu_time) == "0.336");
        CHECK(e.lines[0].quantity.text == "0.2");
        CHECK(e.lines[0].quantity.exact);
        CHECK(to_decimal(e.lines[0].unit_rate) == "1.680");
        CHECK(to_decimal(e.effective_per_gpu_hour) == "1.680");
    }
}

TEST_CASE("2 × H100 SXM spot for 10 hours cost 16.800 USD, and 17.519178 with 200 GB of storage and 50 GB of egress")
{
    job_estimate const bare = estimate({.gpu = "h100-sxm", .gpus = "2", .hours = "10", .tier = "spot"});
    CHECK(to_decimal(bare.total) == "16.800");
    CHECK(bare.lines[0].quantity.text == "20");  // GPU-hours
    CHECK(to_decimal(bare.lines[0].unit_rate) == "0.840");

    job_estimate const e = estimate(
        {.gpu = "h100-sxm", .gpus = "2", .hours = "10", .tier = "spot", .storage_gb = "200", .egress_gb = "50"});
    REQUIRE(e.lines.size() == 4);
    CHECK(e.lines[0].kind == line_kind::gpu_time);
    CHECK(e.lines[1].kind == line_kind::storage);
    CHECK(e.lines[2].kind == line_kind::egress);
    CHECK(e.lines[3].kind == line_kind::ingress);
    CHECK(amount(e, line_kind::gpu_time) == "16.800");
    // 0.08 × 200 GB × 10 h / 730 h = 0.21917808… → 0.219178
    CHECK(amount(e, line_kind::storage) == "0.219178");
    CHECK(e.lines[1].quantity.text == "2.739726");  // GB-months, rounded for display
    CHECK_FALSE(e.lines[1].quantity.exact);
    CHECK(amount(e, line_kind::egress) == "0.500");
    CHECK(amount(e, line_kind::ingress) == "0.000");
    CHECK(to_decimal(e.total) == "17.519178");
    CHECK(to_decimal(e.effective_per_gpu_hour) == "0.875959");  // 17.519178 / 20 = 0.8759589

    SUBCASE("the same job in every tier")
    {
        REQUIRE(e.tiers.size() == 3);
        CHECK(e.tiers[0].billed == tier::on_demand);
        CHECK(to_decimal(e.tiers[0].gpu_time) == "33.600");
        CHECK(to_decimal(e.tiers[0].total) == "34.319178");
        CHECK(to_decimal(e.tiers[1].gpu_time) == "16.800");
        CHECK(to_decimal(e.tiers[1].total) == "17.519178");
        CHECK(to_decimal(e.tiers[2].gpu_time) == "21.840");
        CHECK(to_decimal(e.tiers[2].total) == "22.559178");
    }
    SUBCASE("the reserved commitment: 3 × 730 h × 2 GPUs × 1.092")
    {
        CHECK(e.reserved.months == 3);
        CHECK(e.reserved.hours == 2'190);
        CHECK(e.reserved.gpus == 2);
        CHECK(to_decimal(e.reserved.per_gpu_hour) == "1.092");
        CHECK(to_decimal(e.reserved.commitment) == "4782.960");
        CHECK(e.reserved.break_even_percent == 65);
    }
}

TEST_CASE("storage and network rules")
{
    // 100 GB for 730 h = one GB-month × 100 = $8.00; 50 GB of egress = $0.50.
    CHECK(storage_cost(100'000'000, 730 * microseconds_per_hour) == money::from_dollars(8));
    CHECK(network_cost(50'000'000) == money::from_micros(500'000));
    CHECK(network_cost(1) == money{});                      // 0.000001 GB → 0.00000001 $ → 0
    CHECK(network_cost(50) == money::from_micros(1));       // 0.0000005 $ → half-up → 1 µ$
    CHECK(storage_cost(0, 730 * microseconds_per_hour) == money{});

    job_estimate const e = estimate({.gpu = "h100-sxm", .hours = "730", .storage_gb = "100", .egress_gb = "50",
                                     .ingress_gb = "1.5"});
    CHECK(amount(e, line_kind::storage) == "8.000");
    CHECK(e.lines[1].quantity.text == "100");  // GB-months
    CHECK(e.lines[1].quantity.exact);
    CHECK(amount(e, line_kind::egress) == "0.500");
    CHECK(amount(e, line_kind::ingress) == "0.015");

    SUBCASE("storage kept longer than the job")
    {
        job_estimate const kept =
            estimate({.gpu = "h100-sxm", .hours = "1", .storage_gb = "100", .storage_hours = "730"});
        CHECK(amount(kept, line_kind::storage) == "8.000");
        CHECK(amount(kept, line_kind::gpu_time) == "1.680");
    }
}

TEST_CASE("per-second proration rounds half-up to the micro-dollar")
{
    // 1.680 × 1 s / 3600 = 466.666… µ$ → 467
    CHECK(prorate(money::from_mills(1'680), 1'000'000) == money::from_micros(467));
    // 0.009 × 1 s / 3600 = 2.5 µ$ → 3 (the half goes up)
    CHECK(prorate(money::from_mills(9), 1'000'000) == money::from_micros(3));
    // 0.007 × 1 s / 3600 = 1.944 µ$ → 2
    CHECK(prorate(money::from_mills(7), 1'000'000) == money::from_micros(2));
    // n GPUs cost n × the rate, prorated once
    CHECK(gpu_time_cost(money::from_mills(1'680), 3, 1'000'000) == money::from_micros(1'400));
}

TEST_CASE("cost per million tokens and per image")
{
    // 1.680 per hour / 3.6 M tokens per hour × 10^6 = 0.466666… → 0.466667
    CHECK(to_decimal(cost_per_million_tokens(money::from_mills(1'680), 1'000'000'000)) == "0.466667");
    // 1.680 per hour / 100 images per hour = 0.0168
    CHECK(to_decimal(cost_per_image(money::from_mills(1'680), 100'000'000)) == "0.0168");

    job_estimate const tokens = estimate({.gpu = "h100-sxm", .gpus = "2", .hours = "1", .tokens_per_second = "2000"});
    REQUIRE(tokens.per_work.has_value());
    CHECK(tokens.job.work->unit == work_unit::tokens_per_second);
    // 3.360 / 7.2 M × 10^6 = 0.466666… → 0.466667
    CHECK(to_decimal(*tokens.per_work) == "0.466667");
    CHECK(to_decimal(*tokens.tiers[1].per_work) == "0.233333");

    job_estimate const images = estimate({.gpu = "h100-sxm", .hours = "1", .tier = "reserved", .images_per_hour = "1200"});
    REQUIRE(images.per_work.has_value());
    CHECK(to_decimal(*images.per_work) == "0.00091");  // 1.092 / 1200

    job_estimate const none = estimate({.gpu = "h100-sxm", .hours = "1"});
    CHECK_FALSE(none.per_work.has_value());
}

// Presence and the bounds of each parameter the API's decoder checks (tests/mcp/input_test.cpp);
// here, the conversions and the rules between parameters.
TEST_CASE("every parameter is validated and the error names it")
{
    struct row {
        estimate_parameters params;
        char const* parameter;
        char const* phrase;
    };
    row const rows[] = {
        {{.gpu = "h999", .hours = "1"}, "gpu", "model name: a10, h100-sxm, rtx-4090"},
        {{.gpu = "h100-sxm", .gpus = "1.5", .hours = "1"}, "gpus", "is not an integer"},
        {{.gpu = "h100-sxm"}, "hours", "a duration is required"},
        {{.gpu = "h100-sxm", .seconds = "60", .hours = "1"}, "seconds", "not both"},
        {{.gpu = "h100-sxm", .seconds = "1.5"}, "seconds", "is not an integer"},
        {{.gpu = "h100-sxm", .hours = "1.0000001"}, "hours", "more than 6 decimals"},
        {{.gpu = "h100-sxm", .hours = "1e2"}, "hours", "not a plain decimal"},
        {{.gpu = "h100-sxm", .hours = "1", .tier = "cheap"}, "tier", "on_demand, spot, reserved"},
        {{.gpu = "h100-sxm", .hours = "1", .storage_hours = "2"}, "storage_hours", "storage_gb"},
        {{.gpu = "h100-sxm", .hours = "1", .ingress_gb = "x"}, "ingress_gb", "not a plain decimal"},
        {{.gpu = "h100-sxm", .hours = "1", .tokens_per_second = "1", .images_per_hour = "1"}, "images_per_hour",
         "at most one"},
        {{.gpu = "h100-sxm", .hours = "1", .tokens_per_second = "0"}, "tokens_per_second", "from 0.001"},
    };
    for (auto const& r : rows) {
        auto const job = parse_job(r.params, sample_catalog());
        REQUIRE_FALSE(job.has_value());
        CAPTURE(job.err().cause.message);
        CHECK(job.err().parameter == r.parameter);
        CHECK(job.err().cause.code == errc::invalid_argument);
        CHECK(job.err().cause.message.find(r.phrase) != std::string::npos);
    }
}

TEST_CASE("past a model's limit per instance, a job runs on several instances at the same per-GPU rate")
{
    // The RTX 4090 takes at most 4 per instance: 8 make 2 instances, 9 make 3; an H100 SXM takes 8.
    for (auto const& c : {std::tuple{"rtx-4090", "8", 2}, std::tuple{"rtx-4090", "9", 3}, std::tuple{"h100-sxm", "8", 1},
                          std::tuple{"h100-sxm", "20", 3}}) {
        // Named copies: a structured binding cannot be captured by CAPTURE's lambda in C++20.
        char const* gpu = std::get<0>(c);
        char const* gpus = std::get<1>(c);
        int const instances = std::get<2>(c);
        CAPTURE(gpu);
        CAPTURE(gpus);
        auto const job = parse_job({.gpu = gpu, .gpus = gpus, .hours = "1"}, sample_catalog());
        REQUIRE(job.has_value());
        CHECK(job->instances == instances);
    }
    // 20 H100 SXM for 10 hours: 200 GPU-hours × 1.680, linear in the GPUs.
    job_estimate const e = estimate({.gpu = "h100-sxm", .gpus = "20", .hours = "10"});
    CHECK(to_decimal(e.total) == "336.000");
}

TEST_CASE("a model without a price this week cannot be estimated")
{
    auto const job = parse_job({.gpu = "a10", .hours = "1"}, sample_catalog());
    REQUIRE(job.has_value());
    sheet_row row;
    row.gpu = "a10";
    row.observations = 3;
    row.unavailable_reason = "only 3 observations in the window (at least 5 needed)";
    auto const e = estimate_job(*job, &row);
    REQUIRE_FALSE(e.has_value());
    CHECK(e.err().code == errc::unpriced);
    CHECK(e.err().message.find("only 3 observations") != std::string::npos);
    CHECK_FALSE(estimate_job(*job, nullptr).has_value());
}

TEST_CASE("the largest inputs stay exact (no overflow at the bounds)")
{
    // The highest rate a sheet can carry: median $100,000 → on-demand $70,000.
    sheet_row row = h100_row();
    row.twice_median_micros = 2 * rules::max_observed_price.micros();
    row.rates = rates_from_median(*row.twice_median_micros);
    for (auto const& duration : {estimate_parameters{.hours = "8760"}, estimate_parameters{.hours = "0.000001"},
                                 estimate_parameters{.seconds = "1"}}) {
        estimate_parameters p = duration;
        p.gpu = "h100-sxm";
        p.gpus = "8";
        p.storage_gb = "1000000";
        p.storage_hours = "8760";
        p.egress_gb = "10000000";
        p.ingress_gb = "10000000";
        p.tokens_per_second = "0.001";
        auto const job = parse_job(p, sample_catalog());
        REQUIRE(job.has_value());
        auto const e = estimate_job(*job, &row);
        REQUIRE(e.has_value());
        CHECK(e->total > money{});
        CHECK(amount(*e, line_kind::storage) == "960000.000");  // 0.08 × 10^6 GB × 12 months
        CHECK(amount(*e, line_kind::egress) == "100000.000");
    }
}

TEST_CASE("property: GPU cost is linear in GPUs and duration before rounding (fixed seed)")
{
    std::mt19937_64 gen(4242);
    // Up to $1,000 per GPU-hour so that the reference product n × rate × seconds fits in int64; the
    // bounds test above covers the largest rates.
    std::uniform_int_distribution<std::int64_t> mills(1, 1'000'000);
    std::uniform_int_distribution<int> gpus(1, 8);
    std::uniform_int_distribution<std::int64_t> seconds(1, 31'536'000);
    std::uniform_int_distribution<std::int64_t> hours(1, 8'760);
    for (int i = 0; i < 20'000; ++i) {
        money const rate = money::from_mills(mills(gen));
        int const n = gpus(gen);
        std::int64_t const s = seconds(gen);
        CAPTURE(rate.micros());
        CAPTURE(n);
        CAPTURE(s);
        // Exactly: cost × 3600 s/h = n × rate × seconds. Rounding half-up leaves an error in (-½, ½].
        std::int64_t const cost = gpu_time_cost(rate, n, s * 1'000'000).micros();
        std::int64_t const exact_times_3600 = n * rate.micros() * s;
        std::int64_t const error_times_7200 = cost * 7'200 - exact_times_3600 * 2;
        REQUIRE(error_times_7200 > -3'600);
        REQUIRE(error_times_7200 <= 3'600);
        // Whole hours leave nothing to round: linear to the micro-dollar.
        std::int64_t const h = hours(gen);
        REQUIRE(gpu_time_cost(rate, n, h * microseconds_per_hour).micros() == n * h * rate.micros());
        REQUIRE(gpu_time_cost(rate, n, h * microseconds_per_hour) ==
                money::from_micros(n * gpu_time_cost(rate, 1, h * microseconds_per_hour).micros()));
    }
}

TEST_CASE("property: spot < reserved < on-demand for the same job, for every model of a sheet (fixed seed)")
{
    // Medians from $0.010 up: below that on-demand is under 7 mills and the floored shares of it can
    // coincide (on-demand 0.006 → spot 0.003 = reserved 0.003), which the rules allow.
    std::mt19937_64 gen(2026);
    std::uniform_int_distribution<std::int64_t> twice_median(20'000, 2 * rules::max_observed_price.micros());
    std::uniform_int_distribution<int> gpus(1, 8);
    for (int i = 0; i < 20'000; ++i) {
        sheet_row row = h100_row();
        row.twice_median_micros = twice_median(gen);
        row.rates = rates_from_median(*row.twice_median_micros);
        CAPTURE(*row.twice_median_micros);
        REQUIRE(row.rates->spot < row.rates->reserved);
        REQUIRE(row.rates->reserved < row.rates->on_demand);
        job_spec job;
        job.gpu = "h100-sxm";
        job.gpus = gpus(gen);
        job.duration_us = 3'600 * microseconds_per_hour;
        auto const e = estimate_job(job, &row);
        REQUIRE(e.has_value());
        REQUIRE(e->tiers[1].total < e->tiers[2].total);
        REQUIRE(e->tiers[2].total < e->tiers[0].total);
    }
    auto const below = rates_from_median(17'200);  // median 0.0086 → on-demand 0.006 → 0.003 and 0.003
    CHECK(below.on_demand == money::from_mills(6));
    CHECK(below.spot == below.reserved);
}

TEST_CASE("a tier is taken as people write it, in either language")
{
    for (auto const& spelling : std::initializer_list<std::pair<char const*, tier>>{
             {"on_demand", tier::on_demand}, {"On-Demand", tier::on_demand}, {"on demand", tier::on_demand},
             {"à la demande", tier::on_demand}, {"A la demande", tier::on_demand}, {"SPOT", tier::spot},
             {"interruptible", tier::spot}, {"preemptible", tier::spot}, {"reserved", tier::reserved},
             {"réservé", tier::reserved}, {"RÉSERVÉ", tier::reserved}, {"reserve", tier::reserved}}) {
        char const* text = spelling.first;  // a named variable: clang 14's doctest macros cannot capture bindings
        CAPTURE(text);
        auto const t = tier_parameter(std::string(text));
        REQUIRE(t.has_value());
        CHECK(*t == spelling.second);
    }
    for (char const* text : {"", "cheap", "on", "spot instance", "réservée", "on_demand_on_demand_on_demand"}) {
        CAPTURE(text);
        auto const t = tier_parameter(std::string(text));
        REQUIRE_FALSE(t.has_value());
        CHECK(t.err().parameter == "tier");
    }
}
