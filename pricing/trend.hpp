#pragma once

#include "money.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <string>

// What a small chart of a rate over the weeks shows: how tall its axis is and how the rate moved
// since the week before. Both exact, in integers, like every use of a published figure.
namespace lcg::pricing {

// The change from `previous` to `now` in percent of `previous`, with rules::change_percent_decimals
// decimals, rounded half away from zero, and its sign: "+2.1", "-0.4"; "0" when the rate did not
// move at all, "+0.0" or "-0.0" when it moved by less than the last decimal shows. Empty when
// `previous` is not positive: there is no percentage of nothing.
std::optional<std::string> week_on_week_percent(money previous, money now);

// The values a sparkline's height spans, lowest at the bottom: `low < high` always.
struct value_span {
    std::int64_t low;
    std::int64_t high;
};

// The span of a series of non-negative values: from its lowest to its highest, widened about their
// middle to at least rules::sparkline_min_span_of_top of the highest (and at least 1) and kept
// above 0. A flat series is thus drawn across the middle. An empty series spans {0, 1}.
value_span sparkline_span(std::span<const std::int64_t> values);

}
