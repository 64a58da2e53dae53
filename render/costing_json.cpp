#include "render/costing_json.hpp"

#include "render/json.hpp"
#include "render/json_writer.hpp"
#include "render/transfer.hpp"
#include "render/words.hpp"

#include "pricing/hardware.hpp"
#include "pricing/power_score.hpp"
#include "pricing/rules.hpp"
#include "pricing/transfer.hpp"

#include <boost/json/array.hpp>

#include <string>

namespace lcg::render {

namespace {

namespace json = boost::json;
namespace rules = pricing::rules;
using pricing::decimal_string;
using pricing::money;
using pricing::to_decimal;

// A quantity held in millionths of its unit ("200", "1.5").
std::string micro_text(std::int64_t micro) { return decimal_string(micro, 6, 0); }

std::string display(money m) { return "$" + pricing::to_cents(m); }

// An amount rounded to the cent as `lang` writes it in prose ("$12.35", "12,35 $").
std::string display(language lang, money m) { return dollars(lang, pricing::to_cents(m)); }

// A tier named in prose: its id in English, as the English notes always wrote it; its name in French.
std::string tier_in_prose(language lang, pricing::tier t)
{
    std::string const id(pricing::to_string(t));
    return lang == language::en ? id : say(lang, "tier." + id);
}

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
                    {"tflops", s->dense_tflops ? glossary::number(lang, s->dense_tflops->value) : std::string("?")}});
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

}

