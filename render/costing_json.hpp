#pragma once

#include "pricing/catalog.hpp"
#include "pricing/cheapest.hpp"
#include "pricing/compare.hpp"
#include "pricing/estimate.hpp"
#include "pricing/gpu_filter.hpp"
#include "pricing/instance_check.hpp"
#include "pricing/sheet.hpp"
#include "pricing/sizing.hpp"

#include "render/language.hpp"

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <span>

// JSON of the costing tools (/v1/estimate, /v1/sizing, /v1/compare, /v1/instances/check) and of the
// catalog fields they rest on (PowerScore, MIG, instance limits, regions). Money and exact ratios
// are decimal strings. Their notes, formulas and headlines are prose, written in `lang`; members,
// numbers, money strings and unit ids are the same in every language. The catalog's parts are
// defined in catalog_json.cpp, the estimate in estimate_json.cpp, the rest in costing_json.cpp.
namespace lcg::render {

// Parts of a catalog entry (gpu_json).
boost::json::object fp16_dense_tflops_json(pricing::gpu_model const& model, language lang);  // figure + its convention
boost::json::value power_score_json(pricing::gpu_model const& model, language lang);  // null if the figure is malformed
boost::json::object interconnect_json(pricing::gpu_model const& model, language lang);
boost::json::object mig_json(pricing::gpu_model const& model, language lang);
// {"native": ["fp32", …], "source", "caveat" (or null)}: the formats its cores compute in.
boost::json::object precisions_json(pricing::gpu_model const& model);
boost::json::object node_json(pricing::gpu_model const& model, language lang);  // a node of eight (pricing::node_memory_of)
boost::json::value rack_json(pricing::gpu_model const& model, language lang);   // its NVLink rack, or null
boost::json::object instance_limits_json(pricing::gpu_model const& model, language lang);
boost::json::object regions_json(pricing::gpu_model const& model, language lang);

// The catalog listing restricted to the models `filter` matches (every model for an empty one),
// with the filters applied: the body of /v1/gpus.
boost::json::object filtered_catalog_json(pricing::catalog const& catalog, pricing::price_sheet const* current,
                                          pricing::gpu_filter const& filter, language lang);

// An estimate as JSON text, written directly: it is computed on every request, and building a
// tree first cost more than the estimate. Other formats parse it back.
std::string estimate_text(pricing::job_estimate const& estimate, pricing::gpu_model const& model,
                          pricing::price_sheet const& sheet, language lang);
boost::json::object sizing_json(pricing::sizing_result const& result, pricing::catalog const& catalog,
                                pricing::price_sheet const* sheet, language lang);
boost::json::object comparison_json(pricing::comparison const& comparison, pricing::catalog const& catalog,
                                    pricing::price_sheet const* sheet, language lang);
boost::json::object instance_check_json(pricing::instance_check const& check);
// /v1/cheapest: the cheapest configuration of `options` (cheapest first) and the next few.
boost::json::object cheapest_json(pricing::cheapest_query const& query, std::span<const pricing::configuration> options,
                                  pricing::catalog const& catalog, pricing::price_sheet const& sheet, language lang);

// A ratio of the rules as a decimal: {3, 2} is "1.5".
std::string ratio_text(pricing::rules::ratio r);

}
