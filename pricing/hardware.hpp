#pragma once

#include "catalog.hpp"
#include "rules.hpp"

#include <optional>

// The figures the lesson on multi-GPU work derives from the catalog: the memory of a node of eight,
// the NVLink rack, and what each MIG slice gets of its GPU. Served with each model (gpu_json).
namespace lcg::pricing {

// A node of rules::max_gpus_per_instance GPUs and the memory they hold together: 8 × 80 GB = 640 GB
// on the H100 SXM, 8 × 141 GB = 1,128 GB on the H200. Where the lesson assumes another per-GPU
// memory than the catalog (rules::lesson_vram), its figure too, so that both are shown.
struct node_memory {
    int gpus = 0;
    int memory_gb = 0;
    std::optional<int> lesson_vram_gb;
    std::optional<int> lesson_memory_gb;  // 8 × 192 GB = 1,536 GB on the B200
};
node_memory node_memory_of(gpu_model const& model);

// The NVLink rack the model is sold in, if any, with the memory of its GPUs together and the
// NVLink bandwidth of the whole domain (72 × 1,800 GB/s on a GB200 NVL72).
struct rack_figures {
    rules::nvlink_rack rack;
    int memory_gb = 0;
    std::int64_t domain_gbs = 0;
};
std::optional<rack_figures> rack_of(gpu_model const& model);

// The lesson's even split of a MIG GPU's SMs among its compute slices: the H100 SXM's 132 SMs in 7
// slices of 18, with 6 left idle. Empty without MIG.
struct even_split {
    int slices = 0;
    int sms_per_slice = 0;
    int idle_sms = 0;
};
std::optional<even_split> mig_even_split(gpu_model const& model);

// What one MIG profile of k compute slices gets: k/slices of the GPU's dense TFLOPS, rounded half-up
// to the whole TFLOPS as the lesson writes them (283, 565, 848 and 1,979 TFLOPS FP8 for the H100
// SXM's 1, 2, 3 and 7 slices), k × the even split's SMs, and its share of the GPU's memory slices.
struct slice_figures {
    std::optional<figure> fp16_tflops;  // empty when the GPU's figure is not a plain decimal
    std::optional<figure> fp8_tflops;   // empty without FP8
    int sms = 0;
    int memory_slices = 0;
    int gpu_memory_slices = 0;  // 8 on a 7-slice GPU; the RTX PRO 6000 Blackwell's 4
};
slice_figures slice_figures_of(gpu_model const& model, mig_profile const& profile);

}
