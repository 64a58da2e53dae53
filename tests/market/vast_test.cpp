#include "server/market/vast.hpp"

#include "fixtures.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace lcg::market;
using lcg::pricing::listing_outcome;
using lcg::market::test::rule;

namespace {

auto read(std::string_view file) { return test::read(read_vast_bundles, file); }
auto refusal(std::string_view file) { return test::refusal(read_vast_bundles, file); }

// One offer of the usual fields, with `more` members added.
std::string offer(std::string_view id, std::string_view gpu, std::string_view gpus, std::string_view price,
                  std::string_view gpu_ram, std::string_view more = "")
{
    return R"({"id": )" + std::string(id) + R"(, "gpu_name": ")" + std::string(gpu) + R"(", "num_gpus": )" +
           std::string(gpus) + R"(, "dph_total": )" + std::string(price) + R"(, "gpu_ram": )" + std::string(gpu_ram) +
           R"(, "gpu_arch": "nvidia", "min_bid": 0.01)" + std::string(more) + "}";
}

}

TEST_CASE("the V2 example offer: id, name, count and price as written")
{
    auto const offers = read(R"({"offers": [{"id": 12345, "gpu_name": "RTX 4090", "num_gpus": 1, "dph_total": 0.45,
        "dph_base": 0.4, "score": 1.23, "reliability": 0.99, "dlperf": 22.5, "verification": "verified",
        "rented": false}]})");
    REQUIRE(offers.size() == 1);
    CHECK(test::line(offers[0]) == "12345 / RTX 4090 / 1 / 0.45 / - / RTX 4090 ");
}

TEST_CASE("the V1 example offer: dph_total, never min_bid or search, gpu_ram per card")
{
    auto const offers = read(R"({"offers": [{
        "id": 12345678, "ask_contract_id": 12345678, "machine_id": 88888, "host_id": 55555,
        "gpu_name": "Imaginary RTX 9999", "num_gpus": 4, "gpu_ram": 24576, "gpu_total_ram": 49152,
        "gpu_frac": 0.75, "bw_nvlink": 0, "compute_cap": 900, "cpu_cores": 64, "cpu_cores_effective": 32,
        "cpu_ram": 65536, "disk_space": 2048.5, "dph_base": 0.123456, "dph_total": 0.234567, "min_bid": 0.111111,
        "storage_cost": 0.987654, "geolocation": "Atlantis, AT", "hosting_type": 0, "reliability": 0.9999,
        "reliability2": 0.9999, "rentable": true, "rented": false, "verification": "verified",
        "search": {"gpuCostPerHour": 0.123456, "diskHour": 0.123456, "totalHour": 0.234567,
                   "discountTotalHour": 0.01, "discountedTotalPerHour": 0.224567},
        "gpu_ids": [1, 2, 3, 4], "bundled_results": null, "external": null}]})");
    REQUIRE(offers.size() == 1);
    CHECK(test::line(offers[0]) == "12345678 / Imaginary RTX 9999 / 4 / 0.234567 / 24576 / Imaginary RTX 9999 ");
}