std::string ratio_text(pricing::rules::ratio r)
{
    return decimal_string(r.numerator * 1'000'000 / r.denominator, 6, 0);
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

namespace {

void write_hours(json_writer& w, std::string_view name, std::int64_t duration_us)
{
    auto const hours = pricing::units_to_decimal(duration_us, 1, pricing::microseconds_per_hour / 1'000'000, 6);
    w.key(name).begin_object();
    w.member("seconds", decimal_string(duration_us, 6, 0)).member("hours", hours.text);
    w.member_boolean("hours_exact", hours.exact).end_object();
}

void write_optional_money(json_writer& w, std::string_view name, std::optional<money> const& m)
{
    if (m)
        w.member(name, to_decimal(*m));
    else
        w.key(name).null();
}

std::string rate_unit(language lang, pricing::line_kind kind, pricing::tier billed)
{
    switch (kind) {
    case pricing::line_kind::gpu_time: return say(lang, "json.rate_unit.gpu_time", {{"tier", tier_in_prose(lang, billed)}});
    case pricing::line_kind::storage:
        return say(lang, "json.rate_unit.storage", {{"hours", std::to_string(rules::month_hours)}});
    default: return say(lang, "json.rate_unit.network");
    }
}

void write_lines(json_writer& w, pricing::job_estimate const& e, language lang)
{
    auto const& job = e.job;
    w.key("lines").begin_array();
    for (auto const& l : e.lines) {
        bool const gpu_time = l.kind == pricing::line_kind::gpu_time;
        bool const storage = l.kind == pricing::line_kind::storage;
        w.begin_object().member("item", pricing::to_string(l.kind)).member("quantity", l.quantity.text);
        w.member_boolean("quantity_exact", l.quantity.exact);
        w.member("unit", gpu_time ? "GPU-hour" : (storage ? "GB-month" : "GB"));
        w.member("unit_rate", to_decimal(l.unit_rate)).member("rate_unit", rate_unit(lang, l.kind, job.billed));
        w.member("amount", to_decimal(l.amount));
        if (gpu_time) {
            w.member_number("gpus", job.gpus);
            write_hours(w, "duration", job.duration_us);
        } else if (storage) {
            w.member("gb", micro_text(job.storage_micro_gb));
            write_hours(w, "duration", job.storage_us);
        }
        w.end_object();
    }
    w.end_array();
}

void write_tiers(json_writer& w, pricing::job_estimate const& e)
{
    auto const& job = e.job;
    w.key("tiers").begin_array();
    for (auto const& t : e.tiers) {
        w.begin_object().member("tier", pricing::to_string(t.billed)).member("per_gpu_hour", to_decimal(t.per_gpu_hour));
        w.member("gpu_time", to_decimal(t.gpu_time)).member("total", to_decimal(t.total));
        w.member("total_display", display(t.total)).member_boolean("selected", t.billed == job.billed);
        if (job.work)
            write_optional_money(w,
                                 job.work->unit == pricing::work_unit::tokens_per_second ? "cost_per_million_tokens"
                                                                                         : "cost_per_image",
                                 t.per_work);
        w.end_object();
    }
    w.end_array();
}

void write_throughput(json_writer& w, pricing::job_estimate const& e, language lang)
{
    auto const& job = e.job;
    w.key("throughput");
    if (!job.work) {
        w.null();
        return;
    }
    std::string const tier = tier_in_prose(lang, job.billed);
    w.begin_object();
    if (job.work->unit == pricing::work_unit::tokens_per_second) {
        w.member("tokens_per_second", micro_text(job.work->micro_rate));
        w.member("tokens_per_hour", micro_text(job.work->micro_rate * rules::seconds_per_hour));
        write_optional_money(w, "cost_per_million_tokens", e.per_work);
        w.member("basis", say(lang, "json.basis.tokens", {{"tier", tier}}));
    } else {
        w.member("images_per_hour", micro_text(job.work->micro_rate));
        write_optional_money(w, "cost_per_image", e.per_work);
        w.member("basis", say(lang, "json.basis.images", {{"tier", tier}}));
    }
    w.end_object();
}

void write_reserved_term(json_writer& w, pricing::reserved_commitment const& r, language lang)
{
    w.key("reserved_term").begin_object();
    w.member_number("months", r.months).member_number("hours", r.hours).member_number("gpus", r.gpus);
    w.member("per_gpu_hour", to_decimal(r.per_gpu_hour)).member("commitment", to_decimal(r.commitment));
    w.member("commitment_display", display(r.commitment));
    w.member_number("break_even_utilization_percent", r.break_even_percent);
    w.member("note", say(lang, "json.reserved_note",
                         {{"months", std::to_string(r.months)},
                          {"month_hours", number(lang, std::to_string(rules::month_hours))},
                          {"percent", percent(lang, std::to_string(r.break_even_percent))}}));
    w.end_object();
}

// What the estimate comes to, in one sentence. A reserved job is billed as its whole term, so its
// headline states the commitment before the job's own share.
std::string headline(pricing::job_estimate const& e, language lang)
{
    if (e.job.billed != pricing::tier::reserved)
        return say(lang, "json.headline", {{"total", display(lang, e.total)}});
    auto const& r = e.reserved;
    return say(lang, "json.headline.reserved",
               {{"commitment", display(lang, r.commitment)},
                {"months", std::to_string(r.months)},
                {"gpus", say(lang, r.gpus == 1 ? "json.one_gpu" : "json.gpus", {{"count", std::to_string(r.gpus)}})},
                {"hours", number(lang, std::to_string(r.hours))},
                {"total", display(lang, e.total)}});
}

void write_billing_rules(json_writer& w, language lang)
{
    w.key("rules").begin_object().member("billing", say(lang, "json.rules.billing"));
    w.member("proration", say(lang, "json.rules.proration", {{"hours", number(lang, std::to_string(rules::month_hours))}}));
    w.member("gpus", say(lang, "json.rules.gpus"));
    w.member("storage_per_gb_month", to_decimal(rules::storage_per_gb_month));
    w.member_number("month_hours", rules::month_hours);
    w.member("network_per_gb", to_decimal(rules::network_per_gb));
    w.member("effective_per_gpu_hour", say(lang, "json.rules.effective_per_gpu_hour"));
    w.end_object();
}

}

std::string estimate_text(pricing::job_estimate const& e, pricing::gpu_model const& model,
                          pricing::price_sheet const& sheet, language lang)
{
    auto const& job = e.job;
    json_writer w;
    w.begin_object().member("gpu", model.id).member("name", model.name).member("week", pricing::to_string(sheet.week));
    w.member_boolean("sample", sheet.is_sample());
    w.member("currency", "USD").member("tier", pricing::to_string(job.billed)).member_number("gpus", job.gpus);
    w.member_number("instances", job.instances).member_number("max_gpus_per_instance", model.max_gpus_per_instance);
    write_hours(w, "duration", job.duration_us);
    write_lines(w, e, lang);
    w.member("total", to_decimal(e.total)).member("total_micros", std::to_string(e.total.micros()));
    w.member("total_display", display(e.total)).member("effective_per_gpu_hour", to_decimal(e.effective_per_gpu_hour));
    w.member("headline", headline(e, lang));
    write_tiers(w, e);
    write_reserved_term(w, e.reserved, lang);
    write_throughput(w, e, lang);
    write_billing_rules(w, lang);
    w.end_object();
    return std::move(w).text();
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
    o["week"] = sheet ? json::value(pricing::to_string(sheet->week)) : json::value(nullptr);
    o["sample"] = is_sample(sheet);
    return o;
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
    o["week"] = sheet ? json::value(pricing::to_string(sheet->week)) : json::value(nullptr);
    o["sample"] = is_sample(sheet);
    return o;
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
