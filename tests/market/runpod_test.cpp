#include "server/market/runpod.hpp"

#include "fixtures.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace lcg::market;
using lcg::pricing::listing_outcome;
using lcg::market::test::rule;

namespace {

auto read(std::string_view file) { return test::read(read_runpod_gpu_types, file); }
auto refusal(std::string_view file) { return test::refusal(read_runpod_gpu_types, file); }

std::string answer(std::string const& types)
{
    return R"({"data": {"gpuTypes": [)" + types + "]}}";
}

// A GpuType of R4's table with `more` members added.
std::string gpu_type(std::string_view id, std::string_view display, std::string_view memory, std::string_view more)
{
    return R"({"id": ")" + std::string(id) + R"(", "displayName": ")" + std::string(display) + R"(", "memoryInGb": )" +
           std::string(memory) + std::string(more) + "}";
}

}

TEST_CASE("the example GpuType: the secure cloud's price per GPU, memory in GB per GPU")
{
    auto const offers = read(answer(R"({
        "id": "NVIDIA H100 80GB HBM3", "displayName": "H100 SXM", "memoryInGb": 80, "manufacturer": "abc123",
        "cudaCores": 987, "maxGpuCount": 123, "maxGpuCountCommunityCloud": 987, "maxGpuCountSecureCloud": 123,
        "minPodGpuCount": 987, "nodeGroupGpuSizes": [987], "secureCloud": true, "communityCloud": true,
        "securePrice": 123.45, "clusterPrice": 123.45, "communityPrice": 987.65, "oneWeekPrice": 123.45,
        "oneMonthPrice": 123.45, "threeMonthPrice": 123.45, "sixMonthPrice": 987.65, "oneYearPrice": 987.65,
        "communitySpotPrice": 987.65, "secureSpotPrice": 987.65, "throughput": 987,
        "lowestPrice": {"minimumBidPrice": 1.5, "uninterruptablePrice": 2.5}})"));
    REQUIRE(offers.size() == 1);
    CHECK(test::line(offers[0]) == "NVIDIA H100 80GB HBM3|secure / H100 SXM / 1 / 123.45 / 81920 / NVIDIA H100 80GB HBM3 H100 SXM");
}

TEST_CASE("a multi-type answer: exact prices, missing ones, the community price never read")
{
    std::string const types =
        gpu_type("NVIDIA H100 80GB HBM3", "H100 SXM", "80", R"(, "securePrice": 2.6899999999999999, "communityPrice": 1.99)") +
        ",\n" + gpu_type("NVIDIA H100 NVL", "H100 NVL", "94", R"(, "securePrice": 2.79, "secureCloud": true)") + ",\n" +
        gpu_type("NVIDIA A100 80GB PCIe", "A100 PCIe", "80", R"(, "securePrice": 1.6400005)") + ",\n" +
        gpu_type("NVIDIA GeForce RTX 4090", "RTX 4090", "24", R"(, "securePrice": null, "communityPrice": 0.34)") + ",\n" +
        gpu_type("NVIDIA GeForce RTX 3090", "RTX 3090", "24", R"(, "communityPrice": 0.22)") + ",\n" +
        gpu_type("NVIDIA L4", "L4", "24", R"(, "securePrice": 0)") + ",\n" +
        gpu_type("NVIDIA A40", "A40", "48", R"(, "securePrice": 0.40, "secureCloud": false)") + ",\n" +
        R"({"id": "NVIDIA H100 PCIe", "memoryInGb": 80, "securePrice": 2.39})" + ",\n" +
        gpu_type("NVIDIA H100 80GB HBM3", "H100 SXM", "80", R"(, "securePrice": 2.5)") + ",\n" +
        gpu_type("Imaginary GPU", "Imaginary 9999", "null", R"(, "securePrice": 9.99)");
    auto const offers = read(answer(types));
    REQUIRE(offers.size() == 10);
    CHECK(offers[0].price == "2.6899999999999999");
    CHECK(offers[3].price.empty());  // null, though the community cloud has one
    CHECK(offers[4].price.empty());  // absent
    CHECK(offers[5].price == "0");
    CHECK(offers[6].price.empty());  // not offered on the secure cloud
    CHECK(offers[7].accelerator == "NVIDIA H100 PCIe");  // no displayName: the id
    CHECK(offers[7].text == "NVIDIA H100 PCIe ");
    CHECK_FALSE(offers[9].memory_mib);

    std::vector<lcg::pricing::alias_rule> const rules = {
        rule("h100sxm", "", {}, {}, "h100-sxm"),
        rule("h100nvl", "", {}, {}, "", listing_outcome::ambiguous),
        rule("h100nvl", "", 90, 96, "h100-nvl"),
        rule("a100pcie", "", 78, 82, "a100-80gb-pcie"),
        rule("rtx4090", "", 22, 26, "rtx-4090"),
        rule("rtx3090", "", {}, {}, "rtx-3090"),
        rule("l4", "", {}, {}, "l4"),
        rule("a40", "", {}, {}, "", listing_outcome::not_in_catalog),
        rule("nvidiah100pcie", "", {}, {}, "h100-pcie"),
    };
    CHECK(test::outcomes(classify_offers(offers, rules)) == std::vector<std::string>{
        "imported h100-sxm 2.690000",
        "imported h100-nvl 2.790000",
        "imported a100-80gb-pcie 1.640001",  // half-up at the micro-dollar
        "no_price", "no_price", "no_price", "no_price",
        "imported h100-pcie 2.390000",
        "duplicate",
        "not_in_catalog",  // no rule knows the name
    });
}

