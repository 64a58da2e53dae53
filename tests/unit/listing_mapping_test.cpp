#include "pricing/listing_mapping.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace lcg::pricing;

namespace {

alias_rule rule(std::string name, std::string hint, std::optional<int> lo, std::optional<int> hi, std::string gpu,
                listing_outcome outcome = listing_outcome::imported)
{
    return {std::move(name), std::move(hint), lo, hi, outcome, std::move(gpu), outcome == listing_outcome::imported ? "" : "why"};
}

// A few rules of the H100 and RTX 4090 kind: a name shared by models told apart by hints and memory.
std::vector<alias_rule> const rules = {
    rule("h100", "", {}, {}, "", listing_outcome::ambiguous),
    rule("h100", "sxm", {}, {}, "h100-sxm"),
    rule("h100", "pcie", {}, {}, "h100-pcie"),
    rule("h100", "nvl", 90, 96, "h100-nvl"),
    rule("rtx4090", "", {}, {}, "", listing_outcome::ambiguous),
    rule("rtx4090", "", 22, 26, "rtx-4090"),
    rule("rtx4090", "", 44, 50, "", listing_outcome::not_in_catalog),
    rule("l40", "", {}, {}, "l40"),
    rule("l40", "l40s", {}, {}, "", listing_outcome::ambiguous),
};

market_offer offer(std::string accelerator, std::string text, std::optional<std::int64_t> mib, std::string price = "2.0",
                   std::string count = "1", std::string id = "x")
{
    return {std::move(id), std::move(accelerator), std::move(count), std::move(price), mib, std::move(text)};
}

}

TEST_CASE("names are compared by their letters and digits only")
{
    CHECK(normalise_accelerator("RTX-6000-Ada") == "rtx6000ada");
    CHECK(normalise_accelerator("RTX 6000 Ada") == "rtx6000ada");
    CHECK(normalise_accelerator("H100_NVL") == "h100nvl");
}

TEST_CASE("a hint the listing contains decides, without one the name alone is ambiguous")
{
    CHECK(map_offer(offer("H100", "gpu_1x_h100_pcie", 81920), rules).gpu == "h100-pcie");
    CHECK(map_offer(offer("H100", "gpu_8x_h100_sxm5", 81920), rules).gpu == "h100-sxm");
    CHECK(map_offer(offer("H100", "1x-H100_NVL-32-65536", 95830), rules).gpu == "h100-nvl");
    // NVL with 80 GB per GPU fits no rule with a hint: the unhinted rule says ambiguous
    CHECK(map_offer(offer("H100", "n3-H100x8-NVLink", 81920), rules).outcome == listing_outcome::ambiguous);
    CHECK(map_offer(offer("H100", "8x-H100", 81920), rules).outcome == listing_outcome::ambiguous);
    // both form factors named: two outcomes, ambiguous
    auto const both = map_offer(offer("H100", "h100 sxm pcie", 81920), rules);
    CHECK(both.outcome == listing_outcome::ambiguous);
    CHECK(both.reason.find("h100-sxm") != std::string::npos);
}

TEST_CASE("a memory range beats no range, and unknown memory fits no range")
{
    CHECK(map_offer(offer("RTX4090", "", 24564), rules).gpu == "rtx-4090");
    CHECK(map_offer(offer("RTX4090", "", 49140), rules).outcome == listing_outcome::not_in_catalog);
    CHECK(map_offer(offer("RTX4090", "", std::nullopt), rules).outcome == listing_outcome::ambiguous);
    CHECK(map_offer(offer("RTX4090", "", 12288), rules).outcome == listing_outcome::ambiguous);
}

TEST_CASE("a name with no rule is not in the catalog, an ambiguous hint overrides the name")
{
    CHECK(map_offer(offer("V100", "", 16384), rules).outcome == listing_outcome::not_in_catalog);
    CHECK(map_offer(offer("L40", "latitude__8xL40_48GB g3-l40s-large", 49152), rules).outcome == listing_outcome::ambiguous);
    CHECK(map_offer(offer("L40", "n3-L40x1", 49152), rules).gpu == "l40");
}

