#include "pricing/history.hpp"

#include "pricing/calendar.hpp"
#include "pricing/rules.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace lcg::pricing;

namespace {

// A sheet of `week` with one row per (gpu, median in micros); a median of 0 leaves the model unpriced.
price_sheet sheet_of(std::string const& week, std::vector<std::pair<std::string, std::int64_t>> const& medians)
{
    price_sheet s;
    s.week = *parse_week(week);
    s.effective_from = monday_of(s.week);
    s.effective_until = monday_of(next_week(s.week));
    for (auto const& [gpu, micros] : medians) {
        sheet_row row;
        row.gpu = gpu;
        if (micros > 0) {
            row.observations = 5;
            row.twice_median_micros = 2 * micros;
            row.rates = rates_from_median(2 * micros);
        } else {
            row.unavailable_reason = "fewer than 5 observations";
        }
        s.rows.push_back(row);
    }
    return s;
}

}

TEST_CASE("a model's history has every published week, oldest first, with the row before")
{
    std::vector<price_sheet> const sheets{sheet_of("2026-W45", {{"a", 2'000'000}}),
                                          sheet_of("2026-W46", {{"a", 0}, {"b", 1'000'000}}),
                                          sheet_of("2026-W47", {{"a", 3'000'000}, {"b", 1'000'000}})};
    auto const b = price_history(sheets, "b");
    REQUIRE(b.size() == 3);
    CHECK(b[0].row == nullptr);  // not on the first sheet
    CHECK(b[1].row == &sheets[1].rows[1]);
    CHECK(b[2].previous == &sheets[1].rows[1]);

    auto const a = price_history(sheets, "a");
    CHECK_FALSE(rate_change(a[0], tier::on_demand));  // no week before
    CHECK_FALSE(rate_change(a[1], tier::on_demand));  // not priced
    CHECK_FALSE(rate_change(a[2], tier::on_demand));  // the week before was not priced
    CHECK(rate_change(price_history(sheets, "b")[2], tier::spot) == money::from_micros(0));
}

TEST_CASE("a change is exact and signed")
{
    std::vector<price_sheet> const sheets{sheet_of("2026-W45", {{"a", 2'000'000}}),
                                          sheet_of("2026-W46", {{"a", 1'900'000}})};
    auto const a = price_history(sheets, "a");
    // 0.70 × 2.000 = 1.400, 0.70 × 1.900 = 1.330: −0.070 on-demand, −0.035 spot.
    CHECK(signed_decimal(*rate_change(a[1], tier::on_demand)) == "-0.070");
    CHECK(signed_decimal(*rate_change(a[1], tier::spot)) == "-0.035");
    CHECK(signed_decimal(money::from_micros(10'000)) == "+0.010");
    CHECK(signed_decimal(money{}) == "0.000");
}

TEST_CASE("a notable move is one of 5 % or more of the on-demand rate, either way")
{
    CHECK(rules::notable_move_percent == 5);
    // On-demand 1.400 before; 1.330 is exactly −5 %, 1.337 is less.
    auto const before = sheet_of("2026-W45", {{"a", 2'000'000}, {"b", 2'000'000}, {"c", 2'000'000}, {"d", 0}});
    auto const now = sheet_of("2026-W46", {{"a", 1'900'000}, {"b", 1'910'000}, {"c", 2'200'000}, {"d", 2'000'000}});
    CHECK(now.rows[1].rates->on_demand == money::from_mills(1337));
    CHECK(notable_moves(before, now) == std::vector<std::string>{"a", "c"});
}

TEST_CASE("the sheet of a week is the one in effect that week")
{
    std::vector<price_sheet> const sheets{sheet_of("2026-W45", {{"a", 2'000'000}}),
                                          sheet_of("2026-W47", {{"a", 2'000'000}}),
                                          sheet_of("2026-W48", {{"a", 2'000'000}})};
    auto const* current = &sheets[1];  // W48 is published ahead of its week
    CHECK(*sheet_for_week("2026-W45", sheets, current) == &sheets[0]);
    CHECK(*sheet_for_week("2026-W46", sheets, current) == &sheets[0]);  // none published: the one before stays
    CHECK(*sheet_for_week("2026-W48", sheets, current) == &sheets[2]);
    CHECK(*sheet_for_week("current", sheets, current) == &sheets[1]);
    CHECK(*sheet_for_week("latest", sheets, current) == &sheets[2]);

    auto const before_first = sheet_for_week("2026-W01", sheets, current);
    REQUIRE_FALSE(before_first);
    CHECK(before_first.err().code == errc::not_found);
    CHECK(before_first.err().message.find("accepted: 2026-W45 or later") != std::string::npos);
    auto const future = sheet_for_week("2026-W50", sheets, current);
    REQUIRE_FALSE(future);
    CHECK(future.err().code == errc::not_found);
    auto const bad = sheet_for_week("last week", sheets, current);
    REQUIRE_FALSE(bad);
    CHECK(bad.err().code == errc::invalid_argument);
    CHECK(bad.err().message.starts_with("week: "));
    CHECK_FALSE(sheet_for_week("current", {}, nullptr));
}
