#pragma once

#include "catalog.hpp"

#include <string_view>
#include <vector>

// Finding a catalog model from what a person or an assistant types: the id in any letter case, or
// the words of a name ("H100 SXM5", "nvidia-h100-sxm", "RTX 4090", "h100sxm", "A100 80 GB PCIe").
// Vendor and brand words are ignored, variant words are read as the catalog writes them (sxm4/sxm5/
// sxm6 are sxm), and a bare number that is some model's memory is read as that memory ("a100-80" is
// "a100 80gb"). The cost is bounded: the text is cut at rules::max_gpu_name_bytes and at eight words,
// and each word is compared with each model's few words, at most one edit apart.
namespace lcg::pricing {

// Why a text named no single model.
enum class gpu_miss {
    unknown,  // no model shares a word with it
    several,  // every word fits, but more than one model
    family,   // its words are only a family or a specification ("blackwell", "ada", "141gb")
    close,    // no model has every word; the candidates come closest (a typo, part of a name)
};

struct gpu_match {
    gpu_model const* model = nullptr;          // the one model the text names, if it names one
    std::vector<gpu_model const*> candidates;  // otherwise the closest, best first (at most rules::gpu_candidates)
    gpu_miss miss = gpu_miss::unknown;
};

// A model is found when the text is its id, when its words are exactly the model's id words, or when
// exactly one model has every word of the text and one of those words names a model rather than a
// family or a memory size: a loose match never answers, it offers candidates. These are the models
// having every word (or, failing that, the most words, counting a word one edit away or cut short),
// ranked by how many words they have exactly, then how many of those their own id and name have,
// then SXM, PCIe, NVL and others (a name without a variant usually means the SXM part), then in
// catalog order.
gpu_match lookup_gpu(std::string_view text, catalog const& cat);

}