TEST_CASE("among rules that disagree, the one that says the listing is ambiguous gives the reason")
{
    std::vector<alias_rule> const h200 = {rule("h200", "nvl", {}, {}, "h200-nvl"),
                                          {"h200", "nvlink", {}, {}, listing_outcome::ambiguous, "", "NVLink joins both"}};
    auto const linked = map_offer(offer("H200", "8x H200 NVLink", 144384), h200);
    CHECK(linked.outcome == listing_outcome::ambiguous);
    CHECK(linked.reason == "NVLink joins both ('H200', 144384 MiB per GPU)");
    CHECK(map_offer(offer("H200", "1x H200 NVL", 144384), h200).gpu == "h200-nvl");
}

TEST_CASE("the per-GPU price is the instance price over its GPUs, half-up to the micro-dollar, exactly")
{
    CHECK(per_gpu_price("31.92", 8)->micros() == 3'990'000);
    CHECK(per_gpu_price("0.36979999999999996", 1)->micros() == 369'800);
    CHECK(per_gpu_price("4.000001", 2)->micros() == 2'000'001);   // 2.0000005 rounds up
    CHECK(per_gpu_price("4.0000009", 2)->micros() == 2'000'000);  // 2.00000045 rounds down
    CHECK(per_gpu_price("0.0000015", 1)->micros() == 2);          // the digit after the micro decides
    CHECK(per_gpu_price("12.5655", 8)->micros() == 1'570'688);    // 1.5706875
    CHECK(per_gpu_price("5", 3)->micros() == 1'666'667);
    CHECK_FALSE(per_gpu_price("", 1));
    CHECK_FALSE(per_gpu_price("0.00", 1));
    CHECK_FALSE(per_gpu_price("-1.5", 1));
    CHECK_FALSE(per_gpu_price("1e3", 1));
    CHECK_FALSE(per_gpu_price("0.0000004", 1));  // rounds to $0
    CHECK_FALSE(per_gpu_price("100000000", 1));  // above the largest accepted price
}

TEST_CASE("GPU counts are whole and positive")
{
    CHECK(gpu_count("8") == 8);
    CHECK(gpu_count("8.0") == 8);
    CHECK(gpu_count("8.") == 8);
    CHECK_FALSE(gpu_count("8.."));
    CHECK_FALSE(gpu_count(""));
    CHECK_FALSE(gpu_count("0"));
    CHECK_FALSE(gpu_count("0.0"));
    CHECK_FALSE(gpu_count("0.5"));
    CHECK_FALSE(gpu_count("-1"));
}

TEST_CASE("every offer ends in exactly one outcome, in order: not a GPU, repeated, no price, the mapping")
{
    std::vector<market_offer> const offers = {
        offer("", "cpu", {}, "0.2", "", "cpu|r"),
        offer("H100", "gpu_8x_h100_sxm5", 81920, "31.92", "8", "a|r"),
        offer("H100", "gpu_8x_h100_sxm5", 81920, "", "8", "a|r"),  // repeated id: the first counts
        offer("H100", "gpu_1x_h100_pcie", 81920, "", "1", "b|r"),
        offer("H100", "8x-H100", 81920, "20", "8", "c|r"),
        offer("V100", "", 16384, "1", "1", "d|r"),
    };
    auto const out = classify_offers(offers, rules);
    REQUIRE(out.size() == offers.size());
    CHECK(out[0].outcome == listing_outcome::not_gpu);
    CHECK(out[1].outcome == listing_outcome::imported);
    CHECK(out[1].gpu == "h100-sxm");
    CHECK(out[1].price.micros() == 3'990'000);
    CHECK(out[2].outcome == listing_outcome::duplicate);
    CHECK(out[3].outcome == listing_outcome::no_price);
    CHECK(out[4].outcome == listing_outcome::ambiguous);
    CHECK(out[5].outcome == listing_outcome::not_in_catalog);
    for (auto const& l : out)
        CHECK((l.outcome == listing_outcome::imported) == l.reason.empty());
}

TEST_CASE("the mapping CSV reads back to the same rules")
{
    std::string const csv = mapping_csv(rules);
    auto const back = parse_mapping_csv(csv);
    REQUIRE(back);
    CHECK(*back == rules);
    CHECK_FALSE(parse_mapping_csv("accelerator,hint\n"));
    CHECK_FALSE(parse_mapping_csv(csv + "H-100,,,,gpu,h100-sxm,\n"));  // not normalised
    CHECK_FALSE(parse_mapping_csv(csv + "h100,,5,,gpu,h100-sxm,\n"));  // half a range
    CHECK_FALSE(parse_mapping_csv(csv + "h100,,,,gpu,,\n"));           // gpu outcome without an id
}
