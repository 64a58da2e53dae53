#include "estimate.hpp"

#include "gpu_lookup.hpp"
#include "utf8.hpp"

#include "rules.hpp"

namespace lcg::pricing {

namespace {

constexpr int decimals = rules::quantity_decimals;
constexpr std::int64_t min_micro_tokens_per_second = 1'000;  // 0.001: keeps the cost per token in range

std::string join(std::vector<std::string> const& items)
{
    std::string out;
    for (auto const& item : items) {
        if (!out.empty())
            out += ", ";
        out += item;
    }
    return out;
}

parameter_error from(std::string parameter, error const& e) { return {std::move(parameter), e}; }

// A duration in hours (six decimals) or in whole seconds, to microseconds.
parsed<std::int64_t> parse_duration(std::string const& parameter, std::string const& text, bool in_hours)
{
    auto const units = units_parameter(parameter, text, in_hours ? decimals : 0);
    if (!units)
        return units.err();
    return *units * (in_hours ? microseconds_per_hour / micro_units : microseconds_per_second);
}

parsed<std::int64_t> parse_gb(std::string const& parameter, std::optional<std::string> const& text)
{
    if (!text)
        return std::int64_t{0};
    return units_parameter(parameter, *text, decimals);
}

money of_micros(std::int64_t micros) { return money::from_micros(micros); }

}

parsed<gpu_model const*> find_gpu_parameter(std::string_view parameter, std::string_view text, catalog const& cat)
{
    auto const match = lookup_gpu(text, cat);
    if (match.model)
        return match.model;
    std::string const shown = quote(utf8_prefix(text, rules::max_gpu_name_bytes));
    parameter_error refusal = bad_input(std::string(parameter), std::string(parameter) + ": " + shown,
                                        std::string(parameter) + "\u202F: " + shown);
    for (auto const* m : match.candidates)
        refusal.suggestions.push_back(m->id);
    auto& message = refusal.cause.message;
    auto& french = refusal.cause.message_fr;
    switch (match.miss) {
    case gpu_miss::several:
        message += " names several GPUs";
        french += " désigne plusieurs GPU";
        break;
    case gpu_miss::family:
        message += " names a family or a memory size, not one GPU";
        french += " désigne une famille ou une taille de mémoire, pas un GPU";
        break;
    case gpu_miss::unknown:
    case gpu_miss::close:
        message += " is not a GPU of the catalog";
        french += " n’est pas un GPU du catalogue";
        break;
    }
    if (!refusal.suggestions.empty()) {
        message += "; closest: " + join(refusal.suggestions);
        french += "\u202F; les plus proches\u202F: " + join(refusal.suggestions);
    }
    message += "; accepted: a catalog id (any letter case) or model name: " + join(cat.ids());
    french += "\u202F; accepté\u202F: un identifiant du catalogue (en majuscules ou minuscules) ou un nom de modèle\u202F: " +
              join(cat.ids());
    return refusal;
}

parsed<tier> tier_parameter(std::optional<std::string> const& text)
{
    if (!text)
        return tier::on_demand;
    auto const t = tier_named(*text);
    if (!t)
        return bad_input("tier",
                         "tier: " + quote(utf8_prefix(*text, rules::max_gpu_name_bytes)) +
                             " is not a tier; accepted: on_demand, spot, reserved (any letter case; also "
                             "on-demand, à la demande, interruptible, preemptible, réservé)",
                         "tier\u202F: " + quote(utf8_prefix(*text, rules::max_gpu_name_bytes)) +
                             " n’est pas un tarif\u202F; accepté\u202F: on_demand, spot, reserved (en majuscules ou minuscules\u202F; "
                             "aussi on-demand, à la demande, interruptible, preemptible, réservé)");
    return *t;
}

parsed<job_spec> parse_job(estimate_parameters const& p, catalog const& cat)
{
    job_spec job;
    auto const model = find_gpu_parameter("gpu", p.gpu, cat);
    if (!model)
        return model.err();
    job.gpu = (*model)->id;

    if (p.gpus) {
        auto const gpus = units_parameter("gpus", *p.gpus, 0);
        if (!gpus)
            return gpus.err();
        job.gpus = static_cast<int>(*gpus);
    }
    // Past the model's limit per instance the job runs on several instances, at the same per-GPU rate.
    int const per_instance = (*model)->max_gpus_per_instance;
    job.instances = (job.gpus + per_instance - 1) / per_instance;

    if (p.seconds && p.hours)
        return bad_input("seconds",
                         "seconds and hours: give the duration once, either seconds (an integer) or hours (a decimal), "
                         "not both",
                         "seconds et hours\u202F: donnez la durée une seule fois, soit seconds (un entier), soit hours "
                         "(un nombre décimal), pas les deux");
    if (!p.seconds && !p.hours)
        return bad_input("hours",
                         "hours: a duration is required; accepted: hours (a decimal from 0.000001 to " +
                             std::to_string(rules::max_job_hours) + ") or seconds (an integer from 1 to " +
                             std::to_string(std::int64_t{rules::max_job_hours} * rules::seconds_per_hour) + ")",
                         "hours\u202F: une durée est obligatoire\u202F; accepté\u202F: hours (un nombre décimal de 0,000001 à " +
                             std::to_string(rules::max_job_hours) + ") ou seconds (un entier de 1 à " +
                             std::to_string(std::int64_t{rules::max_job_hours} * rules::seconds_per_hour) + ")");
    auto const duration = p.hours ? parse_duration("hours", *p.hours, true) : parse_duration("seconds", *p.seconds, false);
    if (!duration)
        return duration.err();
    job.duration_us = *duration;

    auto const billed = tier_parameter(p.tier);
    if (!billed)
        return billed.err();
    job.billed = *billed;

    auto const storage = parse_gb("storage_gb", p.storage_gb);
    if (!storage)
        return storage.err();
    job.storage_micro_gb = *storage;
    job.storage_us = job.duration_us;
    if (p.storage_hours) {
        if (!p.storage_gb)
            return bad_input("storage_hours", "storage_hours: only meaningful with storage_gb; give both, or neither",
                             "storage_hours\u202F: n’a de sens qu’avec storage_gb\u202F; donnez les deux, ou aucun");
        auto const kept = parse_duration("storage_hours", *p.storage_hours, true);
        if (!kept)
            return kept.err();
        job.storage_us = *kept;
    }

    auto const egress = parse_gb("egress_gb", p.egress_gb);
    if (!egress)
        return egress.err();
    job.egress_micro_gb = *egress;
    auto const ingress = parse_gb("ingress_gb", p.ingress_gb);
    if (!ingress)
        return ingress.err();
    job.ingress_micro_gb = *ingress;

    if (p.tokens_per_second && p.images_per_hour)
        return bad_input("images_per_hour", "tokens_per_second and images_per_hour: give at most one throughput",
                         "tokens_per_second et images_per_hour\u202F: donnez un débit au plus");
    if (p.tokens_per_second) {
        // Finer than the declaration's "above 0": a rate below 0.001 would put a million tokens past
        // the cost's range, so this bound is pricing's own.
        auto const rate = parse_quantity("tokens_per_second", *p.tokens_per_second, decimals,
                                         min_micro_tokens_per_second, rules::max_tokens_per_second * micro_units);
        if (!rate)
            return from("tokens_per_second", rate.err());
        job.work = throughput{work_unit::tokens_per_second, *rate};
    } else if (p.images_per_hour) {
        auto const rate = units_parameter("images_per_hour", *p.images_per_hour, decimals);
        if (!rate)
            return rate.err();
        job.work = throughput{work_unit::images_per_hour, *rate};
    }
    return job;
}

std::string_view to_string(line_kind kind)
{
    switch (kind) {
    case line_kind::gpu_time: return "gpu_time";
    case line_kind::storage: return "storage";
    case line_kind::egress: return "egress";
    case line_kind::ingress: return "ingress";
    }
    return "gpu_time";
}

money prorate(money hourly, std::int64_t duration_us)
{
    return of_micros(mul_div_half_up(hourly.micros(), duration_us, microseconds_per_hour));
}

money gpu_time_cost(money per_gpu_hour, int gpus, std::int64_t duration_us)
{
    return prorate(of_micros(per_gpu_hour.micros() * gpus), duration_us);
}

money storage_cost(std::int64_t micro_gb, std::int64_t duration_us)
{
    // rate × GB × hours / 730, with GB in millionths and hours in microseconds.
    std::int64_t const per_micro_gb_month = rules::storage_per_gb_month.micros() * micro_gb;
    return of_micros(mul_div_half_up(per_micro_gb_month, duration_us,
                                     micro_units * rules::month_hours * microseconds_per_hour));
}

money network_cost(std::int64_t micro_gb)
{
    return of_micros(mul_div_half_up(rules::network_per_gb.micros(), micro_gb, micro_units));
}

money cost_per_million_tokens(money hourly, std::int64_t micro_tokens_per_second)
{
    // hourly / (tps × 3600) × 10^6, with tps in millionths: hourly × 10^12 / (micro_tps × 3600).
    return of_micros(mul_div_half_up(hourly.micros(), micro_units * micro_units,
                                     micro_tokens_per_second * rules::seconds_per_hour));
}

money cost_per_image(money hourly, std::int64_t micro_images_per_hour)
{
    return of_micros(mul_div_half_up(hourly.micros(), micro_units, micro_images_per_hour));
}

money cost_per_work(money hourly, throughput work)
{
    return work.unit == work_unit::tokens_per_second ? cost_per_million_tokens(hourly, work.micro_rate)
                                                     : cost_per_image(hourly, work.micro_rate);
}

outcome<job_estimate> estimate_job(job_spec const& job, sheet_row const* row)
{
    if (!row || !row->rates)
    {
        // The reason is the sheet's own words, published in English only.
        std::string const why =
            row && !row->unavailable_reason.empty() ? ": " + row->unavailable_reason : std::string();
        return error{errc::unpriced, job.gpu + " has no price on the sheet it is costed at" + why,
                     job.gpu + " n’a pas de prix sur le tarif de la semaine choisie" + why};
    }
    tier_rates const& rates = *row->rates;
    job_estimate e;
    e.job = job;

    money const rate = rates.of(job.billed);
    e.lines.push_back({line_kind::gpu_time,
                       units_to_decimal(job.duration_us, job.gpus, microseconds_per_hour / micro_units, decimals),
                       rate, gpu_time_cost(rate, job.gpus, job.duration_us)});
    // GB-months in millionths: (micro-GB / 10^6) × (µs / 1 h) / 730 × 10^6.
    e.lines.push_back({line_kind::storage,
                       units_to_decimal(job.storage_micro_gb, job.storage_us,
                                        microseconds_per_hour * rules::month_hours, decimals),
                       rules::storage_per_gb_month, storage_cost(job.storage_micro_gb, job.storage_us)});
    e.lines.push_back({line_kind::egress, units_to_decimal(job.egress_micro_gb, 1, 1, decimals),
                       rules::network_per_gb, network_cost(job.egress_micro_gb)});
    e.lines.push_back({line_kind::ingress, units_to_decimal(job.ingress_micro_gb, 1, 1, decimals),
                       rules::network_per_gb, network_cost(job.ingress_micro_gb)});

    money other;  // storage and network: the same in every tier
    for (std::size_t i = 1; i < e.lines.size(); ++i)
        other = other + e.lines[i].amount;
    e.total = e.lines[0].amount + other;
    e.effective_per_gpu_hour =
        of_micros(mul_div_half_up(e.total.micros(), microseconds_per_hour, job.duration_us * job.gpus));

    for (tier t : all_tiers) {
        tier_cost c;
        c.billed = t;
        c.per_gpu_hour = rates.of(t);
        c.gpu_time = gpu_time_cost(c.per_gpu_hour, job.gpus, job.duration_us);
        c.total = c.gpu_time + other;
        if (job.work)
            c.per_work = cost_per_work(of_micros(c.per_gpu_hour.micros() * job.gpus), *job.work);
        if (t == job.billed)
            e.per_work = c.per_work;
        e.tiers.push_back(c);
    }

    e.reserved.months = rules::reserved_term_months;
    e.reserved.hours = std::int64_t{rules::reserved_term_months} * rules::month_hours;
    e.reserved.gpus = job.gpus;
    e.reserved.per_gpu_hour = rates.reserved;
    e.reserved.commitment = of_micros(e.reserved.hours * job.gpus * rates.reserved.micros());
    e.reserved.break_even_percent = rules::reserved_break_even_percent;
    return e;
}

}
