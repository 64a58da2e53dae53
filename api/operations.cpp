// The registry: every operation of the service with its parameters and the one function that
// answers it. The HTTP router, the MCP tools, the schemas and the server card are built from it.
#include "api/operation.hpp"
#include "pricing/utf8.hpp"

#include "render/compact.hpp"
#include "render/costing_json.hpp"
#include "render/glossary_json.hpp"
#include "render/json.hpp"
#include "render/log_proof.hpp"
#include "render/quote.hpp"
#include "render/rent_vs_buy.hpp"
#include "render/transfer.hpp"

#include "glossary/search.hpp"
#include "glossary/text.hpp"

#include "pricing/cheapest.hpp"
#include "pricing/compare.hpp"
#include "pricing/estimate.hpp"
#include "pricing/gpu_filter.hpp"
#include "pricing/history.hpp"
#include "pricing/instance_check.hpp"
#include "pricing/inventory.hpp"
#include "pricing/price_query.hpp"
#include "pricing/quantity.hpp"
#include "pricing/quote.hpp"
#include "pricing/rent_vs_buy.hpp"
#include "pricing/rules.hpp"
#include "pricing/sizing.hpp"
#include "pricing/transfer.hpp"

#include <algorithm>
#include <array>
#include <variant>

namespace lcg::api {

namespace {

namespace rules = pricing::rules;
using vt = value_type;

answer published(std::string path, std::string query = {})
{
    answer a;
    a.published_path = std::move(path);
    a.published_query = std::move(query);
    return a;
}

answer computed(boost::json::object doc)
{
    answer a;
    a.document = std::move(doc);
    return a;
}

failure no_sheet()
{
    return {pricing::errc::unavailable, "", "no price sheet is in effect yet; try again after the next publication", {},
            "aucun tarif n’est encore en vigueur\u202F; réessayez après la prochaine publication"};
}

// ---- parameters shared by several operations ----------------------------------------------------

constexpr std::string_view tiers[] = {"on_demand", "spot", "reserved"};
constexpr std::string_view precisions[] = {"fp32", "fp16", "bf16", "fp8", "int8", "int4"};
constexpr std::string_view languages[] = {"en", "fr"};
constexpr std::string_view orders[] = {"gpu", "price", "vram"};

constexpr parameter gpu_id{"gpu", vt::string, "A catalog id such as h100-sxm (any letter case); /v1/gpus lists them", true};
constexpr parameter only_gpu{"gpu", vt::string, "Only this catalog id, such as h100-sxm (any letter case)"};
constexpr parameter vendor{"vendor", vt::string, "Only this vendor's models: NVIDIA or AMD (any letter case)"};
constexpr parameter architecture{"architecture", vt::string, "Only models of this architecture, such as Hopper (any letter case)"};
constexpr parameter min_vram_gb{"min_vram_gb", vt::number, "Only models with at least this much memory, in GB", false, {}, 0, rules::max_filter_vram_gb};
constexpr parameter lang{"lang", vt::string, "Language of the answer (default: Accept-Language over HTTP, English over MCP)", false, languages};
constexpr parameter params_b{"params_b", vt::number, "Model size in billions of parameters, such as 70 (up to 6 decimals)", false, {}, 0, rules::max_params_b, true};
constexpr parameter precision{"precision", vt::string, "Precision of the weights: bytes per parameter fp32 4, fp16/bf16 2, fp8/int8 1, int4 0.5", false, precisions};
// The same two, where a model must be given.
constexpr parameter params_b_required{"params_b", vt::number, params_b.description, true, {}, 0, rules::max_params_b, true};
constexpr parameter precision_required{"precision", vt::string, precision.description, true, precisions};
constexpr parameter tier{"tier", vt::string, "Tier (default on_demand)", false, tiers};
constexpr parameter week{"week", vt::string,
                         "The sheet in effect in this ISO week, such as 2026-W48, or latest (the newest published) or "
                         "current (default: the sheet in effect now)"};

std::optional<std::string> take(request& r, std::string_view name) { return r.args.take(name); }

// The sheet an operation answers at: the one its `week` argument names, or the one in effect (none
// before the first publication) when it has none. A week no sheet covers is refused, naming week.
std::variant<pricing::price_sheet const*, failure> sheet_asked(request& r)
{
    auto const text = take(r, "week");
    if (!text)
        return r.data.current_sheet();
    auto const named = pricing::sheet_for_week(*text, r.data.sheets(), r.data.current_sheet());
    if (!named)
        return refused(named.err(), "week");
    return *named;
}

// ---- the price sheet and the catalog -------------------------------------------------------------

// A list's compact form (render/compact.hpp): a table of the members asked, the id first.
constexpr parameter fields{"fields", vt::string_list,
                           "Only these members of each model, as a table (columns, rows): fewer tokens for a long list, "
                           "such as name,on_demand,spot; the id comes first",
                           false, {}, {}, {}, false, 1, 20};

// `doc` in its compact form when `fields` was given, or the refusal of a member items do not give.
std::optional<failure> compact_if_asked(request& r, boost::json::object& doc, std::string_view list, std::string_view key)
{
    auto const asked = take(r, "fields");
    if (!asked)
        return std::nullopt;
    auto const accepted = render::compact_fields(doc, list);
    std::vector<std::string> names;
    if (asked->empty())
        return refused(pricing::invalid("fields: at least one member is required", "fields\u202F: il faut au moins un membre"),
                       "fields");
    for (std::string_view rest = *asked; !rest.empty();) {
        auto const comma = rest.find(',');
        std::string const name(rest.substr(0, comma));
        if (std::find(accepted.begin(), accepted.end(), name) == accepted.end()) {
            std::string all;
            for (auto const& a : accepted)
                all += (all.empty() ? "" : ", ") + a;
            return refused(pricing::invalid("fields: " + pricing::quote(name) + " is not a member of a model; accepted: " + all,
                                            "fields\u202F: " + pricing::quote(name) +
                                                " n’est pas un membre d’un modèle\u202F; acceptés\u202F: " + all),
                           "fields");
        }
        names.push_back(name);
        rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    }
    render::make_compact(doc, list, key, names);
    return std::nullopt;
}

constexpr parameter prices_parameters[] = {
    only_gpu, vendor, architecture, min_vram_gb,
    {"max_price", vt::number, "Only models whose rate in `tier` is at most this, USD per GPU-hour", false, {}, 0,
     rules::max_observed_price.micros() / 1'000'000},
    {"tier", vt::string, "The tier that max_price and sort=price look at (default on_demand)", false, tiers},
    {"sort", vt::string, "gpu (default, catalog order), price (cheapest first) or vram (most memory first)", false, orders},
    week, fields, lang};

result get_prices(request& r)
{
    // The sheet as published, the most frequent call of all, is answered without parsing a query.
    if (r.args.empty())
        return r.data.current_sheet() ? result(published("/v1/prices")) : result(no_sheet());
    auto const& cat = r.data.catalog();
    auto const query = pricing::parse_price_query({take(r, "gpu"), take(r, "vendor"), take(r, "architecture"),
                                                   take(r, "min_vram_gb"), take(r, "max_price"), take(r, "tier"),
                                                   take(r, "sort")}, cat);
    if (!query)
        return refused(query.err());
    auto const asked = sheet_asked(r);
    if (auto const* f = std::get_if<failure>(&asked))
        return *f;
    auto const* sheet = std::get<0>(asked);
    if (!sheet)
        return no_sheet();
    if (query->empty() && sheet == r.data.current_sheet() && !r.args.has("fields"))
        return published("/v1/prices");
    auto doc = render::sheet_json(*sheet, cat, pricing::select_prices(*query, *sheet, cat), r.lang,
                                  r.data.publication(sheet->week));
    if (auto refusal = compact_if_asked(r, doc, "prices", "gpu"))
        return *refusal;
    return computed(std::move(doc));
}

constexpr parameter gpu_parameters[] = {gpu_id, lang};

// The catalog model a required `gpu` argument names, or the refusal: 404 for a name the catalog lacks.
std::variant<pricing::gpu_model const*, failure> required_gpu(request& r)
{
    auto const id = take(r, "gpu");
    if (!id)
        return refused(pricing::required_gpu_parameter(std::nullopt, r.data.catalog()).err());
    auto const model = pricing::find_gpu_parameter("gpu", *id, r.data.catalog());
    if (!model) {
        auto f = refused(model.err());
        f.code = pricing::errc::not_found;  // a well-formed name that the catalog lacks
        return f;
    }
    return *model;
}

result get_gpu(request& r)
{
    auto const model = required_gpu(r);
    if (auto const* f = std::get_if<failure>(&model))
        return *f;
    return published("/v1/gpus/" + std::get<0>(model)->id);
}

constexpr parameter catalog_parameters[] = {
    vendor, architecture, min_vram_gb,
    {"mig", vt::boolean, "Only models with (true) or without (false) Multi-Instance GPU"},
    {"nvlink", vt::boolean, "Only NVIDIA models with (true) or without (false) NVLink"}, fields, lang};

result list_gpus(request& r)
{
    auto const& cat = r.data.catalog();
    auto const filter = pricing::parse_gpu_filter(
        {take(r, "vendor"), take(r, "architecture"), take(r, "min_vram_gb"), take(r, "mig"), take(r, "nvlink")}, cat);
    if (!filter)
        return refused(filter.err());
    if (filter->empty() && !r.args.has("fields"))
        return published("/v1/gpus");
    auto doc = render::filtered_catalog_json(cat, r.data.current_sheet(), *filter, r.lang);
    if (auto refusal = compact_if_asked(r, doc, "gpus", "id"))
        return *refusal;
    return computed(std::move(doc));
}

constexpr parameter inventory_parameters[] = {
    only_gpu,
    {"region", vt::string, "Only this region code, such as eu-paris-2 (/v1/regions lists them)"}, lang};

result get_inventory(request& r)
{
    auto const& cat = r.data.catalog();
    auto const query = pricing::parse_inventory_query(take(r, "gpu"), take(r, "region"), cat);
    if (!query)
        return refused(query.err());
    if (query->empty())
        return published("/v1/inventory");
    return computed(render::inventory_json(cat, *query, r.lang));
}

result get_methodology(request&) { return published("/v1/methodology"); }

// ---- costing ------------------------------------------------------------------------------------

constexpr parameter compare_parameters[] = {
    {"gpus", vt::string_list, "2 to 8 distinct catalog ids (over HTTP separated by commas: l40s,h100-sxm)", true, {},
     std::nullopt, std::nullopt, false, 2, rules::max_compared_gpus}, week, lang};

result compare_gpus(request& r)
{
    auto const& cat = r.data.catalog();
    auto const form = r.args.from() == arguments::face::mcp ? pricing::list_form::array : pricing::list_form::commas;
    auto const ids = pricing::parse_gpu_list("gpus", take(r, "gpus"), cat, form);
    if (!ids)
        return refused(ids.err());
    auto const asked = sheet_asked(r);
    if (auto const* f = std::get_if<failure>(&asked))
        return *f;
    auto const* sheet = std::get<0>(asked);
    auto const comparison = pricing::compare_gpus(*ids, cat, sheet);
    if (!comparison)
        return refused(comparison.err(), "gpus");
    return computed(render::comparison_json(*comparison, cat, sheet, r.lang));
}

constexpr parameter estimate_parameters[] = {
    gpu_id,
    {"gpus", vt::integer, "GPUs (default 1); past the model's limit per instance, priced as several instances", false, {}, 1, rules::max_requested_gpus},
    {"seconds", vt::integer, "Duration in whole seconds (give seconds or hours)", false, {}, 1, std::int64_t{rules::max_job_hours} * rules::seconds_per_hour},
    {"hours", vt::number, "Duration in hours, up to 6 decimals (give seconds or hours)", false, {}, 0, rules::max_job_hours, true},
    tier,
    {"storage_gb", vt::number, "Volume size in GB", false, {}, 0, rules::max_storage_gb},
    {"storage_hours", vt::number, "How long the volume is kept, in hours (default: the job's duration); needs storage_gb", false, {}, 0, rules::max_job_hours, true},
    {"egress_gb", vt::number, "GB sent out", false, {}, 0, rules::max_network_gb},
    {"ingress_gb", vt::number, "GB received", false, {}, 0, rules::max_network_gb},
    {"tokens_per_second", vt::number, "Your measured throughput, for the cost per million tokens", false, {}, 0, rules::max_tokens_per_second, true},
    {"images_per_hour", vt::number, "Your measured throughput, for the cost per image", false, {}, 0, rules::max_images_per_hour, true},
    week, lang};

result estimate_job_cost(request& r)
{
    auto const& cat = r.data.catalog();
    pricing::estimate_parameters const params{
        take(r, "gpu"),        take(r, "gpus"),       take(r, "seconds"),    take(r, "hours"),
        take(r, "tier"),       take(r, "storage_gb"), take(r, "storage_hours"), take(r, "egress_gb"),
        take(r, "ingress_gb"), take(r, "tokens_per_second"), take(r, "images_per_hour")};
    auto const job = pricing::parse_job(params, cat);
    if (!job)
        return refused(job.err());
    auto const asked = sheet_asked(r);
    if (auto const* f = std::get_if<failure>(&asked))
        return *f;
    auto const* sheet = std::get<0>(asked);
    if (!sheet)
        return no_sheet();
    auto const estimate = pricing::estimate_job(*job, sheet->find(job->gpu));
    if (!estimate)
        return refused(estimate.err(), "gpu");
    answer a;
    a.json_text = render::estimate_text(*estimate, *cat.find(job->gpu), *sheet, r.lang);
    return a;
}

constexpr parameter sizing_parameters[] = {
    params_b_required, precision_required, only_gpu, week, lang};

result size_model(request& r)
{
    auto const& cat = r.data.catalog();
    auto const spec = pricing::parse_model_spec({take(r, "params_b"), take(r, "precision"), take(r, "gpu")}, cat);
    if (!spec)
        return refused(spec.err());
    auto const asked = sheet_asked(r);
    if (auto const* f = std::get_if<failure>(&asked))
        return *f;
    auto const* sheet = std::get<0>(asked);
    return computed(render::sizing_json(pricing::size_model(*spec, cat, sheet), cat, sheet, r.lang));
}

constexpr parameter cheapest_parameters[] = {
    params_b, precision,
    {"vram_gb", vt::number, "Memory needed in GB, instead of params_b and precision", false, {}, 0, rules::max_needed_vram_gb, true},
    {"hours", vt::number, "Duration in hours (default 1, up to 6 decimals)", false, {}, 0, rules::max_job_hours, true},
    tier, week, lang};

result find_cheapest(request& r)
{
    auto const& cat = r.data.catalog();
    auto const query = pricing::parse_cheapest_query(
        {take(r, "params_b"), take(r, "precision"), take(r, "vram_gb"), take(r, "hours"), take(r, "tier")}, cat);
    if (!query)
        return refused(query.err());
    auto const asked = sheet_asked(r);
    if (auto const* f = std::get_if<failure>(&asked))
        return *f;
    auto const* sheet = std::get<0>(asked);
    if (!sheet)
        return no_sheet();
    return computed(render::cheapest_json(*query, pricing::cheapest_configurations(*query, cat, *sheet), cat, *sheet, r.lang));
}

constexpr parameter instance_parameters[] = {
    gpu_id,
    {"gpus", vt::integer, "GPUs in the instance (default 1)", false, {}, 1, rules::max_requested_gpus},
    {"vcpus", vt::integer, "vCPUs of the instance", true, {}, 1, rules::max_requested_vcpus},
    {"memory_gib", vt::integer, "Memory of the instance in GiB", true, {}, 1, rules::max_requested_memory_gib},
    {"cpu_generation", vt::string, "Processor generation: v followed by a number, such as v7", true},
    {"region", vt::string, "A region code (optional; some regions allow more CPU generations)"},
    {"other_gpu", vt::string, "Another catalog model wanted on the same instance (its GPUs must all be of one model)"},
    {"cpu_performance", vt::boolean,
     "Whether the instance has the processor performance flag, which a GPU needs (default true); \"highest\", the "
     "cloud document's word, is true",
     false, {}, {}, {}, false, 0, 0, pricing::cpu_performance_words},
    {"dedicated_vm", vt::boolean, "Whether the instance is a dedicated VM, which takes no GPU (default false)"},
    lang};

result check_instance(request& r)
{
    auto const& cat = r.data.catalog();
    auto const wanted = pricing::parse_instance_request({take(r, "gpu"), take(r, "gpus"), take(r, "vcpus"),
                                                         take(r, "memory_gib"), take(r, "cpu_generation"),
                                                         take(r, "region"), take(r, "other_gpu"),
                                                         take(r, "cpu_performance"), take(r, "dedicated_vm")}, cat);
    if (!wanted)
        return refused(wanted.err());
    return computed(render::instance_check_json(pricing::check_instance(*wanted, *cat.find(wanted->gpu))));
}

// ---- the glossary -------------------------------------------------------------------------------

std::string lang_query(glossary::language l) { return "?lang=" + std::string(glossary::to_string(l)); }

failure glossary_unavailable(data_view const& data)
{
    return {pricing::errc::unavailable, "", "the glossary is unavailable: " + std::string(data.glossary_problem()), {},
            "le glossaire est indisponible\u202F: " + std::string(data.glossary_problem())};
}

// No entry is named so: the terms whose text mentions the words come first among the suggestions,
// then the slugs closest in spelling.
failure no_glossary_entry(glossary::document const& doc, std::string const& term)
{
    std::vector<std::string> suggestions;
    for (auto const& hit : glossary::search(doc, term))
        if (suggestions.size() < rules::glossary_suggestions)
            suggestions.push_back(hit.term->slug);
    for (auto& s : glossary::suggest(doc, term, rules::glossary_suggestions))  // suggest() reads it as a slug
        if (suggestions.size() < rules::glossary_suggestions && std::find(suggestions.begin(), suggestions.end(), s) == suggestions.end())
            suggestions.push_back(std::move(s));
    std::string closest;
    for (auto const& s : suggestions)
        closest += (closest.empty() ? "" : ", ") + s;
    std::string const asked = pricing::quote(pricing::utf8_prefix(term, 80));
    return failure{pricing::errc::not_found, "term",
                   "term: no glossary entry is named " + asked +
                       (closest.empty() ? std::string() : "; closest: " + closest) +
                       "; accepted: a slug, or a term's name or alias in English or French (/v1/glossary lists them)",
                   std::move(suggestions),
                   "term\u202F: aucune entrée du glossaire ne s’appelle " + asked +
                       (closest.empty() ? std::string() : "\u202F; les plus proches\u202F: " + closest) +
                       "\u202F; accepté\u202F: un identifiant, ou le nom ou un alias d’un terme en anglais ou en français "
                       "(/v1/glossary les donne)"};
}

constexpr parameter term_parameters[] = {
    {"term", vt::string,
     "A slug (gpu-hour), a term's name or alias in English or French (Clé API, cle api, spot), or the first words of "
     "one (a loose match, which the answer marks with match)",
     true},
    lang};

result explain_term(request& r)
{
    auto const term = take(r, "term");
    auto const language = r.lang;
    if (!term || glossary::words(*term).empty())
        return invalid_parameter("term",
                                 "term: required; accepted: a glossary slug (gpu-hour), a term's name in English or "
                                 "French (accents optional) or words to search for",
                                 "term\u202F: obligatoire\u202F; accepté\u202F: un identifiant du glossaire (gpu-hour), le nom d’un "
                                 "terme en anglais ou en français (accents facultatifs) ou des mots à chercher");
    if (term->size() > rules::max_glossary_query_bytes)
        return invalid_parameter("term",
                                 "term: longer than " + std::to_string(rules::max_glossary_query_bytes) +
                                     " bytes; accepted: a slug, a name or a few words",
                                 "term\u202F: plus long que " + std::to_string(rules::max_glossary_query_bytes) +
                                     " octets\u202F; accepté\u202F: un identifiant, un nom ou quelques mots");
    auto const* doc = r.data.glossary(language);
    if (!doc)
        return glossary_unavailable(r.data);
    auto const other = language == glossary::language::en ? glossary::language::fr : glossary::language::en;
    auto const found = glossary::lookup(*doc, *term, r.data.glossary(other));
    if (!found)
        return no_glossary_entry(*doc, *term);
    if (found->how == glossary::naming::exact) {
        auto a = published("/v1/glossary/" + found->slug, lang_query(language));
        a.lang = language;
        return a;
    }
    // A loose match answers, and says so: the words asked only start those of the term's name.
    auto const* sheet = r.data.current_sheet();
    if (!sheet)
        return glossary_unavailable(r.data);
    auto entry = render::glossary_entry_json(render::glossary_term_json(doc->find_term(found->slug)), language, *sheet);
    entry["match"] = {{"asked", std::string(pricing::utf8_prefix(*term, rules::max_glossary_query_bytes))}, {"how", "loose"}};
    answer a;
    a.document = std::move(entry);
    a.lang = language;
    return a;
}

constexpr parameter glossary_parameters[] = {
    {"q", vt::string, "Words to search for in the terms' names, aliases and definitions (case and accents ignored)"},
    {"category", vt::string, "Only the terms of this category slug"},
    lang};

result search_glossary(request& r)
{
    auto const q = take(r, "q");
    auto const category = take(r, "category");
    auto const language = r.lang;
    if (q && glossary::words(*q).empty())
        return invalid_parameter("q", "q: needs at least one letter or digit to search for",
                                 "q\u202F: il faut au moins une lettre ou un chiffre à chercher");
    if (q && q->size() > rules::max_glossary_query_bytes)
        return invalid_parameter("q", "q: longer than " + std::to_string(rules::max_glossary_query_bytes) + " bytes",
                                 "q\u202F: plus long que " + std::to_string(rules::max_glossary_query_bytes) + " octets");
    auto const* doc = r.data.glossary(language);
    auto const* sheet = r.data.current_sheet();
    if (!doc || !sheet)
        return glossary_unavailable(r.data);
    glossary::category const* only = nullptr;
    if (category) {
        only = doc->find_category(*category);
        if (!only) {
            std::string slugs;
            for (auto const& c : doc->categories)
                slugs += (slugs.empty() ? "" : ", ") + c.slug;
            return invalid_parameter("category",
                                     "category: " + pricing::quote(*category) +
                                         " is not a glossary category; accepted: " + slugs,
                                     "category\u202F: " + pricing::quote(*category) +
                                         " n’est pas une catégorie du glossaire\u202F; accepté\u202F: " + slugs);
        }
    }
    if (!only && !q) {
        auto a = published("/v1/glossary", lang_query(language));
        a.lang = language;
        return a;
    }
    std::vector<glossary::term_ref> terms = q ? glossary::search(*doc, *q) : doc->terms();
    if (only)
        std::erase_if(terms, [&](glossary::term_ref const& t) { return t.cat != only; });
    // A search covers the questions too; a category holds terms only.
    std::optional<std::vector<glossary::entry const*>> questions;
    if (q && !only)
        questions = glossary::search_questions(*doc, *q);
    auto body = render::glossary_json(*doc, language, terms, questions, *sheet);
    if (category)
        body["category"] = *category;
    if (q)
        body["q"] = *q;
    auto a = computed(std::move(body));
    a.lang = language;
    return a;
}

// ---- history ------------------------------------------------------------------------------------

constexpr parameter history_parameters[] = {gpu_id, lang};

result get_price_history(request& r)
{
    auto const model = required_gpu(r);
    if (auto const* f = std::get_if<failure>(&model))
        return *f;
    if (r.data.sheets().empty())
        return no_sheet();
    return published("/v1/prices/" + std::get<0>(model)->id + "/history");
}

constexpr parameter history_table_parameters[] = {
    {"tier", vt::string, "The rate the table shows (default on_demand)", false, tiers}, lang};

result get_history(request& r)
{
    auto const parsed = pricing::tier_parameter(take(r, "tier"));
    if (!parsed)
        return refused(parsed.err());
    if (r.data.sheets().empty())
        return no_sheet();
    return published("/v1/history", *parsed == pricing::tier::on_demand ? "" : "?tier=" + std::string(to_string(*parsed)));
}

constexpr parameter quote_parameters[] = {
    gpu_id, tier,
    {"price", vt::number, "The quoted rate, USD per GPU-hour (up to 6 decimals), such as 0.84", true, {}, 0,
     rules::max_observed_price.micros() / 1'000'000},
    week, lang};

result verify_quote(request& r)
{
    auto const q = pricing::parse_quote({take(r, "gpu"), take(r, "tier"), take(r, "price"), take(r, "week")},
                                        r.data.catalog(), r.data.sheets(), r.data.current_sheet());
    if (!q)
        return refused(q.err());
    return computed(render::quote_check_json(pricing::check_quote(*q), r.lang));
}

constexpr parameter transfer_parameters[] = {
    {"gb", vt::number, "The amount of data moved, in GB (default 10, the lesson's example; up to 6 decimals)", false, {}, 0,
     rules::max_transfer_gb, true},
    lang};

result transfer_time(request& r)
{
    auto const micro_gb = pricing::parse_transfer({take(r, "gb")});
    if (!micro_gb)
        return refused(micro_gb.err());
    auto const times = pricing::transfer_times(*micro_gb);
    return computed(render::transfer_json(*micro_gb, times, r.lang));
}

// ---- the publication log ------------------------------------------------------------------------

// A log of a publication a week for ages stays far below this; the bound keeps a size from overflowing.
constexpr std::int64_t max_log_index = std::int64_t{1} << 40;

constexpr parameter log_proof_parameters[] = {
    {"index", vt::integer, "An entry of the log, from 0: prove it is among the first `size` entries", false, {}, 0,
     max_log_index},
    {"from", vt::integer, "An earlier size of the log: prove that the log of `size` entries extends it", false, {}, 1,
     max_log_index},
    {"size", vt::integer, "The size of the log the proof is against (default: its size now, the newest checkpoint's)",
     false, {}, 1, max_log_index},
    lang};

// A whole number argument within the parameter's bounds, if given; over HTTP it arrives as text.
std::variant<std::optional<std::uint64_t>, failure> count_argument(request& r, parameter const& p)
{
    auto const text = take(r, p.name);
    if (!text)
        return std::optional<std::uint64_t>();
    auto const count = pricing::parse_count(p.name, *text, p.minimum.value_or(0), p.maximum.value_or(max_log_index));
    if (!count)
        return refused(count.err(), std::string(p.name));
    return std::optional<std::uint64_t>(static_cast<std::uint64_t>(*count));
}

result get_log_proof(request& r)
{
    auto const* log = r.data.log();
    auto const index_arg = count_argument(r, log_proof_parameters[0]);
    auto const from_arg = count_argument(r, log_proof_parameters[1]);
    auto const size_arg = count_argument(r, log_proof_parameters[2]);
    for (auto const* a : {&index_arg, &from_arg, &size_arg})
        if (auto const* f = std::get_if<failure>(a))
            return *f;
    auto const index = std::get<0>(index_arg), from = std::get<0>(from_arg);
    auto const size = std::get<0>(size_arg).value_or(log ? log->size() : 0);
    if (!log || log->size() == 0 || log->origin().empty())
        return failure{pricing::errc::unavailable, "", "the publication log has no signed checkpoint yet", {},
                       "le journal des publications n’a pas encore de point de contrôle signé"};
    if (index && from)
        return refused(pricing::invalid("index or from, not both: index asks an inclusion proof, from a consistency proof",
                                        "index ou from, pas les deux\u202F: index demande une preuve d’inclusion, from une "
                                        "preuve de cohérence"),
                       "from");
    if (!index && !from)
        return refused(pricing::invalid("index or from is required: index for an inclusion proof, from for a consistency proof",
                                        "index ou from est requis\u202F: index pour une preuve d’inclusion, from pour une "
                                        "preuve de cohérence"),
                       "index");
    std::string const entries = std::to_string(size);
    if (size > log->size())
        return refused(pricing::invalid("size is more than the log's " + std::to_string(log->size()) + " entries",
                                        "size dépasse les " + std::to_string(log->size()) + " entrées du journal"),
                       "size");
    if (index && *index >= size)
        return refused(pricing::invalid("index is more than the last entry of a log of " + entries + " (entries count from 0)",
                                        "index dépasse la dernière entrée d’un journal de " + entries +
                                            " (les entrées se comptent à partir de 0)"),
                       "index");
    if (from && *from > size)
        return refused(pricing::invalid("from is more than size (" + entries + ")",
                                        "from dépasse size (" + entries + ")"),
                       "from");
    render::log_proof p;
    p.origin = log->origin();
    p.size = size;
    p.root_hash = log->root_hash(size);
    if (index) {
        p.index = index;
        p.entry = log->entry(*index);
        p.leaf_hash = log->leaf_hash(*index);
        p.proof = log->inclusion_proof(*index, size);
    } else {
        p.from = from;
        p.from_root_hash = log->root_hash(*from);
        p.proof = log->consistency_proof(*from, size);
    }
    return computed(render::log_proof_json(p, r.lang));
}

constexpr parameter rent_vs_buy_parameters[] = {
    gpu_id,
    {"gpus", vt::integer, "GPUs rented, or bought (default 1)", false, {}, 1, rules::max_requested_gpus},
    tier, week,
    {"purchase_price", vt::number, "What buying those GPUs costs, in USD (the whole machine, if you buy one)", true, {},
     0, rules::max_purchase_price.micros() / 1'000'000},
    {"power_watts", vt::integer, "The machine's power draw while it works, in whole watts", true, {}, 0,
     rules::max_power_watts},
    {"electricity_price", vt::number, "Electricity price, USD per kWh (up to 6 decimals)", true, {}, 0,
     rules::max_electricity_price.micros() / 1'000'000},
    {"hosting_per_month", vt::number,
     "Hosting per month in USD: space, cooling, network, upkeep, and the draw while idle", true, {}, 0,
     rules::max_hosting_per_month.micros() / 1'000'000},
    {"utilisation", vt::number, "Percentage of the horizon's hours the GPUs work, 0 to 100 (up to 2 decimals)", true,
     {}, 0, 100},
    {"months", vt::integer, "The horizon in whole months, 1 to 120", true, {}, 1, rules::max_horizon_months},
    lang};

result rent_vs_buy(request& r)
{
    auto const q = pricing::parse_rent_vs_buy(
        {take(r, "gpu"), take(r, "gpus"), take(r, "tier"), take(r, "week"), take(r, "purchase_price"),
         take(r, "power_watts"), take(r, "electricity_price"), take(r, "hosting_per_month"), take(r, "utilisation"),
         take(r, "months")},
        r.data.catalog(), r.data.sheets(), r.data.current_sheet());
    if (!q)
        return refused(q.err());
    auto const answer = pricing::compare_rent_vs_buy(*q);
    if (!answer)
        return refused(answer.err(), "gpu");
    return computed(render::rent_vs_buy_json(*answer, r.lang));
}

// ---- the table ----------------------------------------------------------------------------------

constexpr parameter methodology_parameters[] = {lang};

auto const registry = std::to_array<operation>({
    {"get_prices", "/v1/prices", "GPU prices this week",
     "The price sheet in effect: per-GPU hourly rates (on-demand, spot, reserved) of every GPU model, with the market "
     "median each is capped by. On-demand is at most 70 % of the public market median; spot is 50 % and reserved "
     "(3-month term) 65 % of on-demand. Filter by gpu, vendor, architecture, min_vram_gb or max_price; sort by gpu, "
     "price or vram; week gives the sheet that was in effect in an earlier week.",
     prices_parameters, get_prices, &render::sheet_view, "sheet", "vendor=amd&tier=spot&sort=price"},
    {"get_price_history", "/v1/prices/{gpu}/history", "Price history of a GPU model",
     "Every published week of one GPU model, oldest first: observation count, market median, cap, on-demand, spot "
     "and reserved rates (each the figure of that week's sheet), the change of each rate from the week before, and "
     "the weeks it was not priced with the reason.",
     history_parameters, get_price_history, &render::price_history_view, "price_history", "gpu=h100-sxm"},
    {"get_history", "/v1/history", "Price history of every model",
     "One rate (on-demand by default) of every GPU model in every published week, weeks oldest first; null where a "
     "model was not priced. Its CSV is a wide table, a row per week and a column per model.",
     history_table_parameters, get_history, &render::history_table_view, "history_table", "tier=spot"},
    {"verify_quote", "/v1/quotes/verify", "Check a quoted price",
     "Whether a rate someone quoted for a GPU model and tier is the one LowCostGPU published for that week (week: "
     "the sheet then in effect, default now): the published figure, the verdict (published, above, below or "
     "not_priced), the difference, and the sheet's signature (key id, signature and signed bytes) to check it "
     "offline.",
     quote_parameters, verify_quote, &render::quote_check_view, "quote_check", "gpu=h100-sxm&tier=spot&price=0.84"},
    {"get_gpu", "/v1/gpus/{gpu}", "One GPU model",
     "A GPU model of the catalog: memory, bandwidth, dense FP16 TFLOPS and PowerScore (RTX 3090 = 100), FP8, TDP, "
     "interconnect, MIG profiles, instance limits (GPUs, vCPUs, memory, CPU generations), regions and this week's "
     "prices.",
     gpu_parameters, get_gpu, &render::gpu_view, "gpu", "gpu=h100-sxm"},
    {"list_gpus", "/v1/gpus", "GPU catalog",
     "Every GPU model of the catalog with its specifications and this week's prices; filter by vendor, architecture, "
     "min_vram_gb, mig or nvlink.",
     catalog_parameters, list_gpus, &render::catalog_view, "catalog", "vendor=nvidia&min_vram_gb=80&mig=true"},
    {"compare_gpus", "/v1/compare", "Compare GPU models",
     "Side by side, 2 to 8 catalog models: memory, bandwidth, PowerScore, this week's rates, price per 100 PowerScore "
     "and per GB of VRAM, and the winners of each criterion (compared exactly); week gives the rates of the sheet in "
     "effect in an earlier week.",
     compare_parameters, compare_gpus, &render::comparison_view, "comparison", "gpus=h100-sxm,a100-80gb-sxm,mi300x", true},
    {"estimate_job_cost", "/v1/estimate", "Cost of a job",
     "Exact cost of a GPU job at this week's rates, billed per second: GPU time, storage ($0.08 per GB-month of 730 "
     "h) and network ($0.01 per GB), the same job in every tier, and what the reserved 3-month commitment would "
     "cost. Give gpu and exactly one of seconds or hours; week gives the rates of the sheet in effect in an earlier "
     "week.",
     estimate_parameters, estimate_job_cost, &render::estimate_view, "estimate", "gpu=h100-sxm&gpus=2&hours=10&tier=spot&storage_gb=500&egress_gb=50&tokens_per_second=1500", true},
    {"size_model", "/v1/sizing", "GPUs a model needs",
     "How many GPUs of each catalog model hold a model: memory = parameters × bytes per parameter × 1.5, GPUs "
     "= ceil(memory / VRAM), in the practical count tensor parallelism shards over (1, 2, 4 or 8, then whole "
     "nodes; a smaller count is priced apart, marked as one that may not shard); whether each GPU computes in "
     "the precision natively (an emulated one is marked, with its cost, and never ranked first); the smallest "
     "MIG slice that fits; the hourly cost per tier; the fabric between nodes; the cheapest configuration per "
     "tier; week gives the rates of the sheet in effect in an earlier week.",
     sizing_parameters, size_model, &render::sizing_view, "sizing", "params_b=70&precision=int8", true},
    {"find_cheapest", "/v1/cheapest", "Cheapest configuration that fits",
     "The cheapest configuration that holds a model (params_b and precision) or a memory need (vram_gb), in a "
     "tier: the practical count (1, 2, 4 or 8 GPUs of one model, then whole nodes), GPUs that run the "
     "precision natively first, one instance before several, with its exact GPU-time cost for a duration "
     "(hours, default 1), the fabric between nodes where it spans several, and the next cheapest alternatives; "
     "week gives the rates of the sheet in effect in an earlier week.",
     cheapest_parameters, find_cheapest, &render::cheapest_view, "cheapest", "params_b=70&precision=fp8&hours=10", true},
    {"rent_vs_buy", "/v1/rent-vs-buy", "Rent or buy?",
     "Renting GPUs here against buying them, over a horizon and a utilisation you give: the rent at the week's "
     "published rate, what owning costs (purchase, hosting, electricity while the GPUs work), which is cheaper and by "
     "how much, and the break-even: after how many months owning costs less at that utilisation, and above which "
     "utilisation it does over the horizon. Every figure of ownership is yours; none is assumed, computed exactly.",
     rent_vs_buy_parameters, rent_vs_buy, &render::rent_vs_buy_view, "rent_vs_buy",
     "gpu=h100-sxm&gpus=8&purchase_price=250000&power_watts=10200&electricity_price=0.12&hosting_per_month=1500&utilisation=60&months=36",
     true},
    {"transfer_time", "/v1/transfer", "Time to move data between GPUs",
     "How long moving an amount of data (gb, default 10) takes over each link between GPUs (NVLink of Blackwell "
     "and Hopper within a node, one InfiniBand or Ethernet card between nodes), with each rate in GB/s (Gb/s "
     "divided by 8) and how many times slower each link is than Hopper's NVLink, computed exactly.",
     transfer_parameters, transfer_time, &render::transfer_view, "transfer", "gb=10"},
    {"check_instance", "/v1/instances/check", "Does a GPU fit this instance?",
     "Whether a GPU model attaches to an instance of a given shape: GPUs per instance, vCPUs, memory and CPU "
     "generation against the model's limits (in a region, when given), and the attachment rules: one GPU model per "
     "instance, the processor performance flag, no dedicated VM. Answers ok, or vm-specs-mismatch with every broken "
     "limit.",
     instance_parameters, check_instance, &render::instance_check_view, "instance_check", "gpu=a100-80gb-sxm&gpus=8&vcpus=256&memory_gib=2048&cpu_generation=v7&region=eu-paris-1", true},
    {"get_inventory", "/v1/inventory", "GPUs available now",
     "How many GPUs of each model are free in each region (sample figures, not a live fleet), and the largest "
     "instance each region can start; filter by gpu and region.",
     inventory_parameters, get_inventory, &render::inventory_view, "inventory", "gpu=h100-sxm&region=eu-paris-1"},
    {"explain_term", "/v1/glossary/{term}", "Explain a term",
     "A term or question of the LowCostGPU glossary (English or French, with this week's figures): by slug, by name "
     "or alias in either language (case and accents ignored), or by the first words of a name (a loose match, "
     "which the answer marks with match).",
     term_parameters, explain_term, &render::glossary_entry_view, "glossary_entry", "term=spot&lang=fr"},
    {"search_glossary", "/v1/glossary", "Glossary",
     "The glossary's terms (with this week's figures) in English or French: all of them with the three questions, "
     "or those of a category, or the terms and questions matching words (q).",
     glossary_parameters, search_glossary, &render::glossary_view, "glossary", "q=reserved&lang=en"},
    {"get_log_proof", "/v1/log/proof", "Prove the publication log",
     "A proof, in RFC 6962's hashing, over the append-only log of every publication, correction and re-signing of a "
     "sheet: with index, that the entry is in the log of size entries (an audit path); with from, that the log of "
     "size entries extends its first from entries (a consistency proof). Compare the root with a checkpoint of that "
     "size (/v1/log/checkpoint); /v1/log lists the entries.",
     log_proof_parameters, get_log_proof, &render::log_proof_view, "log_proof", "index=1&size=2"},
    {"get_methodology", "/v1/methodology", "How prices are set",
     "The published pricing rules: the market median, on-demand at most 70 % of it, spot and reserved shares, "
     "rounding, the observation window, per-second billing, storage and network rates, account terms, PowerScore, "
     "sizing and how to audit.",
     methodology_parameters, get_methodology, &render::methodology_view, "methodology", ""},
});

}

std::span<const operation> operations() { return registry; }

std::variant<glossary::language, failure> language_of(std::optional<std::string> const& text,
                                                      glossary::language preferred)
{
    if (!text)
        return preferred;
    if (auto const parsed = glossary::parse_language(*text))
        return *parsed;
    return invalid_parameter("lang",
                             "lang: " + pricing::quote(*text) + " is not a language of this service; accepted: en, fr",
                             "lang\u202F: " + pricing::quote(*text) + " n’est pas une langue de ce service\u202F; accepté\u202F: en, fr");
}

result call(operation const& op, request& r)
{
    auto const l = language_of(r.args.take("lang"), r.preferred_language);
    if (auto const* f = std::get_if<failure>(&l))
        return *f;
    r.lang = std::get<glossary::language>(l);
    if (r.lang == glossary::language::fr)
        r.args.read_decimal_commas(op.parameters);
    auto out = op.run(r);
    if (auto* a = std::get_if<answer>(&out)) {
        a->lang = r.lang;
        // The operation names its English document; the French one is beside it (the glossary
        // names its language itself).
        if (a->is_published())
            a->published_query = render::language_query(a->published_query, r.lang);
    }
    return out;
}

operation const* find_tool(std::string_view name)
{
    auto it = std::find_if(registry.begin(), registry.end(), [&](operation const& op) { return op.tool == name; });
    return it == registry.end() ? nullptr : &*it;
}

std::vector<std::pair<std::string_view, std::string_view>> example_arguments(operation const& op)
{
    std::vector<std::pair<std::string_view, std::string_view>> out;
    std::string_view rest = op.example;
    while (!rest.empty()) {
        auto const amp = rest.find('&');
        auto const pair = rest.substr(0, amp);
        rest = amp == std::string_view::npos ? std::string_view{} : rest.substr(amp + 1);
        auto const eq = pair.find('=');
        out.emplace_back(pair.substr(0, eq), pair.substr(eq + 1));
    }
    return out;
}

example_request example_target(operation const& op)
{
    example_request out{std::string(op.route), {}};
    for (auto const& [name, value] : example_arguments(op)) {
        auto const placeholder = "{" + std::string(name) + "}";
        if (auto const at = out.path.find(placeholder); at != std::string::npos)
            out.path.replace(at, placeholder.size(), value);
        else
            out.query += (out.query.empty() ? "?" : "&") + std::string(name) + "=" + std::string(value);
    }
    return out;
}

}
