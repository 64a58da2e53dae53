#include "gpu_filter.hpp"

#include "rules.hpp"

#include <algorithm>

namespace lcg::pricing {

namespace {


// The catalog's spelling of `text` among the values `field` takes, compared in any letter case.
parsed<std::string> catalog_value(std::string const& parameter, std::string const& text, catalog const& cat,
                                  std::string gpu_model::*field)
{
    std::vector<std::string> values;
    for (auto const& m : cat.gpus)
        if (std::find(values.begin(), values.end(), m.*field) == values.end())
            values.push_back(m.*field);
    std::sort(values.begin(), values.end());
    std::string const wanted = ascii_lower(text);
    std::string accepted;
    for (auto const& v : values) {
        if (ascii_lower(v) == wanted)
            return v;
        accepted += (accepted.empty() ? "" : ", ") + v;
    }
    bool const vendor = parameter == "vendor";
    return bad_input(parameter,
                     parameter + ": " + quote(text) + " is not " + (vendor ? "a vendor" : "an architecture") +
                         " of the catalog; accepted (any letter case): " + accepted,
                     parameter + "\u202F: " + quote(text) + " n’est pas " + (vendor ? "un fabricant" : "une architecture") +
                         " du catalogue\u202F; accepté (en majuscules ou minuscules)\u202F: " + accepted);
}

}

parsed<gpu_filter> parse_gpu_filter(gpu_filter_parameters const& p, catalog const& cat)
{
    gpu_filter f;
    if (p.vendor) {
        auto const v = catalog_value("vendor", *p.vendor, cat, &gpu_model::vendor);
        if (!v)
            return v.err();
        f.vendor = *v;
    }
    if (p.architecture) {
        auto const a = catalog_value("architecture", *p.architecture, cat, &gpu_model::architecture);
        if (!a)
            return a.err();
        f.architecture = *a;
    }
    if (p.min_vram_gb) {
        auto const v = units_parameter("min_vram_gb", *p.min_vram_gb, rules::quantity_decimals);
        if (!v)
            return v.err();
        f.min_micro_vram_gb = *v;
    }
    if (p.mig) {
        auto const b = parse_flag("mig", *p.mig);
        if (!b)
            return parameter_error{"mig", b.err()};
        f.mig = *b;
    }
    if (p.nvlink) {
        auto const b = parse_flag("nvlink", *p.nvlink);
        if (!b)
            return parameter_error{"nvlink", b.err()};
        f.nvlink = *b;
    }
    return f;
}

bool has_mig(gpu_model const& model) { return model.mig_max_instances > 0; }

bool has_nvlink(gpu_model const& model) { return model.interconnect_kind == "NVLink"; }

bool matches(gpu_filter const& f, gpu_model const& m)
{
    return (!f.vendor || *f.vendor == m.vendor) && (!f.architecture || *f.architecture == m.architecture) &&
           (!f.min_micro_vram_gb || std::int64_t{m.vram_gb} * 1'000'000 >= *f.min_micro_vram_gb) &&
           (!f.mig || *f.mig == has_mig(m)) && (!f.nvlink || *f.nvlink == has_nvlink(m));
}

}
