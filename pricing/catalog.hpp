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
};
figure parse_figure(std::string_view text);  // "25.8?" → {"25.8", false}

struct mig_profile {
    std::string name;  // "1g.10gb"
    int memory_gb = 0;
    int compute_slices = 0;  // k of 7
    int max_instances = 0;
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
    figure fp16_dense_tflops_fp16acc;
    std::optional<figure> fp8_dense_tflops;
    figure tdp_w;
    std::optional<figure> nvlink_gbs;
    int mig_max_instances = 0;
    int sm_count = 0;
    std::string source;
    std::string notes;
    int max_gpus_per_instance = 1;
    int max_vcpus = 0;
    int max_memory_gib = 0;
    std::vector<std::string> cpu_generations;
    std::vector<mig_profile> mig_profiles;
};

struct region {
    std::string code;
    std::string city;
    std::string country;
    std::string continent;
    bool sovereign = false;
};

struct catalog {
    std::vector<gpu_model> gpus;  // sorted by id
    std::vector<region> regions;  // sorted by code

    gpu_model const* find(std::string_view id) const;
    std::vector<std::string> ids() const;
};

}
