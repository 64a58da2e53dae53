// Rules version 2 (DESIGN §2): each source's lower median, then the median of the sources' prices.
#include "pricing/sheet.hpp"

#include "pricing/rules.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace lcg::pricing;

namespace {

std::vector<sourced_price> listings(std::vector<std::pair<char const*, std::int64_t>> const& items)
{
    std::vector<sourced_price> out;
    for (auto const& [source, micros] : items)
        out.push_back({source, money::from_micros(micros)});
    return out;
}

}

TEST_CASE("one seller with many listings does not set the price")
{
    // "big" lists eight cheap offers; the two others one each. Version 1 would take 1.00's
    // neighbourhood; version 2 takes the median of three sources' prices.
    auto const row = compute_market_row("h100-sxm", listings({{"big", 1'000'000}, {"big", 1'000'000}, {"big", 1'100'000},
                                                              {"big", 1'100'000}, {"big", 1'200'000}, {"big", 1'200'000},
                                                              {"big", 1'300'000}, {"big", 9'000'000}, {"b", 2'400'000},
                                                              {"c", 3'000'000}}));
    REQUIRE(row.available());
    CHECK(row.sources == 3);
    CHECK(row.observations == 10);
    // big's lower median is its 4th of 8: 1.100000
    REQUIRE(row.by_source.size() == 3);
    CHECK(row.by_source[0].source == "b");
    CHECK(row.by_source[1].source == "big");
    CHECK(row.by_source[1].price.micros() == 1'100'000);
    CHECK(row.by_source[1].listings == 8);
    CHECK(row.twice_median_micros == 4'800'000);  // the sources' median: 2.400000
    CHECK(to_decimal(row.rates->on_demand) == "1.680");
    auto const m = published_market(row);
    CHECK(m.min == "1.000");
    CHECK(m.p25 == "1.100");   // the 3rd of 10 (nearest rank ⌈2.5⌉)
    CHECK(m.median == "1.200");  // the 5th and 6th of 10
    CHECK(m.p75 == "2.400");   // the 8th of 10
    CHECK(m.max == "9.000");
}

TEST_CASE("an even count of sources averages the two middle prices exactly")
{
    auto const row = compute_market_row("rtx-4090", listings({{"a", 388'064}, {"b", 394'844}, {"c", 408'013}, {"d", 409'270},
                                                              {"d", 409'271}}));
    CHECK(row.twice_median_micros == 394'844 + 408'013);
    CHECK(published_figures(row).median == "0.4014285");
}

TEST_CASE("a model needs 3 sources and 5 listings")
{
    auto const two_sources = compute_market_row("l4", listings({{"a", 1}, {"a", 2}, {"a", 3}, {"b", 4}, {"b", 5}, {"b", 6}}));
    CHECK_FALSE(two_sources.available());
    CHECK(two_sources.unavailable_reason == "6 listings from 2 sources in the window; at least 5 listings from 3 sources are needed");
    CHECK(two_sources.twice_median_micros.has_value());
    auto const four_listings = compute_market_row("l4", listings({{"a", 400'000}, {"b", 400'000}, {"c", 400'000}, {"c", 400'000}}));
    CHECK_FALSE(four_listings.available());
    auto const none = compute_market_row("l4", {});
    CHECK_FALSE(none.available());
    CHECK_FALSE(none.market);
    CHECK(none.unavailable_reason == "0 listings from 0 sources in the window; at least 5 listings from 3 sources are needed");
    auto const enough = compute_market_row("l4", listings({{"a", 400'000}, {"b", 400'000}, {"c", 400'000}, {"c", 400'000},
                                                           {"a", 500'000}}));
    CHECK(enough.available());
}

TEST_CASE("a source's price is always one of its own listings (the lower median)")
{
    auto const row = compute_market_row("l4", listings({{"a", 100}, {"a", 200}, {"b", 300}, {"c", 400}, {"c", 500}}));
    CHECK(row.by_source[0].price.micros() == 100);  // of 100 and 200, the lower
    CHECK(row.by_source[2].price.micros() == 400);
}

TEST_CASE("compute_rows follows the version it is given")
{
    std::vector<observation> inputs;
    for (auto const& [source, micros] : std::vector<std::pair<char const*, std::int64_t>>{
             {"a", 1'000'000}, {"a", 1'000'000}, {"a", 1'000'000}, {"b", 3'000'000}, {"c", 4'000'000}})
        inputs.push_back({{}, "h100-sxm", money::from_micros(micros), source, "", ""});
    std::vector<std::string> const ids{"h100-sxm", "l4"};
    auto const v1 = compute_rows(ids, inputs, 1);
    auto const v2 = compute_rows(ids, inputs, 2);
    CHECK(v1[0].twice_median_micros == 2'000'000);  // the median of all five: 1.000000
    CHECK(v2[0].twice_median_micros == 6'000'000);  // the median of 1, 3 and 4: 3.000000
    CHECK(v1[0].sources == 0);
    CHECK(v2[0].sources == 3);
    CHECK_FALSE(v2[1].available());
}

TEST_CASE("a sheet is a sample when every source is synthetic")
{
    price_sheet s;
    s.rows.push_back(compute_market_row("l4", listings({{"synthetic-alpha", 1}, {"synthetic-bravo", 2}})));
    CHECK(s.is_sample());
    s.rows.push_back(compute_market_row("a10", listings({{"lambda", 1}})));
    CHECK_FALSE(s.is_sample());
    CHECK_FALSE(price_sheet{}.is_sample());
}
