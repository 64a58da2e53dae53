#include "pricing/inputs_tally.hpp"

#include "pricing/calendar.hpp"

#include <doctest/doctest.h>

#include <map>
#include <random>
#include <string>
#include <vector>

using namespace lcg::pricing;

namespace {

constexpr std::string_view tally_week = "2030-W02";  // window 2029-12-31T00:00:00Z .. 2030-01-07T00:00:00Z

observation observed(std::string gpu, char const* when, std::int64_t micros, std::string source, std::string listing)
{
    return {*parse_utc_timestamp(when), std::move(gpu), money::from_micros(micros), std::move(source),
            std::move(listing), ""};
}

// Random observations inside the window, with ties on time and price, in canonical order.
std::vector<observation> random_inputs(std::size_t n, unsigned seed)
{
    std::mt19937 rng(seed);
    std::vector<std::string> const gpus{"a10", "h100-sxm", "l4"};
    std::vector<std::string> const sources{"alpha", "bravo", "charlie, inc.", "delta"};
    auto const monday = monday_of(*parse_week(tally_week));
    std::vector<observation> out;
    for (std::size_t i = 0; i < n; ++i) {
        observation o;
        o.observed_at = monday - std::chrono::hours(1 + rng() % 24);
        o.gpu = gpus[rng() % gpus.size()];
        o.price = money::from_micros(100'000 + static_cast<std::int64_t>(rng() % 50) * 10'000);
        o.source = sources[rng() % sources.size()];
        o.listing_id = "L" + std::to_string(rng() % 40);
        out.push_back(std::move(o));
    }
    sort_canonically(out);
    return out;
}

inputs_tally tally_of(std::string_view csv, std::size_t piece = std::string_view::npos)
{
    inputs_tally t(tally_week);
    for (std::size_t at = 0; at < csv.size(); at += piece)
        t.read(csv.substr(at, piece));
    t.finish();
    return t;
}

// The rows as compute_rows gave them before the tally: every observation's price by model (version
// 1), or each model's (source, price) listings (version 2).
std::vector<sheet_row> rows_as_before(std::vector<std::string> const& ids, std::vector<observation> const& inputs,
                                      int version)
{
    std::vector<sheet_row> rows;
    if (version == 1) {
        for (auto const& id : ids) {
            std::vector<money> prices;
            for (auto const& o : inputs)
                if (o.gpu == id)
                    prices.push_back(o.price);
            rows.push_back(compute_row(id, std::move(prices)));
        }
        return rows;
    }
    for (auto const& id : ids) {
        std::vector<sourced_price> listings;
        for (auto const& o : inputs)
            if (o.gpu == id)
                listings.push_back({o.source, o.price});
        rows.push_back(compute_market_row(id, std::move(listings)));
    }
    return rows;
}

std::string header_line() { return std::string(observations_csv_header) + "\n"; }

}

TEST_CASE("the tally of a canonical CSV: its count, canonical, and the rows of both rules versions as before")
{
    std::vector<std::string> const ids{"a10", "b200", "h100-sxm", "l4"};
    for (unsigned seed : {1u, 2u, 3u}) {
        auto const inputs = random_inputs(2000, seed);
        std::string const csv = canonical_observations_csv(inputs);
        for (std::size_t piece : {std::size_t{1}, std::size_t{7}, std::size_t{4096}, std::string_view::npos}) {
            CAPTURE(seed);
            CAPTURE(piece);
            auto const t = tally_of(csv, piece);
            CHECK(t.is_canonical());
            CHECK(t.observations() == 2000);
            CHECK(t.outside().count == 0);
            CHECK(t.problems().empty());
            CHECK(t.listings().models() == std::vector<std::string>{"a10", "h100-sxm", "l4"});
            for (int version : {1, 2})
                CHECK(t.listings().compute_rows(ids, version) == rows_as_before(ids, inputs, version));
        }
    }
}

TEST_CASE("compute_rows of observations goes through the tally and still follows both versions")
{
    std::vector<std::string> const ids{"a10", "h100-sxm", "l4", "mi300x"};
    auto const inputs = random_inputs(500, 9);
    for (int version : {1, 2})
        CHECK(compute_rows(ids, inputs, version) == rows_as_before(ids, inputs, version));
}

