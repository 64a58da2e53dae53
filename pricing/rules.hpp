#pragma once

#include "money.hpp"

#include <cstdint>

// Every constant of the published methodology, once. Outputs (JSON, Markdown, glossary, MCP) read
// them from here; nothing else may restate a number.
namespace lcg::pricing::rules {

// A tier's rate as a fraction of a base: numerator / denominator, applied then floored to the mill.
struct ratio {
    std::int64_t numerator;
    std::int64_t denominator;
};

inline constexpr ratio on_demand_of_median{70, 100};
inline constexpr ratio spot_of_on_demand{50, 100};
inline constexpr ratio reserved_of_on_demand{65, 100};

inline constexpr int min_observations = 5;
// No marketplace lists a GPU-hour near this; the bound keeps every product of prices inside int64.
inline constexpr money max_observed_price = money::from_dollars(100'000);
inline constexpr int window_days = 7;          // observations of the 7 days before the re-check
inline constexpr int reserved_term_months = 3;
inline constexpr int max_gpus_per_instance = 8;
inline constexpr int month_hours = 730;        // storage is prorated on a 730-hour month
inline constexpr int seconds_per_hour = 3600;

inline constexpr money storage_per_gb_month = money::from_micros(80'000);  // $0.08
inline constexpr money network_per_gb = money::from_micros(10'000);        // $0.01, in and out
inline constexpr money min_top_up = money::from_dollars(40);

inline constexpr int sla_target_permille = 999;  // 99.9 % monthly, on-demand and reserved
inline constexpr int reserved_break_even_percent = 65;  // reserved pays off above this utilisation

}
