#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lcg::pricing {

// A datasheet figure kept as written ("989.4"), with whether a primary source confirmed it (the
// facts file marks an unconfirmed one with a trailing '?').
struct figure {
    std::string value;
    bool confirmed = true;
    bool operator==(figure const&) const = default;
};
figure parse_figure(std::string_view text);  // "25.8?" → {"25.8", false}

struct mig_profile {
    std::string name;  // "1g.10gb"
    int memory_gb = 0;
    int compute_slices = 0;  // k of the GPU's slices (7, or 4 on the RTX PRO 6000 Blackwell)
    int max_instances = 0;
    bool operator==(mig_profile const&) const = default;
};

struct region_cpu_generations {
    std::string region;
    std::vector<std::string> cpu_generations;
    bool operator==(region_cpu_generations const&) const = default;
};

// One GPU model of the catalog: datasheet facts plus the instance limits it attaches under.
struct gpu_model {
    std::string id;
    std::string name;
    std::string vendor;
    std::string architecture;
    std::string form_factor;
    int vram_gb = 0;
    std::string memory_type;
    int memory_bandwidth_gbs = 0;
    figure fp16_dense_tflops;  // dense FP16 tensor, FP32 accumulate: the PowerScore convention
    std::optional<figure> fp8_dense_tflops;
    figure tdp_w;
    // The GPU-to-GPU link: total bidirectional GB/s per GPU, and its kind ("NVLink" or "Infinity
    // Fabric"); both empty when the model has no link besides PCIe.
    std::optional<figure> interconnect_gbs;
    std::string interconnect_kind;
    int mig_max_instances = 0;
    int sm_count = 0;
    std::string source;
    std::string notes;
    int max_gpus_per_instance = 1;
    int max_vcpus = 0;
    int max_memory_gib = 0;
    std::vector<std::string> cpu_generations;
    std::vector<mig_profile> mig_profiles;
    // CPU generations an instance of this model may also have in one region (the sovereign region
    // accepts more for some models), on top of cpu_generations. Sorted by region.
    std::vector<region_cpu_generations> extra_cpu_generations;
    std::vector<std::string> regions;  // codes of the regions offering it, sorted
    bool operator==(gpu_model const&) const = default;
};

// The compute slices MIG cuts a model's GPU into: those of its whole-GPU profile (7g.80gb: 7;
// 4g.96gb on the RTX PRO 6000 Blackwell: 4), 0 without MIG profiles.
int mig_compute_slices(gpu_model const& model);

struct region {
    std::string code;
    std::string city;
    std::string country;
    std::string continent;
    bool sovereign = false;
    bool operator==(region const&) const = default;
};

// How many GPUs of a model are free in a region right now.
struct stock {
    std::string gpu;
    std::string region;
    int available_gpus = 0;
    bool operator==(stock const&) const = default;
};

// A source of market listings the methodology names (a row of market_source): a marketplace or a
// GPU cloud, or one of the sample data's made-up sources (kind "synthetic", no homepage).
struct market_source {
    std::string name;      // "lambda", "synthetic-alpha"
    std::string kind;      // "marketplace", "cloud" or "synthetic"
    std::string homepage;  // "https://lambda.ai"; empty for a synthetic source
    std::string format;    // the format its listings are read in: "skypilot-vms", …
    bool operator==(market_source const&) const = default;
};

struct catalog {
    std::vector<gpu_model> gpus;  // sorted by id
    std::vector<region> regions;  // sorted by code
    std::vector<stock> inventory;  // sorted by gpu, then region
    std::vector<market_source> sources;  // sorted by name
    // Member by member: a reload compares what it read with what is served (snapshot/refresher).
    bool operator==(catalog const&) const = default;

    gpu_model const* find(std::string_view id) const;
    std::vector<std::string> ids() const;
};

}