TEST_CASE("lines out of the canonical order are not canonical, and equal lines are")
{
    std::vector<observation> inputs{observed("h100-sxm", "2030-01-02T10:00:00Z", 2'400'000, "m", "a"),
                                    observed("h100-sxm", "2030-01-02T10:00:00Z", 2'400'000, "m", "b"),
                                    observed("l4", "2030-01-01T10:00:00Z", 400'000, "m", "a")};
    CHECK(tally_of(canonical_observations_csv(inputs)).is_canonical());

    auto twice = inputs;
    twice.push_back(inputs.back());
    CHECK(tally_of(canonical_observations_csv(twice)).is_canonical());

    for (auto [a, b] : {std::pair{0, 1}, std::pair{1, 2}, std::pair{0, 2}}) {
        auto swapped = inputs;
        std::swap(swapped[a], swapped[b]);
        std::string csv = header_line();
        for (auto const& o : swapped)
            append_canonical_line(csv, o, false);
        auto const t = tally_of(csv);
        CHECK_FALSE(t.is_canonical());
        CHECK(t.observations() == 3);  // still counted and priced
        CHECK(t.problems().empty());
    }
}

TEST_CASE("a line that is not the canonical rendering of its observation is not canonical")
{
    std::string const good = header_line() + "2030-01-02T10:00:00Z,h100-sxm,2.400000,m,a\n";
    CHECK(tally_of(good).is_canonical());
    for (std::string const& bad : {
             header_line() + "2030-01-02T10:00:00Z,h100-sxm,2.4,m,a\n",                 // 6 decimals
             header_line() + "2030-01-02T10:00:00Z,h100-sxm,2.400000,\"m\",a\n",         // needless quotes
             header_line() + "2030-01-02T10:00:00Z,h100-sxm,2.400000,m,a\r\n",           // \r\n
             header_line() + "2030-01-02T10:00:00Z,h100-sxm,2.400000,m,a",               // no last \n
             header_line() + "2030-01-02T10:00:00Z,h100-sxm,2.400000,m,a\n\n",           // blank last line
             "\xEF\xBB\xBF" + header_line() + "2030-01-02T10:00:00Z,h100-sxm,2.400000,m,a\n",  // BOM
             std::string(observations_csv_header_with_urls) + "\n2030-01-02T10:00:00Z,h100-sxm,2.400000,m,a,\n",
             std::string(),
         }) {
        CAPTURE(bad);
        CHECK_FALSE(tally_of(bad).is_canonical());
    }
    // The source_url column belongs there when some observation has one.
    CHECK(tally_of(std::string(observations_csv_header_with_urls) +
                   "\n2030-01-02T10:00:00Z,h100-sxm,2.400000,m,a,https://example.org/a\n"
                   "2030-01-02T10:00:00Z,h100-sxm,2.400000,m,b,\n")
              .is_canonical());
}

TEST_CASE("a bad line is a problem with its number, not an observation, and not canonical")
{
    auto const t = tally_of(header_line() + "2030-01-02T10:00:00Z,h100-sxm,2.400000,m,a\n" +
                            "2030-01-02T10:00:00Z,h100-sxm,zero,m,b\n" + "2030-01-03T10:00:00Z,h100-sxm,2.500000,m,c\n");
    CHECK(t.observations() == 2);
    REQUIRE(t.problems().size() == 1);
    CHECK(t.problems().front().line == 3);
    CHECK(t.problems().front().reason.starts_with("price_per_gpu_hour"));
    CHECK_FALSE(t.is_canonical());
    CHECK(tally_of("").problems().size() == 1);
}

TEST_CASE("observations outside the window are counted, with the first of them")
{
    std::vector<observation> inputs{observed("h100-sxm", "2029-12-30T23:59:59Z", 2'400'000, "m", "a"),
                                    observed("h100-sxm", "2029-12-31T00:00:00Z", 2'400'000, "m", "b"),
                                    observed("h100-sxm", "2030-01-07T00:00:00Z", 2'400'000, "m", "c"),
                                    observed("l4", "2019-01-01T00:00:00Z", 400'000, "m", "a")};
    auto const t = tally_of(canonical_observations_csv(inputs));
    CHECK(t.is_canonical());
    CHECK(t.outside().count == 3);
    CHECK(t.outside().first_gpu == "h100-sxm");
    CHECK(to_rfc3339(t.outside().first_at) == "2029-12-30T23:59:59Z");

    inputs_tally no_week("2030-W60");  // not a week: the window is the audit's problem, not the tally's
    no_week.read(canonical_observations_csv(inputs));
    no_week.finish();
    CHECK(no_week.outside().count == 0);
    CHECK(no_week.observations() == 4);
}

TEST_CASE("a line longer than max_line_bytes is cut, read, and not canonical")
{
    std::string const huge(inputs_tally::max_line_bytes + 10, 'x');
    std::string const csv = header_line() + "2030-01-02T10:00:00Z,h100-sxm,2.400000,m," + huge + "\n" +
                            "2030-01-02T10:00:00Z,h100-sxm,2.400000,m,b\n";
    for (std::size_t piece : {std::size_t{1000}, std::string_view::npos}) {
        auto const t = tally_of(csv, piece);
        CHECK_FALSE(t.is_canonical());
        REQUIRE(t.problems().size() == 1);
        CHECK(t.problems().front().line == 2);
        CHECK(t.observations() == 1);
    }
}
