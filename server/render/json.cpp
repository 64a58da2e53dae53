#include "server/render/json.hpp"

#include "pricing/rules.hpp"

#include <boost/json/serialize.hpp>

namespace lcg::render {

namespace {

namespace json = boost::json;
using pricing::decimal_string;
using pricing::to_decimal;

json::value figure_json(pricing::figure const& f)
{
    // Datasheet figures stay decimal strings, like money, so no digit is lost or invented.
    return json::object{{"value", f.value}, {"confirmed", f.confirmed}};
}

json::value optional_figure_json(std::optional<pricing::figure> const& f)
{
    return f ? figure_json(*f) : json::value(nullptr);
}

}

json::object sheet_row_json(pricing::sheet_row const& row, pricing::gpu_model const* model)
{
    json::object o;
    o["gpu"] = row.gpu;
    if (model)
        o["name"] = model->name;
    o["available"] = row.available();
    o["observations"] = row.observations;
    if (row.twice_median_micros) {
        o["median"] = decimal_string(*row.twice_median_micros * 5, 7);
        o["cap"] = decimal_string(pricing::cap_centimicros(*row.twice_median_micros), 8);
    }
    if (row.rates) {
        o["on_demand"] = to_decimal(row.rates->on_demand);
        o["spot"] = to_decimal(row.rates->spot);
        o["reserved"] = to_decimal(row.rates->reserved);
        o["headroom"] = decimal_string(pricing::cap_centimicros(*row.twice_median_micros) -
                                           row.rates->on_demand.micros() * 100, 8);
    } else {
        o["reason"] = row.unavailable_reason;
    }
    return o;
}

json::object sheet_json(pricing::price_sheet const& sheet, pricing::catalog const& catalog)
{
    json::array rows;
    for (auto const& row : sheet.rows)
        rows.push_back(sheet_row_json(row, catalog.find(row.gpu)));
    std::string const week = pricing::to_string(sheet.week);
    return {{"week", week},
            {"effective_from", pricing::to_rfc3339(sheet.effective_from)},
            {"effective_until", pricing::to_rfc3339(sheet.effective_until)},
            {"published_at", pricing::to_rfc3339(sheet.published_at)},
            {"currency", "USD"},
            {"unit", "per GPU-hour"},
            {"inputs_sha256", sheet.inputs_sha256},
            {"observations", sheet.observations},
            {"observations_url", "/v1/sheets/" + week + "/observations"},
            {"priced_models", sheet.priced_models()},
            {"prices", std::move(rows)}};
}

json::object price_json(pricing::price_sheet const& sheet, pricing::sheet_row const& row,
                        pricing::gpu_model const* model)
{
    json::object o{{"week", pricing::to_string(sheet.week)},
                   {"effective_from", pricing::to_rfc3339(sheet.effective_from)},
                   {"effective_until", pricing::to_rfc3339(sheet.effective_until)},
                   {"currency", "USD"},
                   {"unit", "per GPU-hour"}};
    for (auto& [key, value] : sheet_row_json(row, model))
        o[key] = value;
    return o;
}

json::object gpu_json(pricing::gpu_model const& m, pricing::sheet_row const* current)
{
    json::array profiles;
    for (auto const& p : m.mig_profiles)
        profiles.push_back({{"name", p.name},
                            {"memory_gb", p.memory_gb},
                            {"compute_sevenths", p.compute_slices},
                            {"max_instances", p.max_instances}});
    json::array generations;
    for (auto const& g : m.cpu_generations)
        generations.push_back(json::value(g));
    json::object o{{"id", m.id},
                   {"name", m.name},
                   {"vendor", m.vendor},
                   {"architecture", m.architecture},
                   {"form_factor", m.form_factor},
                   {"vram_gb", m.vram_gb},
                   {"memory_type", m.memory_type},
                   {"memory_bandwidth_gbs", m.memory_bandwidth_gbs},
                   {"fp16_dense_tflops", figure_json(m.fp16_dense_tflops)},
                   {"fp8_dense_tflops", optional_figure_json(m.fp8_dense_tflops)},
                   {"tdp_w", figure_json(m.tdp_w)},
                   {"nvlink_gbs", optional_figure_json(m.nvlink_gbs)},
                   {"mig", {{"max_instances", m.mig_max_instances}, {"profiles", std::move(profiles)}}},
                   {"instance_limits",
                    {{"max_gpus", m.max_gpus_per_instance},
                     {"max_vcpus", m.max_vcpus},
                     {"max_memory_gib", m.max_memory_gib},
                     {"cpu_generations", std::move(generations)}}},
                   {"source", m.source}};
    if (current) {
        json::object prices = sheet_row_json(*current, nullptr);
        prices.erase("gpu");
        o["prices"] = std::move(prices);
    }
    return o;
}

json::object catalog_json(pricing::catalog const& catalog, pricing::price_sheet const* current)
{
    json::array gpus;
    for (auto const& m : catalog.gpus)
        gpus.push_back(gpu_json(m, current ? current->find(m.id) : nullptr));
    json::object o{{"count", catalog.gpus.size()}, {"gpus", std::move(gpus)}};
    if (current)
        o["prices_week"] = pricing::to_string(current->week);
    return o;
}

json::object problem_json(int status, std::string const& title, std::string const& detail, json::object extra)
{
    json::object o{{"type", "about:blank"}, {"title", title}, {"status", status}, {"detail", detail}};
    for (auto& [key, value] : extra)
        o[key] = value;
    return o;
}

std::string to_text(json::value const& v)
{
    return json::serialize(v) + "\n";
}

}
