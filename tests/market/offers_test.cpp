#include "server/market/offers.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace lcg::market;

namespace {
constexpr int current = lcg::pricing::rules::offer_reader_revision;
}

TEST_CASE("the formats by name, and the names accepted when one is not")
{
    for (auto f : {offer_format::skypilot_vms, offer_format::vast_bundles, offer_format::runpod_gpu_types}) {
        auto const parsed = parse_offer_format(to_string(f));
        REQUIRE(parsed);
        CHECK(*parsed == f);
    }
    CHECK(to_string(offer_format::vast_bundles) == "vast-bundles");
    CHECK(to_string(offer_format::runpod_gpu_types) == "runpod-gpu-types");
    auto const unknown = parse_offer_format("vast");
    REQUIRE_FALSE(unknown);
    CHECK(unknown.err().message == "'vast' is not a listings format (accepted: skypilot-vms, vast-bundles, runpod-gpu-types)");
}

TEST_CASE("read_offers reads each format with its own reader, the memory convention is SkyPilot's only")
{
    std::string_view const vast = R"({"offers": [{"id": 7, "gpu_name": "RTX 4090", "num_gpus": 2, "dph_total": 0.7,
                                      "gpu_total_ram": 49128}]})";
    for (auto memory : {memory_convention::per_gpu_mib, memory_convention::total_mib, memory_convention::per_gpu_gb}) {
        auto const offers = read_offers(offer_format::vast_bundles, vast, memory, current);
        REQUIRE(offers);
        REQUIRE(offers->size() == 1);
        CHECK((*offers)[0].memory_mib == 24564);
    }
    auto const runpod = read_offers(offer_format::runpod_gpu_types,
                                    R"({"data": {"gpuTypes": [{"id": "NVIDIA L4", "displayName": "L4", "memoryInGb": 24,
                                        "securePrice": 0.43}]}})",
                                    memory_convention::total_mib, current);
    REQUIRE(runpod);
    CHECK((*runpod)[0].listing_id == "NVIDIA L4|secure");
    CHECK((*runpod)[0].memory_mib == 24 * 1024);
    // A file read as another format than its own is refused, not half read.
    CHECK_FALSE(read_offers(offer_format::runpod_gpu_types, vast, memory_convention::per_gpu_mib, current));
    CHECK_FALSE(read_offers(offer_format::vast_bundles, "InstanceType,AcceleratorName\n", memory_convention::per_gpu_mib, current));
    CHECK_FALSE(read_offers(offer_format::skypilot_vms, vast, memory_convention::per_gpu_mib, current));
}

TEST_CASE("a SkyPilot listing id is refused, with its line, where an observations CSV would refuse it")
{
    std::string const head = "InstanceType,AcceleratorName,AcceleratorCount,GpuInfo,Region,Price\n";
    auto const file = [&](std::string const& instance) { return head + instance + ",L4,1,,eu,0.5\n"; };
    auto const one = read_skypilot_vms(file("g4"), memory_convention::per_gpu_mib);
    REQUIRE(one);
    CHECK((*one)[0].listing_id == "g4|eu");
    auto const tab = read_skypilot_vms(file("g4\tx"), memory_convention::per_gpu_mib);
    REQUIRE_FALSE(tab);
    CHECK(tab.err().message == "line 2: the listing id must be at most 128 characters of UTF-8 without control characters");
    // Characters, not bytes: 125 accented letters and "|eu" are 128 characters in 253 bytes.
    std::string accented;
    for (int i = 0; i < 125; ++i)
        accented += "\xc3\xa9";
    CHECK(read_skypilot_vms(file(accented), memory_convention::per_gpu_mib));
    CHECK_FALSE(read_skypilot_vms(file(accented + "e"), memory_convention::per_gpu_mib));
}

TEST_CASE("a SkyPilot price written again as the spot price is no on-demand price")
{
    std::string const head = "InstanceType,AcceleratorName,AcceleratorCount,GpuInfo,Region,Price,SpotPrice\n";
    auto const price_of = [&](std::string const& prices) {
        auto const offers = read_skypilot_vms(head + "h100.1x,H100,1,,us," + prices + "\n", memory_convention::per_gpu_mib);
        REQUIRE(offers);
        return (*offers)[0].price;
    };
    // Mithril's file: an auction's floor in both columns.
    CHECK(price_of("1.0,1.0") == "");
    CHECK(price_of("1.0,1.00") == "");
    // A spot price below the price, none, or none readable leaves the price alone.
    CHECK(price_of("3.50,1.45") == "3.50");
    CHECK(price_of("3.50,") == "3.50");
    CHECK(price_of("3.50,n/a") == "3.50");
    // Exactly the same amount, not the same once rounded to the micro-dollar.
    CHECK(price_of("2.0000004,2.0000001") == "2.0000004");
    CHECK(price_of("02.50,2.5") == "");
    // A file read with the first revision, as before it, keeps it: its audit reads it so again.
    auto const first = read_offers(offer_format::skypilot_vms, head + "h100.1x,H100,1,,us,1.0,1.0\n",
                                   memory_convention::per_gpu_mib, 1);
    REQUIRE(first);
    CHECK((*first)[0].price == "1.0");
    auto const unknown = read_offers(offer_format::skypilot_vms, head, memory_convention::per_gpu_mib, current + 1);
    REQUIRE_FALSE(unknown);
    CHECK(unknown.err().message.find("reader revision " + std::to_string(current + 1)) != std::string::npos);
    CHECK_FALSE(read_offers(offer_format::skypilot_vms, head, memory_convention::per_gpu_mib, 0));
    // Without the column (SpotPrice is optional) nothing changes either.
    auto const without = read_skypilot_vms("InstanceType,AcceleratorName,AcceleratorCount,GpuInfo,Region,Price\n"
                                           "h100.1x,H100,1,,us,1.0\n",
                                           memory_convention::per_gpu_mib);
    REQUIRE(without);
    CHECK((*without)[0].price == "1.0");
}
