#include "catalog.hpp"

#include <algorithm>

namespace lcg::pricing {

figure parse_figure(std::string_view text)
{
    if (text.ends_with('?'))
        return {std::string(text.substr(0, text.size() - 1)), false};
    return {std::string(text), true};
}

int mig_compute_slices(gpu_model const& model)
{
    int slices = 0;
    for (auto const& p : model.mig_profiles)
        slices = std::max(slices, p.compute_slices);
    return slices;
}

gpu_model const* catalog::find(std::string_view id) const
{
    auto it = std::lower_bound(gpus.begin(), gpus.end(), id,
                               [](gpu_model const& g, std::string_view v) { return g.id < v; });
    return it != gpus.end() && it->id == id ? &*it : nullptr;
}

std::vector<std::string> catalog::ids() const
{
    std::vector<std::string> out;
    out.reserve(gpus.size());
    for (auto const& g : gpus)
        out.push_back(g.id);
    return out;
}

}
