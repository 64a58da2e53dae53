#include "pricing/power_score.hpp"

#include "pricing/catalog.hpp"
#include "pricing/rules.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <string>

using lcg::pricing::compute_power_score;
using lcg::pricing::micro_tflops;
using lcg::pricing::parse_figure;
using lcg::pricing::power_score;
namespace rules = lcg::pricing::rules;

TEST_CASE("PowerScore of the reference and of the H100 SXM")
{
    CHECK(std::string(rules::power_score_reference_gpu) == "rtx-3090");
    auto const reference = compute_power_score(parse_figure("71"));
    REQUIRE(reference.has_value());
    CHECK(reference->tenths == 1'000);
    CHECK(to_string(*reference) == "100.0");
    CHECK(reference->confirmed);

    // 989.4 / 71 × 100 = 1393.521… → 1393.5
    auto const h100 = compute_power_score(parse_figure("989.4"));
    REQUIRE(h100.has_value());
    CHECK(h100->tenths == 13'935);
    CHECK(to_string(*h100) == "1393.5");
}

TEST_CASE("PowerScore of every catalog figure (gpu-facts.csv), checked against an independent decimal computation")
{
    struct row {
        char const* gpu;
        char const* figure;
        char const* score;
    };
    row const rows[] = {
        {"rtx-2060", "25.8?", "36.3"},     {"rtx-3060-12gb", "25.5?", "35.9"},
        {"rtx-3090", "71", "100.0"},       {"rtx-4090", "165.2", "232.7"},
        {"rtx-5090", "209.5", "295.1"},    {"rtx-a4000", "76.7", "108.0"},
        {"rtx-a6000", "154.8", "218.0"},   {"rtx-6000-ada", "364.2", "513.0"},
        {"rtx-pro-6000-blackwell", "503.8?", "709.6"},
        {"l4", "121", "170.4"},            {"l40", "181.05", "255.0"},
        {"l40s", "362.05", "509.9"},       {"a10", "125", "176.1"},
        {"a100-40gb-sxm", "312", "439.4"}, {"a100-80gb-pcie", "312", "439.4"},
        {"a100-80gb-sxm", "312", "439.4"}, {"h100-pcie", "756.5", "1065.5"},
        {"h100-sxm", "989.4", "1393.5"},   {"h100-nvl", "835.5", "1176.8"},
        {"h200-sxm", "989.5", "1393.7"},   {"h200-nvl", "835.5", "1176.8"},
        {"b200", "2250", "3169.0"},        {"b300", "2250", "3169.0"},
        {"gb200", "2500", "3521.1"},       {"mi300x", "1307.4", "1841.4"},
        {"mi325x", "1307.4", "1841.4"},    {"mi355x", "2516.6", "3544.5"},
    };
    for (auto const& r : rows) {
        CAPTURE(r.gpu);
        auto const figure = parse_figure(r.figure);
        auto const score = compute_power_score(figure);
        REQUIRE(score.has_value());
        CHECK(to_string(*score) == r.score);
        CHECK(score->confirmed == figure.confirmed);  // unconfirmed figure → unconfirmed score
    }
}

TEST_CASE("PowerScore rounds half-up at the exact half")
{
    // 1000 × 0.0355 / 71 = 0.5 tenths → 0.1;  1000 × 3.5855 / 71 = 50.5 tenths → 5.1
    CHECK(to_string(*compute_power_score(parse_figure("0.0355"))) == "0.1");
    CHECK(to_string(*compute_power_score(parse_figure("3.5855"))) == "5.1");
    // Just below the half: 1000 × 3.585499 / 71 = 50.49998… → 5.0
    CHECK(to_string(*compute_power_score(parse_figure("3.585499"))) == "5.0");
    CHECK(to_string(*compute_power_score(parse_figure("0"))) == "0.0");
}

TEST_CASE("PowerScore refuses a figure that is not a plain decimal")
{
    for (char const* bad : {"", "1e3", "about 900", "1.0000001"}) {
        CAPTURE(bad);
        CHECK_FALSE(compute_power_score(parse_figure(bad)).has_value());
    }
    CHECK(*micro_tflops(parse_figure("181.05")) == 181'050'000);
}

TEST_CASE("PowerScore is monotonic and within half a tenth of the exact ratio (fixed seed)")
{
    std::mt19937_64 gen(71);
    std::uniform_int_distribution<std::int64_t> dist(0, 10'000'000'000);  // up to 10,000 TFLOPS
    for (int i = 0; i < 10'000; ++i) {
        std::int64_t const a = dist(gen);
        std::int64_t const b = dist(gen);
        auto const text = [](std::int64_t micro) {
            std::string frac = std::to_string(micro % 1'000'000);
            return std::to_string(micro / 1'000'000) + "." + std::string(6 - frac.size(), '0') + frac;
        };
        power_score const sa = *compute_power_score(parse_figure(text(a)));
        power_score const sb = *compute_power_score(parse_figure(text(b)));
        CAPTURE(a);
        CAPTURE(b);
        if (a <= b)
            REQUIRE(sa.tenths <= sb.tenths);
        // |tenths − 1000 a / 71e6| ≤ 1/2  ⇔  |71e6 × tenths × 2 − 2000 a| ≤ 71e6
        std::int64_t const diff = 71'000'000 * sa.tenths * 2 - 2'000 * a;
        REQUIRE(diff <= 71'000'000);
        REQUIRE(diff > -71'000'000);  // half-up: exactly −½ rounds up, so never reached
    }
}
