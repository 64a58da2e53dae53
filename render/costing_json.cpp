// JSON of the costing tools: a sizing, a comparison, an instance check, the cheapest configuration.
#include "render/costing_json.hpp"

#include "render/json.hpp"
#include "render/json_parts.hpp"
#include "render/transfer.hpp"
#include "render/language.hpp"

#include "pricing/hardware.hpp"
#include "pricing/rules.hpp"
#include "pricing/transfer.hpp"

#include <boost/json/array.hpp>

#include <string>

namespace lcg::render {

namespace {

namespace json = boost::json;
namespace rules = pricing::rules;
using namespace json_parts;

json::value optional_money(std::optional<money> const& m) { return m ? json::value(to_decimal(*m)) : json::value(nullptr); }

json::object rates_json(pricing::tier_rates const& r)
{
    json::object o;
    for (pricing::tier t : pricing::all_tiers)
        o[pricing::to_string(t)] = to_decimal(r.of(t));
    return o;
}

// Null rather than an absent member, so that every row of a listing has the same keys.
json::value optional_rates(std::optional<pricing::tier_rates> const& r)
{
    return r ? json::value(rates_json(*r)) : json::value(nullptr);
}

std::string upper(pricing::precision p)
{
    std::string s(pricing::to_string(p));
    for (char& c : s)
        c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
    return s;
}

// Whether the GPU computes in the precision sized for, the formats it does run, their source, and
// what an emulated precision costs; null for a bare memory need.
json::value precision_json(std::optional<pricing::precision_support> const& s, pricing::gpu_model const* m,
                           language lang)
{
    if (!s || !m)
        return nullptr;
    json::object o = precisions_json(*m);
    json::value note = nullptr;
    if (!s->native)
        note = say(lang, "json.precision.emulated",
                   {{"asked", upper(s->asked)},
                    {"wide", upper(s->computes_in)},
                    {"tflops", s->dense_tflops ? locale::number(lang, s->dense_tflops->value) : std::string("?")}});
    return json::object{{"asked", pricing::to_string(s->asked)},
                        {"native", s->native},
                        {"computes_in", pricing::to_string(s->computes_in)},
                        {"dense_tflops", optional_figure_json(s->dense_tflops)},
                        {"native_precisions", std::move(o["native"])},
                        {"source", std::move(o["source"])},
                        {"caveat", std::move(o["caveat"])},
                        {"note", std::move(note)}};
}

// For a configuration of several instances: the link between them, and the lesson's 10 GB moved
// over every link, so that the cost of crossing nodes is stated beside the price. Null otherwise.
json::value fabric_json(int instances, language lang)
{
    if (instances <= 1)
        return nullptr;
    auto const micro_gb = rules::lesson_transfer_gb * pricing::micro_units;
    return json::object{{"between_nodes", rules::between_nodes_link},
                        {"note", say(lang, "json.fabric_note", {{"instances", std::to_string(instances)}})},
                        {"transfer", transfer_json(micro_gb, pricing::transfer_times(micro_gb), lang)}};
}

// A sizing or a comparison is priced on the sheet a week names, or on none before the first
// publication: the document ends with that sheet's week (null then) and whether it is sample data.
json::object with_prices_week(json::object o, pricing::price_sheet const* sheet)
{
    o["week"] = sheet ? json::value(pricing::to_string(sheet->week)) : json::value(nullptr);
    o["sample"] = is_sample(sheet);
    return o;
}

}

std::string ratio_text(pricing::rules::ratio r)
{
    return decimal_string(r.numerator * 1'000'000 / r.denominator, 6, 0);
}

json::object sizing_json(pricing::sizing_result const& result, pricing::catalog const& catalog,
                         pricing::price_sheet const* sheet, language lang)
{
    json::array models;
    for (auto const& r : result.rows) {
        pricing::gpu_model const* m = catalog.find(r.gpu);
        json::object o{{"gpu", r.gpu},
                       {"name", m ? m->name : r.gpu},
                       {"vram_gb", r.vram_gb},
                       {"gpus_needed", r.gpus_needed},
                       {"practical_gpus", r.practical_gpus ? json::value(*r.practical_gpus) : json::value(nullptr)},
                       {"fits_one_node", r.fits_one_node},
                       {"max_gpus_per_instance", r.max_gpus_per_instance},
                       {"fits_one_instance", r.fits_one_instance},
                       {"instances", r.instances},
                       {"smallest_instances", r.smallest_instances}};
        if (!r.practical_gpus)
            o["note"] = say(lang, "json.sizing.too_many", {{"gpus", std::to_string(r.gpus_needed)},
                                                           {"max", std::to_string(rules::max_priced_gpus)}});
        else if (!r.fits_one_instance)
            o["note"] = say(lang, "json.sizing.instances", {{"gpus", std::to_string(*r.practical_gpus)},
                                                            {"instances", std::to_string(r.instances)},
                                                            {"gpu", r.gpu},
                                                            {"max", std::to_string(r.max_gpus_per_instance)}});
        else if (r.smallest_hourly)
            o["note"] = say(lang, "json.sizing.smallest", {{"gpus", std::to_string(r.gpus_needed)},
                                                           {"practical", std::to_string(*r.practical_gpus)}});
        else
            o["note"] = nullptr;
        json::object mig{{"supported", m && pricing::has_mig(*m)}, {"fits", r.mig.has_value()}};
        if (r.mig) {
            mig["profile"] = r.mig->profile;
            mig["profile_memory_gb"] = r.mig->memory_gb;
            mig["compute_slices"] = r.mig->compute_slices;
            mig["compute_fraction"] = std::to_string(r.mig->compute_slices) + "/" + std::to_string(r.mig->slices_per_gpu);
            mig["rented"] = false;
            mig["instances_per_gpu"] = r.mig->instances_per_gpu;
        }
        o["mig"] = std::move(mig);
        o["precision"] = precision_json(r.support, m, lang);
        o["fabric"] = fabric_json(r.practical_gpus ? r.instances : 0, lang);
        o["available"] = r.priced;
        if (!r.priced)
            o["reason"] = r.unpriced_reason;
        o["hourly"] = optional_rates(r.hourly);
        o["smallest_hourly"] = optional_rates(r.smallest_hourly);
        models.push_back(std::move(o));
    }
    json::object cheapest;
    for (pricing::tier t : pricing::all_tiers)
        cheapest[pricing::to_string(t)] = nullptr;
    for (auto const& c : result.cheapest)
        cheapest[pricing::to_string(c.billed)] =
            json::object{{"gpu", c.gpu},
                         {"gpus", c.gpus},
                         {"instances", c.instances},
                         {"hourly", to_decimal(c.hourly)},
                         {"native", c.native}};

    int const halves = pricing::half_bytes_per_param(result.spec.weights);
    json::object o{{"params_b", micro_text(result.spec.micro_params_b)},
                   {"precision", pricing::to_string(result.spec.weights)},
                   {"bytes_per_param", decimal_string(halves * 5, 1, 0)},
                   {"overhead_factor", ratio_text(rules::sizing_overhead)},
                   {"needed_gb", decimal_string(result.needed_units, pricing::needed_gb_decimals, 0)},
                   {"formula", say(lang, "json.sizing.formula")},
                   {"models", std::move(models)},
                   {"cheapest", std::move(cheapest)},
                   {"currency", "USD"},
                   {"hourly_unit", say(lang, "json.sizing.hourly_unit")},
                   {"mig_note", say(lang, "json.sizing.mig_note")}};
    return with_prices_week(std::move(o), sheet);
}

json::object comparison_json(pricing::comparison const& c, pricing::catalog const& catalog,
                             pricing::price_sheet const* sheet, language lang)
{
    json::array gpus;
    for (auto const& r : c.rows) {
        pricing::gpu_model const* m = catalog.find(r.gpu);
        json::object o{{"gpu", r.gpu},
                       {"name", m ? m->name : r.gpu},
                       {"vram_gb", r.vram_gb},
                       {"memory_bandwidth_gbs", r.memory_bandwidth_gbs},
                       {"fp16_dense_tflops", m ? json::value(fp16_dense_tflops_json(*m, lang)) : json::value(nullptr)},
                       {"power_score", m ? power_score_json(*m, lang) : json::value(nullptr)},
                       {"available", r.rates.has_value()},
                       {"prices", optional_rates(r.rates)},
                       {"price_per_100_power_score", optional_money(r.per_100_power_score)},
                       {"price_per_gb_vram_hour", optional_money(r.per_gb_vram_hour)}};
        if (!r.rates)
            o["reason"] = r.unpriced_reason;
        gpus.push_back(std::move(o));
    }
    json::object lowest;
    for (std::size_t i = 0; i < 3; ++i)
        lowest[pricing::to_string(pricing::all_tiers[i])] = string_array(c.winners.lowest_price[i]);
    json::object o{
        {"currency", "USD"},
        {"unit", "per GPU-hour"},
        {"gpus", std::move(gpus)},
        {"winners",
         {{"lowest_price", std::move(lowest)},
          {"most_vram", string_array(c.winners.most_vram)},
          {"most_bandwidth", string_array(c.winners.most_bandwidth)},
          {"highest_power_score", string_array(c.winners.highest_power_score)},
          {"lowest_price_per_power_score", string_array(c.winners.lowest_price_per_power_score)},
          {"lowest_price_per_gb_vram", string_array(c.winners.lowest_price_per_gb_vram)}}},
        {"notes",
         {{"power_score", say(lang, "json.compare.power_score")},
          {"price_per_100_power_score", say(lang, "json.compare.per_100_power_score")},
          {"price_per_gb_vram_hour", say(lang, "json.compare.per_gb_vram")},
          {"winners", say(lang, "json.compare.winners")}}}};
    return with_prices_week(std::move(o), sheet);
}

json::object instance_check_json(pricing::instance_check const& c)
{
    json::array problems;
    for (auto const& p : c.problems) {
        if (p.limit == "cpu_generation")
            problems.push_back({{"limit", p.limit},
                                {"allowed", string_array(p.allowed_generations)},
                                {"requested", p.requested_generation}});
        else if (!p.allowed_text.empty())
            problems.push_back({{"limit", p.limit}, {"allowed", p.allowed_text}, {"requested", p.requested_text}});
        else if (p.allowed_flag)
            problems.push_back({{"limit", p.limit}, {"allowed", *p.allowed_flag}, {"requested", p.requested_flag}});
        else
            problems.push_back({{"limit", p.limit}, {"allowed", p.allowed}, {"requested", p.requested}});
    }
    auto const& req = c.request;
    return {{"status", c.ok() ? "ok" : "vm-specs-mismatch"},
            {"gpu", req.gpu},
            {"region", req.region.empty() ? json::value(nullptr) : json::value(req.region)},
            {"requested",
             {{"gpus", req.gpus},
              {"vcpus", req.vcpus},
              {"memory_gib", req.memory_gib},
              {"cpu_generation", req.cpu_generation},
              {"other_gpu", req.other_gpu.empty() ? json::value(nullptr) : json::value(req.other_gpu)},
              {"cpu_performance", req.cpu_performance},
              {"dedicated_vm", req.dedicated_vm}}},
            {"limits",
             {{"max_gpus_per_instance", c.limits.max_gpus_per_instance},
              {"max_vcpus", c.limits.max_vcpus},
              {"max_memory_gib", c.limits.max_memory_gib},
              {"cpu_generations", string_array(c.limits.cpu_generations)},
              {std::string(pricing::one_gpu_model_limit), req.gpu},
              {std::string(pricing::cpu_performance_limit), true},
              {std::string(pricing::not_dedicated_vm_limit), true},
              {"applies_to", "instance"}}},
            {"problems", std::move(problems)}};
}

json::object cheapest_json(pricing::cheapest_query const& q, std::span<const pricing::configuration> options,
                           pricing::catalog const& catalog, pricing::price_sheet const& sheet, language lang)
{
    auto option_json = [&](pricing::configuration const& c) {
        pricing::gpu_model const* m = catalog.find(c.chosen.gpu);
        return json::object{{"gpu", c.chosen.gpu},
                            {"name", m ? m->name : c.chosen.gpu},
                            {"gpus", c.chosen.gpus},
                            {"instances", c.chosen.instances},
                            {"per_gpu_hour", to_decimal(c.per_gpu_hour)},
                            {"hourly", to_decimal(c.chosen.hourly)},
                            {"total", to_decimal(c.total)},
                            {"total_display", display(c.total)},
                            {"precision", precision_json(c.support, m, lang)},
                            {"fabric", fabric_json(c.chosen.instances, lang)}};
    };
    json::array alternatives;
    for (std::size_t i = 1; i < options.size() && i <= static_cast<std::size_t>(rules::cheapest_alternatives); ++i)
        alternatives.push_back(option_json(options[i]));
    json::value model = nullptr;
    if (q.model)
        model = json::object{{"params_b", micro_text(q.model->micro_params_b)},
                             {"precision", pricing::to_string(q.model->weights)}};
    return {{"week", pricing::to_string(sheet.week)},
            {"sample", sheet.is_sample()},
            {"currency", "USD"},
            {"tier", pricing::to_string(q.billed)},
            {"hours", micro_text(q.micro_hours)},
            {"needed_gb", decimal_string(q.needed_units, pricing::needed_gb_decimals, 0)},
            {"model", std::move(model)},
            {"cheapest", options.empty() ? json::value(nullptr) : json::value(option_json(options.front()))},
            {"alternatives", std::move(alternatives)},
            {"basis", say(lang, "json.cheapest.basis")}};
}

}
