#pragma once

#include "outcome.hpp"

#include <chrono>
#include <compare>
#include <string>
#include <string_view>

namespace lcg::pricing {

using instant = std::chrono::sys_seconds;

// An ISO 8601 week, the name of a price sheet: "2026-W49" takes effect on that week's Monday 00:00 UTC.
struct iso_week {
    int year = 0;
    int week = 0;
    auto operator<=>(iso_week const&) const = default;
};

// Strict "YYYY-Www"; the week must exist in that year (W53 only in long years).
outcome<iso_week> parse_week(std::string_view text);
std::string to_string(iso_week week);

iso_week week_containing(instant t);
instant monday_of(iso_week week);  // the re-check instant: Monday 00:00 UTC
iso_week next_week(iso_week week);
iso_week previous_week(iso_week week);

// The observations a sheet is computed from: the 7 days before its Monday, [from, until).
struct time_window {
    instant from;
    instant until;
    bool contains(instant t) const { return from <= t && t < until; }
};
time_window observation_window(iso_week week);

// RFC 3339 in UTC with whole seconds: "2026-11-24T10:15:00Z". Fractions and offsets are refused
// so that the canonical CSV reproduces an input exactly.
outcome<instant> parse_utc_timestamp(std::string_view text);
std::string to_rfc3339(instant t);

}
