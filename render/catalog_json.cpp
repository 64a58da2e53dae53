// JSON of the catalog: its models (each with the fields the costing tools rest on), filtered or
// not, the regions, the market sources, the inventory, and the catalog document that is signed.
#include "render/json.hpp"
#include "render/resources.hpp"

#include "render/costing_json.hpp"
#include "render/json_parts.hpp"

#include "pricing/hardware.hpp"
#include "pricing/power_score.hpp"
#include "pricing/rules.hpp"

#include <boost/json/array.hpp>

#include <algorithm>

namespace lcg::render {

namespace {

namespace json = boost::json;
namespace rules = pricing::rules;
using json_parts::micro_text;
using json_parts::optional_text;

}

json::object fp16_dense_tflops_json(pricing::gpu_model const& m, language lang)
{
    json::object o = figure_json(m.fp16_dense_tflops);
    o["convention"] = say(lang, "json.fp16_convention");
    return o;
}

json::value power_score_json(pricing::gpu_model const& m, language lang)
{
    auto const score = pricing::compute_power_score(m.fp16_dense_tflops);
    if (!score)
        return nullptr;
    return json::object{{"value", pricing::to_string(*score)},
                        {"confirmed", score->confirmed},
                        {"reference", std::string(rules::power_score_reference_gpu) + " = 100"},
                        {"formula", say(lang, "json.power_score_formula")}};
}

json::object interconnect_json(pricing::gpu_model const& m, language lang)
{
    if (!m.interconnect_gbs)
        return {{"type", nullptr}, {"bandwidth_gbs", nullptr}, {"nvlink", false}};
    return {{"type", m.interconnect_kind},
            {"bandwidth_gbs", figure_json(*m.interconnect_gbs)},
            {"nvlink", pricing::has_nvlink(m)},
            {"note", say(lang, "json.interconnect_note")}};
}

json::object mig_json(pricing::gpu_model const& m, language lang)
{
    int const slices = pricing::mig_compute_slices(m);
    json::array profiles;
    for (auto const& p : m.mig_profiles) {
        auto const f = pricing::slice_figures_of(m, p);
        profiles.push_back({{"name", p.name},
                            {"memory_gb", p.memory_gb},
                            {"compute_slices", p.compute_slices},
                            {"compute_fraction", std::to_string(p.compute_slices) + "/" + std::to_string(slices)},
                            {"max_instances", p.max_instances},
                            {"fp16_dense_tflops", optional_figure_json(f.fp16_tflops)},
                            {"fp8_dense_tflops", optional_figure_json(f.fp8_tflops)},
                            {"sms", f.sms},
                            {"memory_slices", f.memory_slices},
                            {"memory_fraction", std::to_string(f.memory_slices) + "/" + std::to_string(f.gpu_memory_slices)}});
    }
    json::value split = nullptr;
    if (auto const even = pricing::mig_even_split(m))
        split = json::object{{"sms", m.sm_count},
                             {"slices", even->slices}, {"sms_per_slice", even->sms_per_slice}, {"idle_sms", even->idle_sms}};
    return {{"supported", pricing::has_mig(m)},
            {"max_instances", m.mig_max_instances},
            {"compute_slices", slices},
            {"profiles", std::move(profiles)},
            {"even_split", std::move(split)},
            {"note", say(lang, "json.mig_note")}};
}

json::object precisions_json(pricing::gpu_model const& m)
{
    json::array native;
    for (auto p : pricing::native_precisions(m))
        native.push_back(json::value(pricing::to_string(p)));
    auto const caveat = pricing::native_precisions_caveat(m);
    return {{"native", std::move(native)},
            {"source", pricing::native_precisions_source(m)},
            {"caveat", caveat.empty() ? json::value(nullptr) : json::value(caveat)}};
}

json::object node_json(pricing::gpu_model const& m, language lang)
{
    auto const node = pricing::node_memory_of(m);
    json::object o{{"gpus", node.gpus}, {"memory_gb", node.memory_gb}, {"lesson", nullptr}};
    if (node.lesson_memory_gb)
        o["lesson"] = json::object{{"vram_gb", *node.lesson_vram_gb},
                                   {"memory_gb", *node.lesson_memory_gb},
                                   {"why", say(lang, "json.lesson_vram." + m.id)}};
    o["note"] = say(lang, "json.node_note");
    return o;
}

json::value rack_json(pricing::gpu_model const& m, language lang)
{
    auto const rack = pricing::rack_of(m);
    if (!rack)
        return nullptr;
    return json::object{{"id", rack->rack.id},
                        {"name", rack->rack.name},
                        {"gpus", rack->rack.gpus},
                        {"cpus", rack->rack.cpus},
                        {"link", rack->rack.link},
                        {"memory_gb", rack->memory_gb},
                        {"nvlink_domain_gbs", rack->domain_gbs},
                        {"note", say(lang, "json.rack_note")}};
}

json::object instance_limits_json(pricing::gpu_model const& m, language lang)
{
    json::object extra;
    for (auto const& e : m.extra_cpu_generations)
        extra[e.region] = string_array(e.cpu_generations);
    return {{"max_gpus", m.max_gpus_per_instance},
            {"max_vcpus", m.max_vcpus},
            {"max_memory_gib", m.max_memory_gib},
            {"cpu_generations", string_array(m.cpu_generations)},
            {"extra_cpu_generations_by_region", std::move(extra)},
            {"applies_to", "instance"},
            {"note", say(lang, "json.instance_limits_note")}};
}

json::object regions_json(pricing::gpu_model const& m, language lang)
{
    return {{"count", m.regions.size()},
            {"codes", string_array(m.regions)},
            {"note", say(lang, "json.gpu_regions_note")}};
}

json::object filtered_catalog_json(pricing::catalog const& catalog, pricing::price_sheet const* current,
                                   pricing::gpu_filter const& f, language lang)
{
    json::array gpus;
    for (auto const& m : catalog.gpus)
        if (pricing::matches(f, m))
            gpus.push_back(gpu_json(m, current, lang));
    json::object filters;
    if (f.vendor)
        filters["vendor"] = *f.vendor;
    if (f.architecture)
        filters["architecture"] = *f.architecture;
    if (f.min_micro_vram_gb)
        filters["min_vram_gb"] = micro_text(*f.min_micro_vram_gb);
    if (f.mig)
        filters["mig"] = *f.mig;
    if (f.nvlink)
        filters["nvlink"] = *f.nvlink;
    json::object o{{"count", gpus.size()}, {"gpus", std::move(gpus)}, {"filters", std::move(filters)}};
    if (current)
        o["prices_week"] = pricing::to_string(current->week);
    o["sample"] = is_sample(current);
    return o;
}

json::object gpu_json(pricing::gpu_model const& m, pricing::price_sheet const* current, language lang)
{
    json::object o{{"id", m.id},
                   {"name", m.name},
                   {"vendor", m.vendor},
                   {"architecture", m.architecture},
                   {"form_factor", m.form_factor},
                   {"vram_gb", m.vram_gb},
                   {"memory_type", m.memory_type},
                   {"memory_bandwidth_gbs", m.memory_bandwidth_gbs},
                   {"sm_count", m.sm_count},
                   {"fp16_dense_tflops", fp16_dense_tflops_json(m, lang)},
                   {"power_score", power_score_json(m, lang)},
                   {"fp8_dense_tflops", optional_figure_json(m.fp8_dense_tflops)},
                   {"tdp_w", figure_json(m.tdp_w)},
                   {"interconnect_gbs", optional_figure_json(m.interconnect_gbs)},
                   {"interconnect_kind", m.interconnect_kind.empty() ? json::value(nullptr) : json::value(m.interconnect_kind)},
                   {"interconnect", interconnect_json(m, lang)},
                   {"mig", mig_json(m, lang)},
                   {"precisions", precisions_json(m)},
                   {"node", node_json(m, lang)},
                   {"rack", rack_json(m, lang)},
                   {"instance_limits", instance_limits_json(m, lang)},
                   {"regions", regions_json(m, lang)},
                   {"source", m.source},
                   {"notes", m.notes}};
    if (auto const* row = current ? current->find(m.id) : nullptr) {
        json::object prices = sheet_row_json(*row, nullptr);
        prices.erase("gpu");
        o["prices"] = std::move(prices);
    }
    o["sample"] = is_sample(current);
    return o;
}

json::object catalog_json(pricing::catalog const& catalog, pricing::price_sheet const* current, language lang)
{
    return filtered_catalog_json(catalog, current, {}, lang);  // one shape, filtered or not
}

json::object regions_json(pricing::catalog const& catalog, language lang)
{
    json::array list;
    std::vector<std::string> continents;
    for (auto const& r : catalog.regions) {
        list.push_back({{"code", r.code},
                        {"city", r.city},
                        {"country", r.country},
                        {"continent", r.continent},
                        {"sovereign", r.sovereign}});
        if (std::find(continents.begin(), continents.end(), r.continent) == continents.end())
            continents.push_back(r.continent);
    }
    return {{"count", catalog.regions.size()},
            {"continents", continents.size()},
            {"note", say(lang, "json.regions_note")},
            {"regions", std::move(list)}};
}

json::array sources_list_json(std::span<const pricing::market_source> sources)
{
    json::array list;
    for (auto const& s : sources)
        list.push_back({{"name", s.name}, {"kind", s.kind}, {"homepage", optional_text(s.homepage)}, {"format", s.format}});
    return list;
}

json::object sources_json(pricing::catalog const& catalog, language lang)
{
    return {{"rules_version", pricing::rules::rules_version},
            {"count", catalog.sources.size()},
            {"note", say(lang, "json.sources_note",
                         {{"sources", std::to_string(pricing::rules::min_sources)},
                          {"listings", std::to_string(pricing::rules::min_observations)}})},
            {"sources", sources_list_json(catalog.sources)}};
}

json::object inventory_json(pricing::catalog const& catalog, pricing::inventory_query const& query, language lang)
{
    json::array models;
    for (auto const& m : catalog.gpus) {
        if (query.gpu && query.gpu != &m)
            continue;
        json::array regions;
        int total = 0;
        for (auto const& s : catalog.inventory) {
            if (s.gpu != m.id || (query.where && s.region != query.where->code))
                continue;
            total += s.available_gpus;
            regions.push_back({{"region", s.region},
                               {"available_gpus", s.available_gpus},
                               {"largest_instance_gpus", std::min(s.available_gpus, m.max_gpus_per_instance)}});
        }
        models.push_back({{"gpu", m.id},
                          {"available_gpus", total},
                          {"max_gpus_per_instance", m.max_gpus_per_instance},
                          {"regions", std::move(regions)}});
    }
    return {{"note", say(lang, "json.inventory_note")}, {"gpus", std::move(models)}};
}

std::string catalog_document(pricing::catalog const& catalog)
{
    // Without the members a sheet gives (prices, whether they are a sample's): the catalog alone.
    auto gpus = catalog_json(catalog, nullptr, language::en);
    gpus.erase("sample");
    for (auto& g : gpus["gpus"].as_array())
        g.as_object().erase("sample");
    return to_text(json::object{{"gpus", std::move(gpus)},
                                {"regions", regions_json(catalog)},
                                {"inventory", inventory_json(catalog)},
                                {"sources", sources_json(catalog)}});
}

json::object catalog_signature_json(pricing::catalog_signature const& signature)
{
    json::array sheets;
    for (auto const& s : signature.sheets)
        sheets.push_back({{"week", pricing::to_string(s.week)},
                          {"published_at", pricing::to_rfc3339(s.published_at)},
                          {"inputs_sha256", s.inputs_sha256},
                          {"inputs_bytes", s.inputs_bytes}});
    return {{"format", pricing::catalog_bytes_format},
            {"signed_at", pricing::to_rfc3339(signature.signed_at)},
            {"catalog_sha256", signature.catalog_sha256},
            {"catalog_bytes", signature.catalog_bytes},
            {"catalog_url", path_of(resource::catalog)},
            {"sheets", std::move(sheets)},
            {"key_id", signature.key_id},
            {"signature", signature.signature},
            {"signed_bytes", pricing::signed_bytes(signature)}};
}

}