TEST_CASE("a multi-offer answer, with the market's names, exact prices and missing ones")
{
    std::string const file = "{\"offers\": [" +
        offer("1", "H100 SXM", "8", "17.8800001", "81559") + ",\n" +
        offer("2", "H100 NVL", "2", "0.36979999999999996", "95830") + ",\n" +
        offer("3", "A100 PCIE", "1", "1.2345675", "81920") + ",\n" +
        offer("4", "RTX 4090", "2", "0.7", "0", R"(, "gpu_total_ram": 49128)") + ",\n" +
        offer("5", "RTX 4090", "1", "0.35", "49140") + ",\n" +
        offer("6", "RTX 4090", "1", "null", "24564") + ",\n" +
        offer("7", "RTX 4090", "1", "0", "24564") + ",\n" +
        offer("8", "RTX 4090", "1", "0.0", "24564") + ",\n" +
        offer("9", "RTX 4090", "1", "0.31", "24564", R"(, "is_bid": true)") + ",\n" +
        offer("10", "RTX 4090", "1", "0.32", "24564", R"(, "rented": true, "rentable": false, "verified": false)") +
        ",\n" + R"({"id": 11, "gpu_name": "RTX 4090", "num_gpus": 1, "gpu_ram": 24564})" + ",\n" +
        offer("1", "H100 SXM", "8", "16.0", "81559") + ",\n" +
        offer("12", "", "1", "0.1", "1024") + ",\n" +
        offer("13", "H100", "1", "2.0", "81559") + "]}";
    auto const offers = read(file);
    REQUIRE(offers.size() == 14);
    CHECK(offers[0].text == "H100 SXM nvidia");
    CHECK(offers[1].price == "0.36979999999999996");
    CHECK(offers[3].memory_mib == 24564);  // gpu_total_ram / num_gpus when gpu_ram says nothing
    CHECK(offers[5].price.empty());        // null
    CHECK(offers[8].price.empty());        // a bid offer's price is not on-demand
    CHECK(offers[9].price == "0.32");      // rented now, still the price asked
    CHECK(offers[10].price.empty());       // absent

    std::vector<lcg::pricing::alias_rule> const rules = {
        rule("h100", "", {}, {}, "", listing_outcome::ambiguous),
        rule("h100sxm", "", {}, {}, "h100-sxm"),
        rule("h100nvl", "", {}, {}, "", listing_outcome::ambiguous),
        rule("h100nvl", "", 90, 96, "h100-nvl"),
        rule("a100pcie", "", 78, 82, "a100-80gb-pcie"),
        rule("rtx4090", "", {}, {}, "", listing_outcome::ambiguous),
        rule("rtx4090", "", 22, 26, "rtx-4090"),
        rule("rtx4090", "", 44, 50, "", listing_outcome::not_in_catalog),
    };
    CHECK(test::outcomes(classify_offers(offers, rules)) == std::vector<std::string>{
        "imported h100-sxm 2.235000",   // 17.8800001 / 8, half-up
        "imported h100-nvl 0.184900",   // 0.36979999999999996 / 2, exactly
        "imported a100-80gb-pcie 1.234568",
        "imported rtx-4090 0.350000",
        "not_in_catalog",               // 48 GB per card
        "no_price", "no_price", "no_price", "no_price",
        "imported rtx-4090 0.320000",
        "no_price",
        "duplicate",
        "not_gpu",
        "ambiguous",                    // an H100 with no form factor
    });
}

TEST_CASE("an answer with no offers has no listings")
{
    CHECK(read(R"({"offers": []})").empty());
    CHECK(read(R"({"offers": [], "other": {"x": [1]}})").empty());
}

TEST_CASE("what is not an offer search answer is refused whole")
{
    CHECK(refusal("offers,id\n1,2\n").starts_with("not JSON: "));
    CHECK(refusal(R"({"offers": [)").starts_with("not JSON: "));
    CHECK(refusal(R"([{"id": 1}])").starts_with("not a Vast.ai offer search answer"));
    CHECK(refusal(R"({"data": []})").starts_with("not a Vast.ai offer search answer"));
    CHECK(refusal(R"({"offers": {"id": 1}})") == "offers is an object, not an array");
    CHECK(refusal(R"({"offers": [1]})") == "offers[0] is a number, not an object");
    CHECK(refusal("{\"offers\": [" + offer("1", "RTX 4090", "1", "\"0.5\"", "24564") + "]}") ==
          "offers[0].dph_total is a string, not a number");
    CHECK(refusal("{\"offers\": [" + offer("\"1\"", "RTX 4090", "1", "0.5", "24564") + "]}") ==
          "offers[0].id is a string, not a number");
    CHECK(refusal("{\"offers\": [" + offer("1", "RTX 4090", "\"1\"", "0.5", "24564") + "]}") ==
          "offers[0].num_gpus is a string, not a number");
    CHECK(refusal("{\"offers\": [" + offer("1", "RTX 4090", "1", "0.5", "24564", R"(, "is_bid": "no")") + "]}") ==
          "offers[0].is_bid is a string, not a boolean");
    CHECK(refusal(R"({"offers": [{"gpu_name": "RTX 4090", "num_gpus": 1, "dph_total": 0.5}]})") ==
          "offers[0] has no integer id");
    CHECK(refusal("{\"offers\": [" + offer("1", "A", "1", "0.5", "1") + "," + offer("1.5", "A", "1", "0.5", "1") +
                  "]}") == "offers[1] has no integer id (1.5)");
    CHECK(refusal("{\"offers\": [" + offer(std::string(129, '7'), "A", "1", "0.5", "1") + "]}") ==
          "offers[0]: the listing id must be at most 128 characters of UTF-8 without control characters");
    CHECK(refusal(R"({"offers": [{"id": 1, "search": )" + std::string(30, '[') + std::string(30, ']') + "}]}") ==
          "the document nests arrays and objects deeper than 20 levels");
    CHECK(refusal(R"({"offers": [{"id": 1, "dph_total": 0.5, "dph_total": 0.1}]})") ==
          "an object names the key 'dph_total' twice");
}
