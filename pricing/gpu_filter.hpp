#pragma once

#include "catalog.hpp"
#include "quantity.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// Filters of the catalog listing (/v1/gpus): vendor, architecture, min_vram_gb, mig, nvlink.
namespace lcg::pricing {

struct gpu_filter_parameters {
    std::optional<std::string> vendor{};
    std::optional<std::string> architecture{};
    std::optional<std::string> min_vram_gb{};
    std::optional<std::string> mig{};
    std::optional<std::string> nvlink{};
};

struct gpu_filter {
    std::optional<std::string> vendor;        // as the catalog spells it
    std::optional<std::string> architecture;  // as the catalog spells it
    std::optional<std::int64_t> min_micro_vram_gb;
    std::optional<bool> mig;
    std::optional<bool> nvlink;

    bool empty() const { return !vendor && !architecture && !min_micro_vram_gb && !mig && !nvlink; }
};

// vendor and architecture: one of the catalog's, in any letter case; min_vram_gb: a decimal with up
// to 6 decimals (its bounds, 0 to rules::max_filter_vram_gb, the API's decoder checks); mig and
// nvlink: true or false. Errors name the parameter and list what is accepted.
parsed<gpu_filter> parse_gpu_filter(gpu_filter_parameters const& params, catalog const& cat);

bool has_mig(gpu_model const& model);     // at least one MIG instance
// The model's GPU-to-GPU link is NVLink (AMD's Infinity Fabric is not).
bool has_nvlink(gpu_model const& model);

bool matches(gpu_filter const& filter, gpu_model const& model);

}
