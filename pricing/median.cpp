#include "median.hpp"

#include <algorithm>
#include <cassert>

namespace lcg::pricing {

std::int64_t twice_median(std::vector<money> prices)
{
    assert(!prices.empty());
    // nth_element keeps publishing linear in the number of observations.
    auto const n = prices.size();
    auto const upper = prices.begin() + static_cast<std::ptrdiff_t>(n / 2);
    std::nth_element(prices.begin(), upper, prices.end());
    if (n % 2 == 1)
        return 2 * upper->micros();
    auto const lower = std::max_element(prices.begin(), upper);
    return lower->micros() + upper->micros();
}

}
