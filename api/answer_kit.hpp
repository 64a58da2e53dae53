#pragma once

// What the operations of api/answers_*.cpp share: the parameters several of them take, the ways an
// answer is made, the sheet and the model a call names. Private to api/.
#include "api/operation.hpp"

#include "render/resources.hpp"

#include "pricing/catalog.hpp"
#include "pricing/rules.hpp"
#include "pricing/sheet.hpp"

#include <string>
#include <string_view>

namespace lcg::api::kit {

using vt = value_type;
namespace rules = pricing::rules;

inline constexpr std::string_view tiers[] = {"on_demand", "spot", "reserved"};
inline constexpr std::string_view precisions[] = {"fp32", "fp16", "bf16", "fp8", "int8", "int4"};

inline constexpr parameter gpu_id{"gpu", vt::string, "A catalog id such as h100-sxm (any letter case); /v1/gpus lists them", true};
inline constexpr parameter only_gpu{"gpu", vt::string, "Only this catalog id, such as h100-sxm (any letter case)"};
inline constexpr parameter vendor{"vendor", vt::string, "Only this vendor's models: NVIDIA or AMD (any letter case)"};
inline constexpr parameter architecture{"architecture", vt::string, "Only models of this architecture, such as Hopper (any letter case)"};
inline constexpr parameter min_vram_gb{"min_vram_gb", vt::number, "Only models with at least this much memory, in GB", false, {}, 0, rules::max_filter_vram_gb};
inline constexpr parameter params_b{"params_b", vt::number, "Model size in billions of parameters, such as 70 (up to 6 decimals)", false, {}, 0, rules::max_params_b, true};
inline constexpr parameter precision{"precision", vt::string, "Precision of the weights: bytes per parameter fp32 4, fp16/bf16 2, fp8/int8 1, int4 0.5", false, precisions};
// The same two, where a model must be given.
inline constexpr parameter params_b_required{"params_b", vt::number, params_b.description, true, {}, 0, rules::max_params_b, true};
inline constexpr parameter precision_required{"precision", vt::string, precision.description, true, precisions};
inline constexpr parameter tier{"tier", vt::string, "Tier (default on_demand)", false, tiers};
inline constexpr parameter week{"week", vt::string,
                                "The sheet in effect in this ISO week, such as 2026-W48, or latest (the newest published) or "
                                "current (default: the sheet in effect now)"};

// A document the snapshot pre-rendered: its kind, its name where its path has a placeholder (a
// model's id, a slug), and its query.
answer published(render::resource r, std::string_view name = {}, std::string query = {});
// A document computed for this call.
answer computed(boost::json::object doc);
failure no_sheet();

// The sheet a `week` argument names, or the one in effect (none before the first publication) when
// it is not given. A week no sheet covers is refused, naming week.
pricing::outcome<pricing::price_sheet const*, failure> sheet_asked(request& r, argument const& week_asked);
// The same, where an answer needs a sheet: none in effect is refused (no_sheet).
pricing::outcome<pricing::price_sheet const*, failure> priced_sheet(request& r, argument const& week_asked);
// Either of the two for a request parsed against the catalog (`find`: sheet_asked or priced_sheet).
// A request that did not parse is refused before its week is looked at, so that its own fault is
// the one named.
template <class T>
pricing::outcome<pricing::price_sheet const*, failure> sheet_for(pricing::parsed<T> const& parsed, request& r,
                                                                 argument const& week_asked, decltype(&sheet_asked) find)
{
    if (!parsed)
        return refused(parsed.err());
    return find(r, week_asked);
}

// The catalog model a required `gpu` argument (given: the decoder refused the call otherwise) names,
// or the refusal: 404 for a name the catalog lacks.
pricing::outcome<pricing::gpu_model const*, failure> required_gpu(request& r, argument const& gpu_asked);

}

// Each operation's parameters and answer, by the registry's name for it (api/answers_*.cpp).
namespace lcg::api::answers {

answering get_prices();
answering get_price_history();
answering get_history();
answering verify_quote();
answering get_gpu();
answering list_gpus();
answering get_inventory();
answering get_methodology();
answering compare_gpus();
answering estimate_job_cost();
answering size_model();
answering find_cheapest();
answering rent_vs_buy();
answering transfer_time();
answering check_instance();
answering explain_term();
answering search_glossary();
answering get_log_proof();

}
