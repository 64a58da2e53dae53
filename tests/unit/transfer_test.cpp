#include "pricing/transfer.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace lcg::pricing;

namespace {

link_time const& link(std::vector<link_time> const& times, std::string_view id)
{
    for (auto const& t : times)
        if (t.link.id == id)
            return t;
    FAIL("no link " << id);
    return times.front();
}

}

TEST_CASE("the lesson's figures: 10 GB in 5.6, 11.1, 200 and 800 ms, NVLink 18 times InfiniBand")
{
    auto const amount = parse_transfer({});
    REQUIRE(amount.has_value());
    CHECK(*amount == 10'000'000);  // 10 GB by default, the lesson's example
    auto const times = transfer_times(*amount);
    REQUIRE(times.size() == 4);
    CHECK(link(times, "nvlink-blackwell").gigabytes_per_second == "1800");
    CHECK(link(times, "nvlink-blackwell").milliseconds == "5.6");
    CHECK(link(times, "nvlink-blackwell").seconds == "0.005556");
    CHECK(link(times, "nvlink-blackwell").slower_than_reference == "0.5");
    CHECK(link(times, "nvlink-hopper").gigabytes_per_second == "900");
    CHECK(link(times, "nvlink-hopper").milliseconds == "11.1");
    CHECK(link(times, "nvlink-hopper").slower_than_reference == "1");
    // 400 Gb/s per NIC is 50 GB/s; 100 Gb/s is 12.5 GB/s.
    CHECK(link(times, "infiniband-ndr").link.rate == 400);
    CHECK(link(times, "infiniband-ndr").gigabytes_per_second == "50");
    CHECK(link(times, "infiniband-ndr").milliseconds == "200");
    CHECK(link(times, "infiniband-ndr").seconds == "0.200");
    CHECK(link(times, "infiniband-ndr").slower_than_reference == "18");
    CHECK(link(times, "ethernet-100g").gigabytes_per_second == "12.5");
    CHECK(link(times, "ethernet-100g").milliseconds == "800");
    CHECK(link(times, "ethernet-100g").slower_than_reference == "72");
    CHECK(link(times, "infiniband-ndr").link.between_nodes);
    CHECK_FALSE(link(times, "nvlink-hopper").link.between_nodes);
}

TEST_CASE("any amount, exactly, and a bad one is refused")
{
    auto const times = transfer_times(*parse_transfer({"80"}));  // an H100's memory
    CHECK(link(times, "nvlink-hopper").seconds == "0.088889");
    CHECK(link(times, "infiniband-ndr").seconds == "1.600");
    CHECK(link(times, "ethernet-100g").milliseconds == "6400");
    CHECK(link(transfer_times(*parse_transfer({"0.000001"})), "ethernet-100g").seconds == "0.000");  // 0.08 µs
    for (char const* bad : {"abc", "1e3", "1.0000001"}) {  // its bounds: the decoder's (tests/mcp/input_test.cpp)
        CAPTURE(bad);
        auto const refused = parse_transfer({bad});
        REQUIRE_FALSE(refused.has_value());
        CHECK(refused.err().parameter == "gb");
    }
}
