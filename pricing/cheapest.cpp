#include "cheapest.hpp"

#include "estimate.hpp"
#include "rules.hpp"

#include <algorithm>

namespace lcg::pricing {

parsed<cheapest_query> parse_cheapest_query(cheapest_parameters const& p, catalog const& cat)
{
    cheapest_query q;
    if (p.vram_gb && (p.params_b || p.precision))
        return bad_input("vram_gb",
                         "vram_gb: give either params_b with precision (a model to hold) or vram_gb (the memory "
                         "needed), not both",
                         "vram_gb\u202F: donnez soit params_b avec precision (un modèle à loger), soit vram_gb (la mémoire "
                         "nécessaire), pas les deux");
    if (p.vram_gb) {
        auto const gb = units_parameter("vram_gb", *p.vram_gb, rules::quantity_decimals);
        if (!gb)
            return gb.err();
        q.needed_units = *gb * (needed_units_per_gb / micro_units);
    } else if (!p.params_b && !p.precision) {
        return bad_input("params_b",
                         "params_b: params_b with precision (a model to hold), or vram_gb (the memory needed), is "
                         "required",
                         "params_b\u202F: params_b avec precision (un modèle à loger), ou vram_gb (la mémoire nécessaire), "
                         "est obligatoire");
    } else if (!p.precision) {
        return bad_input("precision", "precision: required with params_b; accepted: fp32, fp16, bf16, fp8, int8, int4",
                         "precision\u202F: obligatoire avec params_b\u202F; accepté\u202F: fp32, fp16, bf16, fp8, int8, int4");
    } else if (!p.params_b) {
        return bad_input("params_b",
                         "params_b: required with precision; accepted: the model's size in billions of parameters",
                         "params_b\u202F: obligatoire avec precision\u202F; accepté\u202F: la taille du modèle en milliards "
                         "de paramètres");
    } else {
        auto spec = parse_model_spec({*p.params_b, *p.precision, std::nullopt}, cat);
        if (!spec)
            return spec.err();
        q.needed_units = needed_memory_units(spec->micro_params_b, spec->weights);
        q.model = std::move(spec).value();
    }
    q.micro_hours = micro_units;
    if (p.hours) {
        auto const h = units_parameter("hours", *p.hours, rules::quantity_decimals);
        if (!h)
            return h.err();
        q.micro_hours = *h;
    }
    auto const t = tier_parameter(p.tier);
    if (!t)
        return t.err();
    q.billed = *t;
    return q;
}

std::vector<configuration> cheapest_configurations(cheapest_query const& q, catalog const& cat,
                                                   price_sheet const& sheet)
{
    std::int64_t const duration_us = q.micro_hours * (microseconds_per_hour / micro_units);
    std::vector<configuration> out;
    for (auto const& m : cat.gpus) {
        auto const* row = sheet.find(m.id);
        std::optional<precision> const weights = q.model ? std::optional(q.model->weights) : std::nullopt;
        auto const sized = size_on(m, q.needed_units, row, weights);
        auto const cheapest = cheapest_on(sized, q.billed);
        if (!cheapest)
            continue;
        money const rate = row->rates->of(q.billed);
        out.push_back({*cheapest, rate, gpu_time_cost(rate, cheapest->gpus, duration_us),
                       weights ? std::optional(sized.support) : std::nullopt});
    }
    std::stable_sort(out.begin(), out.end(), [](configuration const& a, configuration const& b) {
        return cheapest_order(a.chosen) < cheapest_order(b.chosen);
    });
    return out;
}

}
