#include "trend.hpp"

#include "rules.hpp"

#include <algorithm>

namespace lcg::pricing {

namespace {

// Products of a figure by a scale overflow 64 bits near the int64 bounds, which a money may reach.
__extension__ typedef __int128 wide;

constexpr std::int64_t power_of_ten(int n) { return n == 0 ? 1 : 10 * power_of_ten(n - 1); }

}

std::optional<std::string> week_on_week_percent(money previous, money now)
{
    if (previous.micros() <= 0)
        return std::nullopt;
    wide const diff = static_cast<wide>(now.micros()) - previous.micros();
    if (diff == 0)
        return "0";
    constexpr int decimals = rules::change_percent_decimals;
    wide const scaled = (diff < 0 ? -diff : diff) * 100 * power_of_ten(decimals);
    // Half away from zero: (2x + d) / 2d on the magnitude.
    auto const steps = static_cast<std::int64_t>((2 * scaled + previous.micros()) / (2 * static_cast<wide>(previous.micros())));
    return (diff < 0 ? "-" : "+") + decimal_string(steps, decimals, decimals);
}

value_span sparkline_span(std::span<const std::int64_t> values)
{
    if (values.empty())
        return {0, 1};
    auto const [lowest, highest] = std::minmax_element(values.begin(), values.end());
    constexpr auto floor_of = rules::sparkline_min_span_of_top;
    std::int64_t const least =
        std::max<std::int64_t>(1, static_cast<std::int64_t>(static_cast<wide>(*highest) * floor_of.numerator / floor_of.denominator));
    value_span span{*lowest, *highest};
    if (span.high - span.low < least) {
        span.low -= (least - (span.high - span.low)) / 2;
        span.low = std::max<std::int64_t>(0, span.low);
        span.high = span.low + least;
    }
    return span;
}

}