TEST_CASE("an answer with no types has no listings")
{
    CHECK(read(answer("")).empty());
    CHECK(read(R"({"data": {"gpuTypes": []}, "extensions": {}, "errors": []})").empty());
}

TEST_CASE("what is not a gpuTypes answer is refused whole")
{
    CHECK(refusal("id,displayName\n").starts_with("not JSON: "));
    CHECK(refusal(answer(R"({"id": "x", "securePrice": 1.5,})")).starts_with("not JSON: "));
    for (std::string_view shape : {R"([{"id": "NVIDIA L4"}])", R"({"gpuTypes": [{"id": "NVIDIA L4"}]})", R"({"data": null})",
                                   R"({"data": {"gpuType": []}})", R"("data")"})
        CHECK_MESSAGE(refusal(shape).starts_with("not a RunPod gpuTypes answer"), shape);
    CHECK(refusal(R"({"data": {"gpuTypes": null}})") == "data.gpuTypes is null, not an array");
    CHECK(refusal(R"({"data": null, "errors": [{"message": "Unauthorized", "path": ["gpuTypes"]}]})") ==
          "the answer reports GraphQL errors (the first: 'Unauthorized'); it may be partial");
    CHECK(refusal(answer("\"NVIDIA L4\"")) == "data.gpuTypes[0] is a string, not an object");
    CHECK(refusal(answer(R"({"displayName": "L4", "securePrice": 0.43})")) == "data.gpuTypes[0] has no id");
    CHECK(refusal(answer(R"({"id": 7, "displayName": "L4"})")) == "data.gpuTypes[0].id is a number, not a string");
    CHECK(refusal(answer(gpu_type("NVIDIA L4", "L4", "24", "") + "," +
                         gpu_type("NVIDIA L40", "L40", "48", R"(, "securePrice": "0.99")"))) ==
          "data.gpuTypes[1].securePrice is a string, not a number");
    CHECK(refusal(answer(gpu_type("NVIDIA L4", "L4", "\"24\"", ""))) ==
          "data.gpuTypes[0].memoryInGb is a string, not a number");
    CHECK(refusal(answer(gpu_type("NVIDIA L4", "L4", "24", R"(, "secureCloud": 1)"))) ==
          "data.gpuTypes[0].secureCloud is a number, not a boolean");
    CHECK(refusal(answer(gpu_type(std::string(130, 'x'), "L4", "24", ""))) ==
          "data.gpuTypes[0]: the listing id must be at most 128 characters of UTF-8 without control characters");
    // The canonical CSV holds a listing id on one line: a newline in it is refused, not published.
    CHECK(refusal(answer(gpu_type("NVIDIA L4\\nX", "L4", "24", ""))) ==
          "data.gpuTypes[0]: the listing id must be at most 128 characters of UTF-8 without control characters");
    CHECK(read_runpod_gpu_types(answer(gpu_type(std::string(128 - 7, 'x'), "L4", "24", ""))));
    CHECK(refusal(answer(gpu_type("NVIDIA L4", "L4", "24", R"(, "nodeGroupDatacenters": )" + std::string(25, '[') +
                                                              std::string(25, ']')))) ==
          "the document nests arrays and objects deeper than 20 levels");
}
