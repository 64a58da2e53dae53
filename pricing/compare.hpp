#pragma once

#include "catalog.hpp"
#include "money.hpp"
#include "outcome.hpp"
#include "power_score.hpp"
#include "quantity.hpp"
#include "rules.hpp"
#include "sheet.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// Side-by-side comparison of 2 to 8 catalog models: prices, memory, PowerScore, and which wins what.
namespace lcg::pricing {

// How a client wrote a list: "a,b" in a query string, ["a", "b"] in JSON arguments. Messages
// describe the form the client used.
enum class list_form { commas, array };

// A comma-separated list of distinct catalog ids ("l40s,a100-80gb-sxm"), any letter case, spaces
// around ids ignored. Errors name `parameter` and list the valid ids. Precondition: 2 to
// rules::max_compared_gpus items, the bounds of its declaration, which the API's decoder checks.
parsed<std::vector<std::string>> parse_gpu_list(std::string_view parameter, std::string const& text,
                                                catalog const& cat, list_form form = list_form::commas);

struct comparison_row {
    std::string gpu;
    int vram_gb = 0;
    int memory_bandwidth_gbs = 0;
    std::int64_t micro_tflops = 0;  // dense FP16, FP32 accumulate
    power_score score;
    std::optional<tier_rates> rates;  // empty when the sheet has no price for the model
    std::string unpriced_reason;
    // On-demand per 100 PowerScore = on_demand × 71 / TFLOPS, from the exact PowerScore; and
    // on-demand per GB of VRAM per hour. Both rounded half-up to the micro-dollar.
    std::optional<money> per_100_power_score;
    std::optional<money> per_gb_vram_hour;
};

// Ids of the winners of each criterion, in input order; several on a tie, none when no row qualifies
// (prices need a priced model). Ratios are compared exactly, not their rounded values.
struct comparison_winners {
    std::array<std::vector<std::string>, 3> lowest_price;  // by tier, in all_tiers order
    std::vector<std::string> most_vram;
    std::vector<std::string> most_bandwidth;
    std::vector<std::string> highest_power_score;
    std::vector<std::string> lowest_price_per_power_score;  // on-demand
    std::vector<std::string> lowest_price_per_gb_vram;      // on-demand
};

struct comparison {
    std::vector<comparison_row> rows;  // in the order asked
    comparison_winners winners;
};

// Precondition: every id is in the catalog (parse_gpu_list checks). Errors only when a catalog
// figure is malformed.
outcome<comparison> compare_gpus(std::vector<std::string> const& ids, catalog const& cat, price_sheet const* sheet);

}
