#pragma once

#include "catalog.hpp"
#include "outcome.hpp"

#include <cstdint>
#include <string>

namespace lcg::pricing {

// PowerScore: 100 × a model's dense FP16 tensor TFLOPS (FP32 accumulate, no sparsity) / the RTX
// 3090's (71), so the RTX 3090 is exactly 100.0. Published with one decimal, rounded half-up.
struct power_score {
    std::int64_t tenths = 0;  // 13935 is 1393.5
    bool confirmed = true;    // false when the TFLOPS figure is unconfirmed
};

// The dense FP16 figure of a datasheet in millionths of a TFLOPS, exactly: "989.4" is 989'400'000.
// Errors when the figure is not a plain decimal with at most 6 decimals.
outcome<std::int64_t> micro_tflops(figure const& tflops);

// Computed exactly from the decimal text with integer arithmetic: round_half_up(1000 × tflops / 71)
// tenths.
outcome<power_score> compute_power_score(figure const& fp16_dense_tflops);

std::string to_string(power_score score);  // "1393.5", "100.0"

}
