#pragma once

#include "money.hpp"

#include <cstdint>
#include <vector>

namespace lcg::pricing {

// Twice the median of `prices`, in micro-dollars, so that the mean of the two middle values of an
// even count stays an exact integer (a + b). Precondition: `prices` is not empty. Takes the vector
// by value because it reorders it.
std::int64_t twice_median(std::vector<money> prices);

}
