#pragma once

#include "catalog.hpp"
#include "money.hpp"
#include "outcome.hpp"
#include "quantity.hpp"
#include "sheet.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

// How many GPUs a model needs (DESIGN §6): memory = parameters × bytes per parameter × 1.5;
// GPUs = ceil(memory / VRAM); the practical count is the next power of two up to 8 (one node), and
// whole nodes of 8 above that. A count beyond a model's max_gpus_per_instance is several instances.
namespace lcg::pricing {

enum class precision { fp32, fp16, bf16, fp8, int8, int4 };
inline constexpr precision all_precisions[] = {precision::fp32, precision::fp16, precision::bf16,
                                               precision::fp8,  precision::int8, precision::int4};
std::string_view to_string(precision p);
outcome<precision> parse_precision(std::string_view text);  // any letter case
// Bytes per parameter, in halves (int4 is half a byte): fp32 8, fp16/bf16 4, fp8/int8 2, int4 1.
int half_bytes_per_param(precision p);

// Whether a model's cores compute in a precision natively (rules::native_precisions, by its
// architecture). Where they do not, the weights can still be stored in it and widened to
// rules::widened_format in each kernel: the memory of the precision asked, the speed of the wider
// one (no FP8 speed-up on an Ampere card). dense_tflops is the catalog's rate for the format
// computed in, where it lists one (FP16 stands for BF16, whose rate is the same on these parts).
struct precision_support {
    precision asked = precision::fp16;
    bool native = true;
    precision computes_in = precision::fp16;
    std::optional<figure> dense_tflops;
};
precision_support support_for(gpu_model const& model, precision asked);
std::vector<precision> native_precisions(gpu_model const& model);  // empty for an unknown architecture
std::string_view native_precisions_source(gpu_model const& model);   // empty for an unknown architecture
std::string_view native_precisions_caveat(gpu_model const& model);   // usually empty

struct sizing_parameters {
    std::string params_b{};
    std::string precision{};
    std::optional<std::string> gpu{};
};

struct model_spec {
    std::int64_t micro_params_b = 0;  // billions of parameters, in millionths
    precision weights = precision::fp16;
    std::string gpu;                  // one catalog id, or empty for every model
};

// params_b: billions, six decimals (its bounds, above 0 up to rules::max_params_b, the API's decoder
// checks: a precondition); precision: fp32, fp16, bf16, fp8, int8 or int4; gpu: optional catalog id.
parsed<model_spec> parse_model_spec(sizing_parameters const& params, catalog const& cat);

// Memory needed, exactly, in units of 10^-8 GB (the smallest unit that keeps every six-decimal
// params_b × every precision × 1.5 whole). 70 B at int8: 105 GB = 10'500'000'000 units.
inline constexpr int needed_gb_decimals = 8;
inline constexpr std::int64_t needed_units_per_gb = 100'000'000;
std::int64_t needed_memory_units(std::int64_t micro_params_b, precision weights);

// The smallest MIG slice whose memory holds the model (fewest GB, then fewest compute slices), and how
// many instances of it one GPU runs. A profile that is the whole GPU (all of its slices or all of
// its memory) is not a slice: it is the GPU itself, which the GPU count already offers. Empty when
// the model has no MIG or no slice is large enough.
struct mig_fit {
    std::string profile;
    int memory_gb = 0;
    int compute_slices = 0;
    int slices_per_gpu = 0;  // 7, or 4 on the RTX PRO 6000 Blackwell
    int instances_per_gpu = 0;
};
std::optional<mig_fit> smallest_mig_fit(gpu_model const& model, std::int64_t needed_units);

struct sizing_row {
    std::string gpu;
    int vram_gb = 0;
    std::int64_t gpus_needed = 0;        // ceil(needed / VRAM)
    // 1, 2, 4 or 8, then whole nodes of 8 (16, 24, …); empty above max_priced_gpus.
    std::optional<int> practical_gpus;
    bool fits_one_node = false;          // gpus_needed ≤ 8
    int max_gpus_per_instance = 0;
    bool fits_one_instance = false;      // practical_gpus ≤ the model's max_gpus_per_instance
    int instances = 0;                   // instances of practical_gpus: ceil(practical / max per instance)
    int smallest_instances = 0;          // the same for gpus_needed
    std::optional<mig_fit> mig;
    precision_support support;           // of the precision sized for
    bool priced = false;
    std::string unpriced_reason;
    std::optional<tier_rates> hourly;    // practical_gpus × the per-GPU rates, when priced
    // gpus_needed × the per-GPU rates, when priced: the cheapest way to hold the model on this GPU,
    // set only where it is fewer GPUs than the practical count.
    std::optional<tier_rates> smallest_hourly;
};

struct cheapest_configuration {
    tier billed = tier::on_demand;
    std::string gpu;
    int gpus = 0;
    int instances = 1;
    money hourly;
    bool native = true;  // the GPU computes in the precision asked
};
// The order of cheapest configurations, as a key: a GPU that runs the precision natively before one
// that only emulates it, one instance before several, then the lower hourly cost, then fewer GPUs.
inline std::tuple<bool, bool, std::int64_t, int> cheapest_order(cheapest_configuration const& c)
{
    return {!c.native, c.instances > 1, c.hourly.micros(), c.gpus};
}

struct sizing_result {
    model_spec spec;
    std::int64_t needed_units = 0;
    std::vector<sizing_row> rows;                   // catalog order, or the one model asked
    std::vector<cheapest_configuration> cheapest;  // per tier, first in cheapest_order of the rows' practical
                                                   // counts (first by id on a tie)
};

// `weights` is the precision sized for; a bare memory need (find_cheapest's vram_gb) passes none.
sizing_row size_on(gpu_model const& model, std::int64_t needed_units, sheet_row const* row,
                   std::optional<precision> weights);
// The configuration of a sized row in a tier: its practical count (tensor parallelism shards over 1,
// 2, 4 or 8 GPUs, then whole nodes), never a smaller count that may not shard; empty when the row
// has no price.
std::optional<cheapest_configuration> cheapest_on(sizing_row const& r, tier t);
sizing_result size_model(model_spec const& spec, catalog const& cat, price_sheet const* sheet);

}
