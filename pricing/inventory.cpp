#include "inventory.hpp"

#include "estimate.hpp"

#include <algorithm>

namespace lcg::pricing {

parsed<region const*> find_region_parameter(std::string_view parameter, std::string_view text, catalog const& cat)
{
    std::string const code = ascii_lower(text);
    auto const it = std::find_if(cat.regions.begin(), cat.regions.end(), [&](region const& r) { return r.code == code; });
    if (it != cat.regions.end())
        return &*it;
    std::string codes;
    for (auto const& r : cat.regions) {
        if (!codes.empty())
            codes += ", ";
        codes += r.code;
    }
    std::string const name(parameter);
    return bad_input(name, name + ": " + quote(text) + " is not a region; accepted: " + codes,
                     name + "\u202F: " + quote(text) + " n’est pas une région\u202F; accepté\u202F: " + codes);
}

parsed<inventory_query> parse_inventory_query(std::optional<std::string> const& gpu,
                                              std::optional<std::string> const& region, catalog const& cat)
{
    inventory_query q;
    if (gpu) {
        auto const model = find_gpu_parameter("gpu", *gpu, cat);
        if (!model)
            return model.err();
        q.gpu = *model;
    }
    if (region) {
        auto const r = find_region_parameter("region", *region, cat);
        if (!r)
            return r.err();
        q.where = *r;
    }
    return q;
}

}
