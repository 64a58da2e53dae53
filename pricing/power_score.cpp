#include "power_score.hpp"

#include "money.hpp"
#include "quantity.hpp"
#include "rules.hpp"

namespace lcg::pricing {

namespace {

constexpr int figure_decimals = 6;
constexpr std::int64_t max_micro_tflops = 1'000'000'000'000'000;  // 10^9 TFLOPS: far above any GPU

}

outcome<std::int64_t> micro_tflops(figure const& tflops)
{
    return parse_quantity("fp16_dense_tflops", tflops.value, figure_decimals, 0, max_micro_tflops);
}

outcome<power_score> compute_power_score(figure const& fp16_dense_tflops)
{
    auto const tflops = micro_tflops(fp16_dense_tflops);
    if (!tflops)
        return tflops.err();
    // 100 × t / ref in tenths is 1000 × t / ref; both in micro-TFLOPS.
    return power_score{mul_div_half_up(*tflops, 1'000, rules::power_score_reference_micro_tflops),
                       fp16_dense_tflops.confirmed};
}

std::string to_string(power_score score)
{
    return decimal_string(score.tenths, 1, 1);
}

}
