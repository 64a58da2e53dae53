#include "render/costing_json.hpp"

#include "render/json.hpp"
#include "render/json_writer.hpp"

#include "pricing/power_score.hpp"
#include "pricing/rules.hpp"

#include <boost/json/array.hpp>

#include <string>

namespace lcg::render {

namespace {

namespace json = boost::json;
namespace rules = pricing::rules;
using pricing::decimal_string;
using pricing::money;
using pricing::to_decimal;

constexpr char const* fp16_convention = "dense tensor throughput (no 2:4 sparsity), FP16 inputs with FP32 accumulate";

// A quantity held in millionths of its unit ("200", "1.5").
std::string micro_text(std::int64_t micro) { return decimal_string(micro, 6, 0); }

std::string display(money m) { return "$" + pricing::to_cents(m); }

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

}

std::string ratio_text(pricing::rules::ratio r)
{
    return decimal_string(r.numerator * 1'000'000 / r.denominator, 6, 0);
}

json::object fp16_dense_tflops_json(pricing::gpu_model const& m)
{
    json::object o = figure_json(m.fp16_dense_tflops);
    o["convention"] = fp16_convention;
    return o;
}

json::value power_score_json(pricing::gpu_model const& m)
{
    auto const score = pricing::compute_power_score(m.fp16_dense_tflops);
    if (!score)
        return nullptr;
    return json::object{{"value", pricing::to_string(*score)},
                        {"confirmed", score->confirmed},
                        {"reference", std::string(rules::power_score_reference_gpu) + " = 100"},
                        {"formula", "100 × fp16_dense_tflops / 71, one decimal, rounded half-up"}};
}

json::object interconnect_json(pricing::gpu_model const& m)
{
    if (!m.interconnect_gbs)
        return {{"type", nullptr}, {"bandwidth_gbs", nullptr}, {"nvlink", false}};
    return {{"type", m.interconnect_kind},
            {"bandwidth_gbs", figure_json(*m.interconnect_gbs)},
            {"nvlink", pricing::has_nvlink(m)},
            {"note", "total bidirectional bandwidth per GPU; PCIe and consumer cards only through a bridge between "
                     "cards"}};
}

json::object mig_json(pricing::gpu_model const& m)
{
    int const slices = pricing::mig_compute_slices(m);
    json::array profiles;
    for (auto const& p : m.mig_profiles)
        profiles.push_back({{"name", p.name},
                            {"memory_gb", p.memory_gb},
                            {"compute_slices", p.compute_slices},
                            {"compute_fraction", std::to_string(p.compute_slices) + "/" + std::to_string(slices)},
                            {"max_instances", p.max_instances}});
    return {{"supported", pricing::has_mig(m)},
            {"max_instances", m.mig_max_instances},
            {"compute_slices", slices},
            {"profiles", std::move(profiles)},
            {"note", "max_instances of a profile is the most one GPU runs of that profile alone; counts of "
                     "different profiles do not add up"}};
}

json::object instance_limits_json(pricing::gpu_model const& m)
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
            {"note", "vCPU and memory limits are per instance, whatever its number of GPUs; a region may accept "
                     "more CPU generations (extra_cpu_generations_by_region); check a shape with "
                     "/v1/instances/check"}};
}

json::object regions_json(pricing::gpu_model const& m)
{
    return {{"count", m.regions.size()},
            {"codes", string_array(m.regions)},
            {"note", "offered in every region, at the same price everywhere"}};
}

