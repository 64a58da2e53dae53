#include "pricing/signing.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace pricing = lcg::pricing;

namespace {

pricing::instant at(char const* text) { return *pricing::parse_utc_timestamp(text); }

// A two-row sheet: H100 priced from the glossary's worked example, a model with too few observations.
pricing::price_sheet sample_sheet()
{
    pricing::price_sheet s;
    s.week = *pricing::parse_week("2026-W49");
    s.effective_from = at("2026-11-30T00:00:00Z");
    s.effective_until = at("2026-12-07T00:00:00Z");
    s.published_at = at("2026-11-30T00:00:04Z");
    s.inputs_sha256 = std::string(64, 'a');
    s.observations = 8;
    s.rules_version = 1;  // rows computed by version 1's compute_row
    s.rows.push_back(pricing::compute_row(
        "h100-sxm", {pricing::money::from_micros(2'300'000), pricing::money::from_micros(2'400'000),
                     pricing::money::from_micros(2'400'000), pricing::money::from_micros(2'500'000),
                     pricing::money::from_micros(2'600'000)}));
    s.rows.push_back(pricing::compute_row("b200", {pricing::money::from_micros(5'000'000),
                                                   pricing::money::from_micros(5'000'001),
                                                   pricing::money::from_micros(5'000'002)}));
    return s;
}

}

TEST_CASE("signed_bytes is the documented line format, every figure as published")
{
    auto const s = sample_sheet();
    auto const b200 = pricing::published_figures(s.rows[1]);
    std::string const expected = "lowcostgpu-sheet-v1\n"
                                 "week 2026-W49\n"
                                 "effective_from 2026-11-30T00:00:00Z\n"
                                 "effective_until 2026-12-07T00:00:00Z\n"
                                 "published_at 2026-11-30T00:00:04Z\n"
                                 "rules_version 1\n"
                                 "inputs_sha256 " + std::string(64, 'a') + "\n"
                                 "observations 8\n"
                                 "row h100-sxm true 5 2.400 1.680 1.680 0.840 1.092 0.000 -\n"
                                 "row b200 false 3 " + b200.median + " " + b200.cap + " - - - - " +
                                 s.rows[1].unavailable_reason + "\n";
    CHECK(pricing::signed_bytes(s) == expected);
    CHECK(b200.on_demand.empty());
    CHECK(s.rows[1].unavailable_reason.find('\n') == std::string::npos);
}

TEST_CASE("signed_bytes rebuilt from the published strings equals signed_bytes of the sheet")
{
    auto const s = sample_sheet();
    auto const content = pricing::signed_content_of(s);
    CHECK(pricing::signed_bytes(content) == pricing::signed_bytes(s));
    CHECK(content.rows.size() == 2);
    CHECK(content.rows[0].reason.empty());
}

TEST_CASE("signed_header reads the lines before the rows, and only those")
{
    auto const bytes = pricing::signed_bytes(sample_sheet());
    CHECK(pricing::signed_header(bytes, "week") == "2026-W49");
    CHECK(pricing::signed_header(bytes, "published_at") == "2026-11-30T00:00:04Z");
    CHECK(pricing::signed_header(bytes, "observations") == "8");
    CHECK_FALSE(pricing::signed_header(bytes, "row"));         // a row line is not a header
    CHECK_FALSE(pricing::signed_header(bytes, "weeks"));       // a name is matched whole
    CHECK_FALSE(pricing::signed_header(bytes, "wee"));
    CHECK_FALSE(pricing::signed_header("week", "week"));       // a line without its value
    CHECK(pricing::signed_header("week 2026-W01", "week") == "2026-W01");  // no final line end
}

TEST_CASE("every signed item changes the bytes")
{
    auto const base = pricing::signed_bytes(sample_sheet());
    std::vector<void (*)(pricing::price_sheet&)> const edits{
        [](pricing::price_sheet& s) { s.week = *pricing::parse_week("2026-W50"); },
        [](pricing::price_sheet& s) { s.effective_from += std::chrono::seconds(1); },
        [](pricing::price_sheet& s) { s.effective_until += std::chrono::seconds(1); },
        [](pricing::price_sheet& s) { s.published_at += std::chrono::seconds(1); },
        [](pricing::price_sheet& s) { s.rules_version = 2; },
        [](pricing::price_sheet& s) { s.inputs_sha256[0] = 'b'; },
        [](pricing::price_sheet& s) { s.observations = 9; },
        [](pricing::price_sheet& s) { s.rows[0].observations = 6; },
        [](pricing::price_sheet& s) { s.rows[0].rates->on_demand = pricing::money::from_micros(1'679'000); },
        [](pricing::price_sheet& s) { s.rows[0].rates->spot = pricing::money::from_micros(839'000); },
        [](pricing::price_sheet& s) { s.rows[0].rates->reserved = pricing::money::from_micros(1'091'000); },
        [](pricing::price_sheet& s) { *s.rows[0].twice_median_micros += 2; },
        [](pricing::price_sheet& s) { s.rows[1].unavailable_reason += "."; },
        [](pricing::price_sheet& s) { std::swap(s.rows[0], s.rows[1]); },
        [](pricing::price_sheet& s) { s.rows.pop_back(); },
    };
    for (std::size_t i = 0; i < edits.size(); ++i) {
        CAPTURE(i);
        auto s = sample_sheet();
        edits[i](s);
        CHECK(pricing::signed_bytes(s) != base);
    }
}

TEST_CASE("the signature and key id are not part of what is signed")
{
    auto s = sample_sheet();
    auto const before = pricing::signed_bytes(s);
    s.signature = "x";
    s.key_id = "y";
    CHECK(pricing::signed_bytes(s) == before);
}

TEST_CASE("a key covers the publication times of its window, the end excluded")
{
    pricing::public_key k{"0123456789abcdef", "", at("2026-01-01T00:00:00Z"), at("2026-06-01T00:00:00Z")};
    CHECK_FALSE(k.covers(at("2025-12-31T23:59:59Z")));
    CHECK(k.covers(at("2026-01-01T00:00:00Z")));
    CHECK(k.covers(at("2026-05-31T23:59:59Z")));
    CHECK_FALSE(k.covers(at("2026-06-01T00:00:00Z")));
    k.valid_until.reset();
    CHECK(k.covers(at("2099-01-01T00:00:00Z")));
    pricing::key_ring const ring{{k}};
    CHECK(ring.find("0123456789abcdef") == &ring.keys[0]);
    CHECK(ring.find("fedcba9876543210") == nullptr);
}

TEST_CASE("a sheet published after its Monday is late by the time since its Monday")
{
    auto const week = *pricing::parse_week("2026-W49");  // Monday 2026-11-30
    auto const at = [](char const* t) { return *pricing::parse_utc_timestamp(t); };
    CHECK(pricing::publication_delay(week, at("2026-11-30T00:00:04Z")).count() == 0);
    CHECK(pricing::publication_delay(week, at("2026-12-01T00:00:00Z")).count() == 0);  // the grace: its Monday
    CHECK(pricing::publication_delay(week, at("2026-12-01T00:00:01Z")).count() == 24 * 3600 + 1);
    CHECK(pricing::publication_delay(week, at("2027-01-04T00:00:00Z")).count() == 35 * 24 * 3600);
}
