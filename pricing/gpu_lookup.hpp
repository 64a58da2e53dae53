#pragma once

#include "catalog.hpp"

#include <string_view>
#include <vector>

// Finding a catalog model from what a person or an assistant types: the id in any letter case, or
// the words of a name ("H100 SXM5", "nvidia-h100-sxm", "RTX 4090", "A100 80 GB PCIe"). Vendor and
// brand words are ignored, and variant words are read as the catalog writes them (sxm4/sxm5/sxm6 are
// sxm). The cost is bounded: the text is cut at rules::max_gpu_name_bytes and compared word by word
// with each model's few words, never by edit distance.
namespace lcg::pricing {

struct gpu_match {
    gpu_model const* model = nullptr;            // the one model the text names, if it names one
    std::vector<gpu_model const*> candidates;  // otherwise the closest, best first (at most rules::gpu_candidates)
};

// A model is found when the text is its id, when its words are exactly the model's id words, or when
// exactly one model has every word of the text. Otherwise the candidates are the models having every
// word (or, failing that, the most words) of the text, ranked SXM first, then PCIe, then NVL and
// others (a name without a variant usually means the SXM part), then by id.
gpu_match lookup_gpu(std::string_view text, catalog const& cat);

}
