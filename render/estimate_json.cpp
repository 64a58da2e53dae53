// JSON of an estimate (/v1/estimate), written as text straight from the estimate.
#include "render/costing_json.hpp"

#include "render/json_parts.hpp"
#include "render/json_writer.hpp"
#include "render/language.hpp"

#include "pricing/rules.hpp"

#include <string>

namespace lcg::render {

namespace {

namespace rules = pricing::rules;
using namespace json_parts;

// An amount rounded to the cent as `lang` writes it in prose ("$12.35", "12,35 $").
std::string amount_in_prose(language lang, money m) { return dollars(lang, pricing::to_cents(m)); }

// A tier named in prose: its id in English, as the English notes always wrote it; its name in French.
std::string tier_in_prose(language lang, pricing::tier t)
{
    std::string const id(pricing::to_string(t));
    return lang == language::en ? id : say(lang, "tier." + id);
}

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
        return say(lang, "json.headline", {{"total", amount_in_prose(lang, e.total)}});
    auto const& r = e.reserved;
    return say(lang, "json.headline.reserved",
               {{"commitment", amount_in_prose(lang, r.commitment)},
                {"months", std::to_string(r.months)},
                {"gpus", say(lang, r.gpus == 1 ? "json.one_gpu" : "json.gpus", {{"count", std::to_string(r.gpus)}})},
                {"hours", number(lang, std::to_string(r.hours))},
                {"total", amount_in_prose(lang, e.total)}});
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

}
