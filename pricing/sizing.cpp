#include "sizing.hpp"

#include "estimate.hpp"
#include "rules.hpp"

#include <algorithm>
#include <tuple>

namespace lcg::pricing {

namespace {

money times(money m, std::int64_t n) { return money::from_micros(m.micros() * n); }

// The architecture's line of rules::native_precisions, or null for one the table does not know.
rules::native_formats const* native_entry(gpu_model const& model)
{
    for (auto const& a : rules::native_precisions)
        if (a.architecture == model.architecture)
            return &a;
    return nullptr;
}

bool lists(rules::native_formats const* entry, precision p)
{
    return entry &&
           std::find(std::begin(entry->formats), std::end(entry->formats), to_string(p)) != std::end(entry->formats);
}

}

std::string_view to_string(precision p)
{
    switch (p) {
    case precision::fp32: return "fp32";
    case precision::fp16: return "fp16";
    case precision::bf16: return "bf16";
    case precision::fp8: return "fp8";
    case precision::int8: return "int8";
    case precision::int4: return "int4";
    }
    return "fp16";
}

outcome<precision> parse_precision(std::string_view text)
{
    std::string const lower = ascii_lower(text);
    for (precision p : all_precisions)
        if (to_string(p) == lower)
            return p;
    return invalid("precision: " + quote(text) + " is not a precision; accepted: fp32, fp16, bf16, fp8, int8, int4",
                   "precision\u202F: " + quote(text) + " n’est pas une précision\u202F; accepté\u202F: fp32, fp16, bf16, fp8, int8, int4");
}

int half_bytes_per_param(precision p)
{
    switch (p) {
    case precision::fp32: return 8;
    case precision::fp16:
    case precision::bf16: return 4;
    case precision::fp8:
    case precision::int8: return 2;
    case precision::int4: return 1;
    }
    return 4;
}

std::vector<precision> native_precisions(gpu_model const& model)
{
    std::vector<precision> out;
    auto const* entry = native_entry(model);
    for (precision p : all_precisions)
        if (lists(entry, p))
            out.push_back(p);
    return out;
}

std::string_view native_precisions_source(gpu_model const& model)
{
    auto const* entry = native_entry(model);
    return entry ? entry->source : std::string_view{};
}

std::string_view native_precisions_caveat(gpu_model const& model)
{
    for (auto const& c : rules::native_caveats)
        if (c.gpu == model.id)
            return c.text;
    return {};
}

precision_support support_for(gpu_model const& model, precision asked)
{
    bool const native = lists(native_entry(model), asked);
    static precision const widened = *parse_precision(rules::widened_format);
    precision_support s{asked, native, native ? asked : widened, std::nullopt};
    if (s.computes_in == precision::fp8)
        s.dense_tflops = model.fp8_dense_tflops;
    else if (s.computes_in == precision::fp16 || s.computes_in == precision::bf16)
        s.dense_tflops = model.fp16_dense_tflops;
    return s;
}

parsed<model_spec> parse_model_spec(sizing_parameters const& p, catalog const& cat)
{
    model_spec spec;
    auto const params = units_parameter("params_b", p.params_b, rules::quantity_decimals);
    if (!params)
        return params.err();
    spec.micro_params_b = *params;
    auto const weights = parse_precision(p.precision);
    if (!weights)
        return parameter_error{"precision", weights.err()};
    spec.weights = *weights;
    if (p.gpu) {
        auto const model = find_gpu_parameter("gpu", *p.gpu, cat);
        if (!model)
            return model.err();
        spec.gpu = (*model)->id;
    }
    return spec;
}

std::int64_t needed_memory_units(std::int64_t micro_params_b, precision weights)
{
    // GB = params_b × bytes × overhead = micro × 10^-6 × (halves / 2) × (3 / 2); in units of 10^-8 GB
    // that is micro × halves × 100 × 3 / 4 = micro × halves × 75, a whole number.
    constexpr auto overhead = rules::sizing_overhead;
    constexpr std::int64_t scale = needed_units_per_gb / micro_units;
    constexpr std::int64_t per_micro_half_byte = scale * overhead.numerator / (2 * overhead.denominator);
    static_assert(per_micro_half_byte * 2 * overhead.denominator == scale * overhead.numerator);
    return micro_params_b * half_bytes_per_param(weights) * per_micro_half_byte;
}

std::optional<mig_fit> smallest_mig_fit(gpu_model const& model, std::int64_t needed_units)
{
    mig_profile const* best = nullptr;
    for (auto const& p : model.mig_profiles) {
        bool const whole_gpu = p.compute_slices >= mig_compute_slices(model) || p.memory_gb >= model.vram_gb;
        if (whole_gpu || p.memory_gb * needed_units_per_gb < needed_units)
            continue;
        // Fewest GB, then fewest compute slices, then the most instances (1g.10gb before 1g.10gb+me).
        if (!best || std::tie(p.memory_gb, p.compute_slices) < std::tie(best->memory_gb, best->compute_slices) ||
            (std::tie(p.memory_gb, p.compute_slices) == std::tie(best->memory_gb, best->compute_slices) &&
             p.max_instances > best->max_instances))
            best = &p;
    }
    if (!best)
        return std::nullopt;
    return mig_fit{best->name, best->memory_gb, best->compute_slices, mig_compute_slices(model), best->max_instances};
}

sizing_row size_on(gpu_model const& model, std::int64_t needed_units, sheet_row const* row,
                   std::optional<precision> weights)
{
    sizing_row r;
    r.gpu = model.id;
    r.vram_gb = model.vram_gb;
    std::int64_t const per_gpu = std::int64_t{model.vram_gb} * needed_units_per_gb;
    r.gpus_needed = std::max<std::int64_t>(1, (needed_units + per_gpu - 1) / per_gpu);
    constexpr int node = rules::max_gpus_per_instance;
    if (r.gpus_needed <= node) {
        int practical = 1;
        while (practical < r.gpus_needed)
            practical *= 2;
        r.practical_gpus = practical;
    } else if (r.gpus_needed <= rules::max_priced_gpus) {
        r.practical_gpus = static_cast<int>((r.gpus_needed + node - 1) / node * node);  // whole nodes
    }
    r.fits_one_node = r.gpus_needed <= node;
    r.max_gpus_per_instance = model.max_gpus_per_instance;
    r.fits_one_instance = r.practical_gpus && *r.practical_gpus <= model.max_gpus_per_instance;
    auto const instances_of = [&](std::int64_t gpus) {
        return static_cast<int>((gpus + model.max_gpus_per_instance - 1) / model.max_gpus_per_instance);
    };
    if (r.practical_gpus) {
        r.instances = instances_of(*r.practical_gpus);
        r.smallest_instances = instances_of(r.gpus_needed);
    }
    r.mig = smallest_mig_fit(model, needed_units);
    if (weights)
        r.support = support_for(model, *weights);
    r.priced = row && row->rates;
    if (!r.priced)
        r.unpriced_reason = row ? row->unavailable_reason : "no price sheet is in effect";
    auto const rates_for = [&](std::int64_t n) {
        return tier_rates{times(row->rates->on_demand, n), times(row->rates->spot, n), times(row->rates->reserved, n)};
    };
    if (r.priced && r.practical_gpus)
        r.hourly = rates_for(*r.practical_gpus);
    if (r.priced && r.practical_gpus && r.gpus_needed != *r.practical_gpus)
        r.smallest_hourly = rates_for(r.gpus_needed);
    return r;
}

std::optional<cheapest_configuration> cheapest_on(sizing_row const& r, tier t)
{
    if (!r.hourly)
        return std::nullopt;
    return cheapest_configuration{t, r.gpu, *r.practical_gpus, r.instances, r.hourly->of(t), r.support.native};
}

sizing_result size_model(model_spec const& spec, catalog const& cat, price_sheet const* sheet)
{
    sizing_result result;
    result.spec = spec;
    result.needed_units = needed_memory_units(spec.micro_params_b, spec.weights);
    for (auto const& model : cat.gpus)
        if (spec.gpu.empty() || model.id == spec.gpu)
            result.rows.push_back(
                size_on(model, result.needed_units, sheet ? sheet->find(model.id) : nullptr, spec.weights));
    for (tier t : all_tiers) {
        std::optional<cheapest_configuration> best;
        for (auto const& r : result.rows)
            if (auto const c = cheapest_on(r, t); c && (!best || cheapest_order(*c) < cheapest_order(*best)))
                best = c;
        if (best)
            result.cheapest.push_back(*best);
    }
    return result;
}

}
