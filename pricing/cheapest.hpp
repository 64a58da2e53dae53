#pragma once

#include "catalog.hpp"
#include "quantity.hpp"
#include "sheet.hpp"
#include "sizing.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

// The cheapest configuration (one instance where any holds it) that holds a model or a memory need, for a duration, in a tier: the
// find_cheapest tool and /v1/cheapest.
namespace lcg::pricing {

struct cheapest_parameters {
    std::optional<std::string> params_b{};
    std::optional<std::string> precision{};
    std::optional<std::string> vram_gb{};
    std::optional<std::string> hours{};
    std::optional<std::string> tier{};
};

struct cheapest_query {
    std::optional<model_spec> model;  // when asked for a model; else a bare memory need
    std::int64_t needed_units = 0;    // memory, in units of 10^-8 GB (sizing.hpp)
    std::int64_t micro_hours = 0;
    tier billed = tier::on_demand;
};

// Either params_b with precision (a model to hold) or vram_gb (GB needed, six decimals); hours
// (default 1, six decimals); tier (default on_demand). Precondition: each quantity within its
// parameter's bounds (vram_gb up to rules::max_needed_vram_gb, hours up to rules::max_job_hours,
// both above 0), which the API's decoder checks.
parsed<cheapest_query> parse_cheapest_query(cheapest_parameters const& params, catalog const& cat);

// A model's practical count of GPUs (chosen.gpus, in chosen.instances instances: more than one only
// past the model's max_gpus_per_instance), what an hour and the whole duration cost in the tier, and
// for a model to hold, whether the GPU computes in its precision.
struct configuration {
    cheapest_configuration chosen;
    money per_gpu_hour;
    money total;  // GPU time for the duration, prorated per second
    std::optional<precision_support> support;
};

// Every priced model that holds the need, in its practical count, in cheapest_order: GPUs that run
// the precision natively first, then configurations of one instance, each group cheapest first
// (fewer GPUs first on a tie, then catalog order).
std::vector<configuration> cheapest_configurations(cheapest_query const& query, catalog const& cat,
                                                   price_sheet const& sheet);

}
