#include "hardware.hpp"

#include "estimate.hpp"
#include "power_score.hpp"
#include "quantity.hpp"
#include "transfer.hpp"

#include <algorithm>

namespace lcg::pricing {

namespace {

// k/n of a TFLOPS figure, to the whole TFLOPS; empty when the figure is not a plain decimal.
std::optional<figure> share_of(figure const& whole, int k, int n)
{
    auto const micro = micro_tflops(whole);
    if (!micro)
        return std::nullopt;
    return figure{units_to_decimal(*micro, k, n * micro_units, 0).text, whole.confirmed};
}

int largest_profile_gb(gpu_model const& model)
{
    int gb = 0;
    for (auto const& p : model.mig_profiles)
        gb = std::max(gb, p.memory_gb);
    return gb;
}

}

node_memory node_memory_of(gpu_model const& model)
{
    constexpr int gpus = rules::max_gpus_per_instance;
    node_memory node{gpus, gpus * model.vram_gb, std::nullopt, std::nullopt};
    for (auto const& assumed : rules::lesson_vram)
        if (assumed.gpu == model.id && assumed.vram_gb != model.vram_gb) {
            node.lesson_vram_gb = assumed.vram_gb;
            node.lesson_memory_gb = gpus * assumed.vram_gb;
        }
    return node;
}

std::optional<rack_figures> rack_of(gpu_model const& model)
{
    for (auto const& rack : rules::nvlink_racks)
        if (auto const* link = find_link(rack.link); rack.gpu == model.id && link)
            return rack_figures{rack, rack.gpus * model.vram_gb, rack.gpus * link->rate};  // NVLink: GB/s
    return std::nullopt;
}

std::optional<even_split> mig_even_split(gpu_model const& model)
{
    int const slices = mig_compute_slices(model);
    if (slices == 0 || model.sm_count <= 0)
        return std::nullopt;
    int const per_slice = model.sm_count / slices;
    return even_split{slices, per_slice, model.sm_count - slices * per_slice};
}

slice_figures slice_figures_of(gpu_model const& model, mig_profile const& profile)
{
    slice_figures f;
    int const slices = mig_compute_slices(model);
    if (slices == 0)
        return f;
    f.fp16_tflops = share_of(model.fp16_dense_tflops, profile.compute_slices, slices);
    if (model.fp8_dense_tflops)
        f.fp8_tflops = share_of(*model.fp8_dense_tflops, profile.compute_slices, slices);
    f.sms = profile.compute_slices * (model.sm_count / slices);
    f.gpu_memory_slices = slices == rules::mig_full_compute_slices ? rules::mig_memory_slices : slices;
    // The profile's GB over the whole GPU's profile, in memory slices: 18 of 141 GB is 1 of 8.
    int const whole = largest_profile_gb(model);
    f.memory_slices = whole == 0 ? 0
                                 : static_cast<int>(mul_div_half_up(profile.memory_gb, f.gpu_memory_slices, whole));
    return f;
}

}