json::object filtered_catalog_json(pricing::catalog const& catalog, pricing::price_sheet const* current,
                                   pricing::gpu_filter const& f)
{
    json::array gpus;
    for (auto const& m : catalog.gpus)
        if (pricing::matches(f, m))
            gpus.push_back(gpu_json(m, current ? current->find(m.id) : nullptr));
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

std::string rate_unit(pricing::line_kind kind, pricing::tier billed)
{
    switch (kind) {
    case pricing::line_kind::gpu_time: return "USD per GPU-hour, " + std::string(pricing::to_string(billed));
    case pricing::line_kind::storage: return "USD per GB-month of " + std::to_string(rules::month_hours) + " hours";
    default: return "USD per GB";
    }
}

void write_lines(json_writer& w, pricing::job_estimate const& e)
{
    auto const& job = e.job;
    w.key("lines").begin_array();
    for (auto const& l : e.lines) {
        bool const gpu_time = l.kind == pricing::line_kind::gpu_time;
        bool const storage = l.kind == pricing::line_kind::storage;
        w.begin_object().member("item", pricing::to_string(l.kind)).member("quantity", l.quantity.text);
        w.member_boolean("quantity_exact", l.quantity.exact);
        w.member("unit", gpu_time ? "GPU-hour" : (storage ? "GB-month" : "GB"));
        w.member("unit_rate", to_decimal(l.unit_rate)).member("rate_unit", rate_unit(l.kind, job.billed));
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

void write_throughput(json_writer& w, pricing::job_estimate const& e)
{
    auto const& job = e.job;
    w.key("throughput");
    if (!job.work) {
        w.null();
        return;
    }
    std::string const basis = "GPU time only, " + std::string(pricing::to_string(job.billed)) +
                              ", the throughput you gave: hourly cost of the instance / ";
    std::string const rounding = ", rounded half-up to the micro-dollar";
    w.begin_object();
    if (job.work->unit == pricing::work_unit::tokens_per_second) {
        w.member("tokens_per_second", micro_text(job.work->micro_rate));
        w.member("tokens_per_hour", micro_text(job.work->micro_rate * rules::seconds_per_hour));
        write_optional_money(w, "cost_per_million_tokens", e.per_work);
        w.member("basis", basis + "tokens per hour × 10^6" + rounding);
    } else {
        w.member("images_per_hour", micro_text(job.work->micro_rate));
        write_optional_money(w, "cost_per_image", e.per_work);
        w.member("basis", basis + "images per hour" + rounding);
    }
    w.end_object();
}

void write_reserved_term(json_writer& w, pricing::reserved_commitment const& r)
{
    w.key("reserved_term").begin_object();
    w.member_number("months", r.months).member_number("hours", r.hours).member_number("gpus", r.gpus);
    w.member("per_gpu_hour", to_decimal(r.per_gpu_hour)).member("commitment", to_decimal(r.commitment));
    w.member("commitment_display", display(r.commitment));
    w.member_number("break_even_utilization_percent", r.break_even_percent);
    w.member("note", "a reserved instance is billed for its whole term (" + std::to_string(r.months) + " × " +
                         std::to_string(rules::month_hours) + " h × GPUs × the reserved rate), used or not; it costs "
                         "less than on-demand when the instance would run more than " +
                         std::to_string(r.break_even_percent) + " % of the term");
    w.end_object();
}

// What the estimate comes to, in one sentence. A reserved job is billed as its whole term, so its
// headline states the commitment before the job's own share.
std::string headline(pricing::job_estimate const& e)
{
    if (e.job.billed != pricing::tier::reserved)
        return display(e.total) + " in all: GPU time, storage and network";
    auto const& r = e.reserved;
    return "a reserved instance commits " + display(r.commitment) + " for its " + std::to_string(r.months) +
           "-month term (" + std::to_string(r.gpus) + (r.gpus == 1 ? " GPU × " : " GPUs × ") + std::to_string(r.hours) +
           " h), billed whether it runs or not; this job's share at the reserved rate is " + display(e.total);
}

void write_billing_rules(json_writer& w)
{
    w.key("rules").begin_object().member("billing", "per second");
    w.member("proration", "each line: rate × duration / 1 hour (storage: / 730-hour month), rounded half-up to "
                          "the micro-dollar; the total is the sum of the lines");
    w.member("gpus", "n GPUs cost n × the per-GPU rate");
    w.member("storage_per_gb_month", to_decimal(rules::storage_per_gb_month));
    w.member_number("month_hours", rules::month_hours);
    w.member("network_per_gb", to_decimal(rules::network_per_gb));
    w.member("effective_per_gpu_hour", "total / (gpus × hours), storage and network included");
    w.end_object();
}

}

std::string estimate_text(pricing::job_estimate const& e, pricing::gpu_model const& model,
                          pricing::price_sheet const& sheet)
{
    auto const& job = e.job;
    json_writer w;
    w.begin_object().member("gpu", model.id).member("name", model.name).member("week", pricing::to_string(sheet.week));
    w.member("currency", "USD").member("tier", pricing::to_string(job.billed)).member_number("gpus", job.gpus);
    w.member_number("instances", job.instances).member_number("max_gpus_per_instance", model.max_gpus_per_instance);
    write_hours(w, "duration", job.duration_us);
    write_lines(w, e);
    w.member("total", to_decimal(e.total)).member("total_micros", std::to_string(e.total.micros()));
    w.member("total_display", display(e.total)).member("effective_per_gpu_hour", to_decimal(e.effective_per_gpu_hour));
    w.member("headline", headline(e));
    write_tiers(w, e);
    write_reserved_term(w, e.reserved);
    write_throughput(w, e);
    write_billing_rules(w);
    w.end_object();
    return std::move(w).text();
}

json::object sizing_json(pricing::sizing_result const& result, pricing::catalog const& catalog,
                         pricing::price_sheet const* sheet)
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
            o["note"] = "needs " + std::to_string(r.gpus_needed) + " GPUs, more than the " +
                        std::to_string(rules::max_priced_gpus) + " a configuration is priced for";
        else if (!r.fits_one_instance)
            o["note"] = std::to_string(*r.practical_gpus) + " GPUs make " + std::to_string(r.instances) +
                        " instances (an instance of " + r.gpu + " takes at most " +
                        std::to_string(r.max_gpus_per_instance) +
                        "), priced at the same per-GPU rate; the model is split across nodes";
        else if (r.smallest_hourly)
            o["note"] = std::to_string(r.gpus_needed) + " GPUs hold it and cost least; " +
                        std::to_string(*r.practical_gpus) +
                        ", the next power of two, is the usual choice because tensor parallelism splits a model's "
                        "attention heads evenly over 2, 4 or 8 GPUs";
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
            json::object{{"gpu", c.gpu}, {"gpus", c.gpus}, {"instances", c.instances}, {"hourly", to_decimal(c.hourly)}};

    int const halves = pricing::half_bytes_per_param(result.spec.weights);
    json::object o{{"params_b", micro_text(result.spec.micro_params_b)},
                   {"precision", pricing::to_string(result.spec.weights)},
                   {"bytes_per_param", decimal_string(halves * 5, 1, 0)},
                   {"overhead_factor", ratio_text(rules::sizing_overhead)},
                   {"needed_gb", decimal_string(result.needed_units, pricing::needed_gb_decimals, 0)},
                   {"formula", "needed_gb = params_b × bytes_per_param × overhead_factor; gpus_needed = "
                               "ceil(needed_gb / vram_gb); practical_gpus = the next power of two up to 8, then whole "
                               "nodes of 8; smallest_hourly prices gpus_needed where that is fewer; instances = "
                               "ceil(gpus / max_gpus_per_instance)"},
                   {"models", std::move(models)},
                   {"cheapest", std::move(cheapest)},
                   {"currency", "USD"},
                   {"hourly_unit", "per hour for practical_gpus GPUs (hourly) or gpus_needed GPUs (smallest_hourly), in "
                                   "instances (or smallest_instances) instances"},
                   {"mig_note", "a MIG slice is what the model would need of a GPU partitioned on your own instance; "
                                "GPUs are rented whole, never by the slice"}};
    o["week"] = sheet ? json::value(pricing::to_string(sheet->week)) : json::value(nullptr);
    return o;
}

json::object comparison_json(pricing::comparison const& c, pricing::catalog const& catalog,
                             pricing::price_sheet const* sheet)
{
    json::array gpus;
    for (auto const& r : c.rows) {
        pricing::gpu_model const* m = catalog.find(r.gpu);
        json::object o{{"gpu", r.gpu},
                       {"name", m ? m->name : r.gpu},
                       {"vram_gb", r.vram_gb},
                       {"memory_bandwidth_gbs", r.memory_bandwidth_gbs},
                       {"fp16_dense_tflops", m ? json::value(fp16_dense_tflops_json(*m)) : json::value(nullptr)},
                       {"power_score", m ? power_score_json(*m) : json::value(nullptr)},
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
         {{"power_score", "100 × dense FP16 tensor TFLOPS (FP32 accumulate, no sparsity) / 71: the RTX 3090 is 100"},
          {"price_per_100_power_score", "on-demand per GPU-hour × 71 / TFLOPS, from the exact PowerScore, rounded "
                                        "half-up to the micro-dollar"},
          {"price_per_gb_vram_hour", "on-demand per GPU-hour / VRAM GB, rounded half-up to the micro-dollar"},
          {"winners", "ids of the best model for each criterion, several on a tie; ratios are compared exactly; "
                      "models without a price take no part in the price criteria"}}}};
    o["week"] = sheet ? json::value(pricing::to_string(sheet->week)) : json::value(nullptr);
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
                           pricing::catalog const& catalog, pricing::price_sheet const& sheet)
{
    auto option_json = [&](pricing::configuration const& c) {
        pricing::gpu_model const* m = catalog.find(c.gpu);
        return json::object{{"gpu", c.gpu},
                            {"name", m ? m->name : c.gpu},
                            {"gpus", c.gpus},
                            {"instances", c.instances},
                            {"per_gpu_hour", to_decimal(c.per_gpu_hour)},
                            {"hourly", to_decimal(c.hourly)},
                            {"total", to_decimal(c.total)},
                            {"total_display", display(c.total)}};
    };
    json::array alternatives;
    for (std::size_t i = 1; i < options.size() && i <= static_cast<std::size_t>(rules::cheapest_alternatives); ++i)
        alternatives.push_back(option_json(options[i]));
    json::value model = nullptr;
    if (q.model)
        model = json::object{{"params_b", micro_text(q.model->micro_params_b)},
                             {"precision", pricing::to_string(q.model->weights)}};
    return {{"week", pricing::to_string(sheet.week)},
            {"currency", "USD"},
            {"tier", pricing::to_string(q.billed)},
            {"hours", micro_text(q.micro_hours)},
            {"needed_gb", decimal_string(q.needed_units, pricing::needed_gb_decimals, 0)},
            {"model", std::move(model)},
            {"cheapest", options.empty() ? json::value(nullptr) : json::value(option_json(options.front()))},
            {"alternatives", std::move(alternatives)},
            {"basis", "the fewest GPUs of one model whose memory holds needed_gb, in one instance where the model "
                      "allows that many, else in several instances (listed after every one-instance configuration); GPU "
                      "time only, billed per second; the cheapest hourly cost first, fewer GPUs first on a tie"}};
}

}
