#include "mcp/tools.hpp"

#include "mcp/arguments.hpp"
#include "mcp/markdown.hpp"

#include "glossary/search.hpp"
#include "glossary/text.hpp"

#include "pricing/compare.hpp"
#include "pricing/estimate.hpp"
#include "pricing/gpu_filter.hpp"
#include "pricing/instance_check.hpp"
#include "pricing/power_score.hpp"
#include "pricing/quantity.hpp"
#include "pricing/rules.hpp"
#include "pricing/sizing.hpp"

#include <boost/json/parse.hpp>

#include <algorithm>
#include <array>
#include <span>
#include <string>
#include <vector>

namespace lcg::mcp {

namespace {

namespace json = boost::json;
namespace rules = pricing::rules;
using pricing::money;
using pricing::to_decimal;

// ---- shared pieces ------------------------------------------------------------------------------

tool_result refuse(std::string message) { return {{}, std::move(message), true}; }

tool_result no_sheet() { return refuse("no price sheet is in effect yet; try again after the next publication"); }

json::value text_or_null(std::string const& s) { return s.empty() ? json::value(nullptr) : json::value(s); }

json::array strings(std::vector<std::string> const& items)
{
    json::array out;
    for (auto const& s : items)
        out.emplace_back(s);
    return out;
}

std::string list_text(std::vector<std::string> const& items)
{
    std::string out;
    for (auto const& s : items) {
        if (!out.empty())
            out += ", ";
        out += s;
    }
    return out;
}

json::object rates_json(pricing::tier_rates const& r)
{
    json::object o;
    for (auto t : pricing::all_tiers)
        o[pricing::to_string(t)] = to_decimal(r.of(t));
    return o;
}

// Absent figures are null rather than missing, so that every row of a result has the same keys.
json::value optional_rates(std::optional<pricing::tier_rates> const& r)
{
    return r ? json::value(rates_json(*r)) : json::value(nullptr);
}

json::value optional_money(std::optional<money> const& m)
{
    return m ? json::value(to_decimal(*m)) : json::value(nullptr);
}

json::object figure_json(pricing::figure const& f) { return {{"value", f.value}, {"confirmed", f.confirmed}}; }

std::string micro_text(std::int64_t micro) { return pricing::decimal_string(micro, 6, 0); }

std::string hours_text(std::int64_t duration_us)
{
    return pricing::units_to_decimal(duration_us, 1, pricing::microseconds_per_hour / pricing::micro_units, 6).text;
}

std::string gpu_name(data_view const& data, std::string_view id)
{
    auto const* m = data.catalog().find(id);
    return m ? m->name : std::string(id);
}

// Reads the arguments a tool accepts; the refusal is the tool's error result.
template <std::size_t N>
std::optional<tool_result> read_arguments(json::object const* raw, std::array<std::string_view, N> const& known,
                                          arguments& out, std::span<const std::string_view> lists = {})
{
    auto parsed = arguments::read(raw, known, lists);
    if (!parsed)
        return refuse(parsed.err().message);
    out = std::move(parsed).value();
    return std::nullopt;
}

tool_result refused_parameter(pricing::parameter_error const& e) { return refuse(e.cause.message); }

// ---- get_prices ---------------------------------------------------------------------------------

constexpr std::array<std::string_view, 7> prices_arguments{"gpu",      "vendor", "architecture", "min_vram_gb",
                                                           "max_price", "tier",  "sort"};

enum class price_order { gpu, price, vram };

tool_result prices(data_view const& data, json::object const* raw)
{
    arguments args;
    if (auto bad = read_arguments(raw, prices_arguments, args))
        return std::move(*bad);
    auto const& cat = data.catalog();
    auto const gpu = args.take("gpu");
    pricing::gpu_filter_parameters const filter_params{args.take("vendor"), args.take("architecture"),
                                                       args.take("min_vram_gb"), std::nullopt, std::nullopt};
    auto const filter = pricing::parse_gpu_filter(filter_params, cat);
    if (!filter)
        return refused_parameter(filter.err());
    pricing::gpu_model const* only = nullptr;
    if (gpu) {
        auto const found = pricing::find_gpu_parameter("gpu", *gpu, cat);
        if (!found)
            return refused_parameter(found.err());
        only = *found;
    }
    pricing::tier tier = pricing::tier::on_demand;
    if (auto const t = args.take("tier")) {
        auto const parsed = pricing::parse_tier(*t);
        if (!parsed)
            return refuse("tier: " + parsed.err().message);
        tier = *parsed;
    }
    std::optional<money> max_price;
    if (auto const p = args.take("max_price")) {
        auto const parsed = pricing::parse_money(*p);
        if (!parsed || parsed->micros() < 0)
            return refuse("max_price: " + pricing::quote(*p) +
                          " is not an amount; accepted: USD per GPU-hour as a plain decimal such as 1.5");
        max_price = *parsed;
    }
    price_order order = price_order::gpu;
    if (auto const s = args.take("sort")) {
        if (*s == "price")
            order = price_order::price;
        else if (*s == "vram")
            order = price_order::vram;
        else if (*s != "gpu")
            return refuse("sort: " + pricing::quote(*s) + " is not an order; accepted: gpu, price, vram");
    }
    auto const* sheet = data.current_sheet();
    if (!sheet)
        return no_sheet();

    struct line {
        pricing::gpu_model const* model;
        pricing::sheet_row const* row;
    };
    std::vector<line> priced;
    json::array unpriced;
    std::vector<std::string> unpriced_ids;
    for (auto const& m : cat.gpus) {
        if ((only && only != &m) || !pricing::matches(*filter, m))
            continue;
        auto const* row = sheet->find(m.id);
        if (!row || !row->available()) {
            if (max_price)
                continue;
            unpriced.push_back(json::object{
                {"gpu", m.id}, {"reason", row ? row->unavailable_reason : "not on this week's sheet"}});
            unpriced_ids.push_back(m.id);
            continue;
        }
        if (max_price && row->rates->of(tier) > *max_price)
            continue;
        priced.push_back({&m, row});
    }
    if (order == price_order::price)
        std::stable_sort(priced.begin(), priced.end(),
                         [&](line const& a, line const& b) { return a.row->rates->of(tier) < b.row->rates->of(tier); });
    else if (order == price_order::vram)
        std::stable_sort(priced.begin(), priced.end(),
                         [](line const& a, line const& b) { return a.model->vram_gb > b.model->vram_gb; });

    json::array rows;
    markdown::table table{"GPU", "VRAM", "On-demand", "Spot", "Reserved"};
    for (auto const& [m, row] : priced) {
        json::object o{{"gpu", m->id},          {"name", m->name},
                       {"vendor", m->vendor},   {"vram_gb", m->vram_gb},
                       {"on_demand", to_decimal(row->rates->on_demand)},
                       {"spot", to_decimal(row->rates->spot)},
                       {"reserved", to_decimal(row->rates->reserved)}};
        if (only) {
            auto const figures = pricing::published_figures(*row);
            o["median"] = figures.median;
            o["cap"] = figures.cap;
            o["observations"] = row->observations;
        }
        rows.push_back(std::move(o));
        table.add({m->id, std::to_string(m->vram_gb) + " GB", markdown::rate(row->rates->on_demand),
                   markdown::rate(row->rates->spot), markdown::rate(row->rates->reserved)});
    }

    std::string text = "Prices for " + pricing::to_string(sheet->week) + " (from " +
                       pricing::to_rfc3339(sheet->effective_from) + "), USD per GPU-hour, the same in every region; " +
                       "an n-GPU instance costs n times the rate.\n\n";
    if (rows.empty())
        text += "No priced model matches.\n";
    else
        text += table.str();
    if (only && !priced.empty()) {
        auto const figures = pricing::published_figures(*priced.front().row);
        text += "\nMarket median $" + figures.median + " from " + std::to_string(priced.front().row->observations) +
                " observations; on-demand is at most 70 % of it (cap $" + figures.cap + ").\n";
    }
    if (!unpriced_ids.empty())
        text += "\nNot priced this week (too few market observations): " + list_text(unpriced_ids) + ".\n";

    auto const count = rows.size();
    return {{{"week", pricing::to_string(sheet->week)},
             {"effective_from", pricing::to_rfc3339(sheet->effective_from)},
             {"effective_until", pricing::to_rfc3339(sheet->effective_until)},
             {"currency", "USD"},
             {"unit", "per GPU-hour"},
             {"count", count},
             {"rows", std::move(rows)},
             {"unpriced", std::move(unpriced)}},
            std::move(text)};
}

// ---- get_gpu ------------------------------------------------------------------------------------

constexpr std::array<std::string_view, 1> gpu_arguments{"gpu"};

tool_result gpu(data_view const& data, json::object const* raw)
{
    arguments args;
    if (auto bad = read_arguments(raw, gpu_arguments, args))
        return std::move(*bad);
    auto const id = args.take("gpu");
    if (!id)
        return refuse("gpu: required; accepted: a catalog id such as h100-sxm");
    auto const found = pricing::find_gpu_parameter("gpu", *id, data.catalog());
    if (!found)
        return refused_parameter(found.err());
    auto const& m = **found;

    json::array profiles;
    for (auto const& p : m.mig_profiles)
        profiles.push_back(json::object{{"name", p.name},
                                        {"memory_gb", p.memory_gb},
                                        {"compute_sevenths", p.compute_slices},
                                        {"max_instances", p.max_instances}});
    auto const score = pricing::compute_power_score(m.fp16_dense_tflops);
    json::value power = nullptr;
    if (score)
        power = json::object{{"value", pricing::to_string(*score)}, {"confirmed", score->confirmed}};

    json::value price = nullptr;
    std::string price_text = "No price sheet is in effect yet.";
    if (auto const* sheet = data.current_sheet()) {
        auto const* row = sheet->find(m.id);
        json::object p{{"week", pricing::to_string(sheet->week)}, {"available", row && row->available()}};
        if (row && row->available()) {
            auto const figures = pricing::published_figures(*row);
            p["on_demand"] = figures.on_demand;
            p["spot"] = figures.spot;
            p["reserved"] = figures.reserved;
            p["median"] = figures.median;
            price_text = "Price " + pricing::to_string(sheet->week) + ": on-demand " +
                         markdown::rate(row->rates->on_demand) + ", spot " + markdown::rate(row->rates->spot) +
                         ", reserved " + markdown::rate(row->rates->reserved) + " per GPU-hour (market median $" +
                         figures.median + ").";
        } else {
            p["reason"] = row ? row->unavailable_reason : "not on this week's sheet";
            price_text = "Not priced in " + pricing::to_string(sheet->week) + ": " + p["reason"].as_string().c_str() + ".";
        }
        price = std::move(p);
    }

    std::string text = "**" + m.name + "** (`" + m.id + "`): " + m.vendor + " " + m.architecture + ", " +
                       std::to_string(m.vram_gb) + " GB " + m.memory_type + ", " +
                       std::to_string(m.memory_bandwidth_gbs) + " GB/s, dense FP16 " + m.fp16_dense_tflops.value +
                       " TFLOPS" + (m.fp16_dense_tflops.confirmed ? "" : " (unconfirmed)") +
                       (score ? ", PowerScore " + pricing::to_string(*score) : std::string()) + ".\n" +
                       "Instances: up to " + std::to_string(m.max_gpus_per_instance) + " GPUs, " +
                       std::to_string(m.max_vcpus) + " vCPUs, " + std::to_string(m.max_memory_gib) +
                       " GiB, CPU " + list_text(m.cpu_generations) + "; MIG: " +
                       (m.mig_max_instances > 0 ? "up to " + std::to_string(m.mig_max_instances) + " instances"
                                                : std::string("no")) +
                       "; " + std::to_string(m.regions.size()) + " regions.\n" + price_text + "\n";

    return {{{"gpu", m.id},
             {"name", m.name},
             {"vendor", m.vendor},
             {"architecture", m.architecture},
             {"form_factor", m.form_factor},
             {"vram_gb", m.vram_gb},
             {"memory_type", m.memory_type},
             {"memory_bandwidth_gbs", m.memory_bandwidth_gbs},
             {"fp16_dense_tflops", figure_json(m.fp16_dense_tflops)},
             {"power_score", std::move(power)},
             {"tdp_w", figure_json(m.tdp_w)},
             {"nvlink_gbs", m.nvlink_gbs ? json::value(figure_json(*m.nvlink_gbs)) : json::value(nullptr)},
             {"mig", {{"max_instances", m.mig_max_instances}, {"profiles", std::move(profiles)}}},
             {"instance_limits",
              {{"max_gpus", m.max_gpus_per_instance},
               {"max_vcpus", m.max_vcpus},
               {"max_memory_gib", m.max_memory_gib},
               {"cpu_generations", strings(m.cpu_generations)}}},
             {"regions", {{"count", m.regions.size()}, {"codes", strings(m.regions)}}},
             {"price", std::move(price)},
             {"source", m.source}},
            std::move(text)};
}

// ---- compare_gpus -------------------------------------------------------------------------------

constexpr std::array<std::string_view, 1> compare_arguments{"gpus"};

tool_result compare(data_view const& data, json::object const* raw)
{
    arguments args;
    if (auto bad = read_arguments(raw, compare_arguments, args, compare_arguments))
        return std::move(*bad);
    auto const& cat = data.catalog();
    auto const ids = pricing::parse_gpu_list("gpus", args.take("gpus"), cat);
    if (!ids)
        return refused_parameter(ids.err());
    auto const* sheet = data.current_sheet();
    auto const result = pricing::compare_gpus(*ids, cat, sheet);
    if (!result)
        return refuse(result.err().message);

    json::array rows;
    markdown::table table{"GPU", "VRAM", "GB/s", "PowerScore", "On-demand", "per 100 PowerScore", "per GB VRAM"};
    for (auto const& r : result->rows) {
        json::object o{{"gpu", r.gpu},
                       {"name", gpu_name(data, r.gpu)},
                       {"vram_gb", r.vram_gb},
                       {"memory_bandwidth_gbs", r.memory_bandwidth_gbs},
                       {"fp16_dense_tflops", micro_text(r.micro_tflops)},
                       {"power_score", pricing::to_string(r.score)},
                       {"rates", optional_rates(r.rates)},
                       {"per_100_power_score", optional_money(r.per_100_power_score)},
                       {"per_gb_vram_hour", optional_money(r.per_gb_vram_hour)}};
        if (!r.rates)
            o["reason"] = r.unpriced_reason;
        rows.push_back(std::move(o));
        table.add({r.gpu, std::to_string(r.vram_gb) + " GB", std::to_string(r.memory_bandwidth_gbs),
                   pricing::to_string(r.score), r.rates ? markdown::rate(r.rates->on_demand) : "not priced",
                   r.per_100_power_score ? markdown::rate(*r.per_100_power_score) : "-",
                   r.per_gb_vram_hour ? markdown::rate(*r.per_gb_vram_hour) : "-"});
    }
    auto const& w = result->winners;
    json::object winners{{"lowest_on_demand", strings(w.lowest_price[0])},
                         {"lowest_spot", strings(w.lowest_price[1])},
                         {"lowest_reserved", strings(w.lowest_price[2])},
                         {"most_vram", strings(w.most_vram)},
                         {"most_bandwidth", strings(w.most_bandwidth)},
                         {"highest_power_score", strings(w.highest_power_score)},
                         {"lowest_price_per_power_score", strings(w.lowest_price_per_power_score)},
                         {"lowest_price_per_gb_vram", strings(w.lowest_price_per_gb_vram)}};
    std::string text = "Comparison" + (sheet ? " at " + pricing::to_string(sheet->week) + " prices" : std::string()) +
                       " (USD per GPU-hour, on-demand):\n\n" + table.str() + "\nCheapest on-demand: " +
                       (w.lowest_price[0].empty() ? std::string("none priced") : list_text(w.lowest_price[0])) +
                       "; most VRAM: " + list_text(w.most_vram) +
                       "; best price per PowerScore: " +
                       (w.lowest_price_per_power_score.empty() ? std::string("none priced")
                                                               : list_text(w.lowest_price_per_power_score)) +
                       ".\n";
    return {{{"week", sheet ? json::value(pricing::to_string(sheet->week)) : json::value(nullptr)},
             {"currency", "USD"},
             {"rows", std::move(rows)},
             {"winners", std::move(winners)}},
            std::move(text)};
}

// ---- estimate_job_cost --------------------------------------------------------------------------

tool_result estimate(data_view const& data, json::object const* raw)
{
    arguments args;
    if (auto bad = read_arguments(raw, pricing::estimate_parameter_names, args))
        return std::move(*bad);
    pricing::estimate_parameters const params{
        args.take("gpu"),        args.take("gpus"),          args.take("seconds"),    args.take("hours"),
        args.take("tier"),       args.take("storage_gb"),    args.take("storage_hours"), args.take("egress_gb"),
        args.take("ingress_gb"), args.take("tokens_per_second"), args.take("images_per_hour")};
    auto const& cat = data.catalog();
    auto const job = pricing::parse_job(params, cat);
    if (!job)
        return refused_parameter(job.err());
    auto const* sheet = data.current_sheet();
    if (!sheet)
        return no_sheet();
    auto const e = pricing::estimate_job(*job, sheet->find(job->gpu));
    if (!e)
        return refuse(e.err().message);

    json::array lines;
    markdown::table table{"Item", "Quantity", "Unit rate", "Amount"};
    for (auto const& l : e->lines) {
        bool const gpu_time = l.kind == pricing::line_kind::gpu_time;
        bool const storage = l.kind == pricing::line_kind::storage;
        std::string const unit = gpu_time ? "GPU-hour" : (storage ? "GB-month" : "GB");
        lines.push_back(json::object{{"item", pricing::to_string(l.kind)},
                                     {"quantity", l.quantity.text},
                                     {"unit", unit},
                                     {"unit_rate", to_decimal(l.unit_rate)},
                                     {"amount", to_decimal(l.amount)}});
        if (gpu_time || l.amount.micros() != 0)
            table.add({std::string(pricing::to_string(l.kind)), l.quantity.text + " " + unit,
                       markdown::rate(l.unit_rate), "$" + to_decimal(l.amount)});
    }
    json::array tiers;
    std::string tier_text;
    for (auto const& t : e->tiers) {
        json::object o{{"tier", pricing::to_string(t.billed)},
                       {"per_gpu_hour", to_decimal(t.per_gpu_hour)},
                       {"gpu_time", to_decimal(t.gpu_time)},
                       {"total", to_decimal(t.total)},
                       {"total_display", markdown::cents(t.total)}};
        if (t.per_work)
            o["per_work"] = to_decimal(*t.per_work);
        tiers.push_back(std::move(o));
        if (!tier_text.empty())
            tier_text += ", ";
        tier_text += std::string(pricing::to_string(t.billed)) + " " + markdown::cents(t.total);
    }
    json::value throughput = nullptr;
    std::string work_text;
    if (job->work) {
        bool const tokens = job->work->unit == pricing::work_unit::tokens_per_second;
        throughput = json::object{{"unit", tokens ? "tokens_per_second" : "images_per_hour"},
                                  {"rate", micro_text(job->work->micro_rate)},
                                  {tokens ? "cost_per_million_tokens" : "cost_per_image", optional_money(e->per_work)}};
        if (e->per_work)
            work_text = std::string("\nAt the throughput you gave: $") + to_decimal(*e->per_work) +
                        (tokens ? " per million tokens" : " per image") + " (GPU time only).\n";
    }
    auto const& r = e->reserved;
    std::string text = "Estimate for " + std::to_string(job->gpus) + " × " + job->gpu + ", " +
                       hours_text(job->duration_us) + " h, " + std::string(pricing::to_string(job->billed)) + " (" +
                       pricing::to_string(sheet->week) + " rates, billed per second):\n\n" + table.str() +
                       "\n**Total: " + markdown::cents(e->total) + "** (exactly $" + to_decimal(e->total) +
                       "). Same job by tier: " + tier_text + ".\n" + work_text +
                       "A reserved term commits to " + std::to_string(r.months) + " months: " +
                       markdown::cents(r.commitment) + ", worth it above " + std::to_string(r.break_even_percent) +
                       " % utilisation.\n";

    return {{{"gpu", job->gpu},
             {"name", gpu_name(data, job->gpu)},
             {"week", pricing::to_string(sheet->week)},
             {"currency", "USD"},
             {"tier", pricing::to_string(job->billed)},
             {"gpus", job->gpus},
             {"duration", {{"seconds", pricing::decimal_string(job->duration_us, 6, 0)}, {"hours", hours_text(job->duration_us)}}},
             {"lines", std::move(lines)},
             {"total", to_decimal(e->total)},
             {"total_display", markdown::cents(e->total)},
             {"effective_per_gpu_hour", to_decimal(e->effective_per_gpu_hour)},
             {"tiers", std::move(tiers)},
             {"reserved_term",
              {{"months", r.months},
               {"hours", r.hours},
               {"gpus", r.gpus},
               {"per_gpu_hour", to_decimal(r.per_gpu_hour)},
               {"commitment", to_decimal(r.commitment)},
               {"break_even_utilization_percent", r.break_even_percent}}},
             {"throughput", std::move(throughput)}},
            std::move(text)};
}

// ---- size_model ---------------------------------------------------------------------------------

std::string needed_gb_text(std::int64_t units)
{
    return pricing::decimal_string(units, pricing::needed_gb_decimals, 0);
}

json::value mig_json(std::optional<pricing::mig_fit> const& mig)
{
    if (!mig)
        return nullptr;
    return json::object{{"profile", mig->profile},
                        {"memory_gb", mig->memory_gb},
                        {"compute_sevenths", mig->compute_slices},
                        {"instances_per_gpu", mig->instances_per_gpu}};
}

tool_result size(data_view const& data, json::object const* raw)
{
    arguments args;
    if (auto bad = read_arguments(raw, pricing::sizing_parameter_names, args))
        return std::move(*bad);
    pricing::sizing_parameters const params{args.take("params_b"), args.take("precision"), args.take("gpu")};
    auto const& cat = data.catalog();
    auto const spec = pricing::parse_model_spec(params, cat);
    if (!spec)
        return refused_parameter(spec.err());
    auto const result = pricing::size_model(*spec, cat, data.current_sheet());

    json::array rows;
    markdown::table table{"GPU", "VRAM", "GPUs needed", "Practical", "On-demand / h"};
    for (auto const& r : result.rows) {
        rows.push_back(json::object{
            {"gpu", r.gpu},
            {"vram_gb", r.vram_gb},
            {"gpus_needed", r.gpus_needed},
            {"practical_gpus", r.practical_gpus ? json::value(*r.practical_gpus) : json::value(nullptr)},
            {"fits_one_node", r.fits_one_node},
            {"fits_one_instance", r.fits_one_instance},
            {"mig", mig_json(r.mig)},
            {"hourly", optional_rates(r.hourly)}});
        std::string hourly = r.hourly ? markdown::rate(r.hourly->on_demand)
                                      : (!r.fits_one_node ? "several nodes"
                                                          : (!r.fits_one_instance ? "over instance limit" : "not priced"));
        table.add({r.gpu, std::to_string(r.vram_gb) + " GB", std::to_string(r.gpus_needed),
                   r.practical_gpus ? std::to_string(*r.practical_gpus) : "-", std::move(hourly)});
    }
    json::array cheapest;
    std::string cheapest_text;
    for (auto const& c : result.cheapest) {
        cheapest.push_back(json::object{{"tier", pricing::to_string(c.billed)},
                                        {"gpu", c.gpu},
                                        {"gpus", c.gpus},
                                        {"hourly", to_decimal(c.hourly)}});
        if (!cheapest_text.empty())
            cheapest_text += "; ";
        cheapest_text += std::string(pricing::to_string(c.billed)) + ": " + std::to_string(c.gpus) + " × " + c.gpu +
                         " at " + markdown::rate(c.hourly) + "/h";
    }
    std::string const needed = needed_gb_text(result.needed_units);
    std::string text = micro_text(spec->micro_params_b) + " B parameters at " +
                       std::string(pricing::to_string(spec->weights)) + " need " + needed +
                       " GB (parameters × bytes per parameter × 1.5).\n\n" + table.str() + "\nCheapest: " +
                       (cheapest_text.empty() ? std::string("no priced configuration fits one instance") : cheapest_text) +
                       ".\n";
    return {{{"params_b", micro_text(spec->micro_params_b)},
             {"precision", pricing::to_string(spec->weights)},
             {"needed_gb", needed},
             {"rows", std::move(rows)},
             {"cheapest", std::move(cheapest)}},
            std::move(text)};
}

// ---- find_cheapest ------------------------------------------------------------------------------

constexpr std::array<std::string_view, 5> cheapest_arguments{"params_b", "precision", "vram_gb", "hours", "tier"};
constexpr std::int64_t max_vram_gb = 10'000'000;
constexpr std::size_t cheapest_alternatives = 4;

tool_result cheapest(data_view const& data, json::object const* raw)
{
    arguments args;
    if (auto bad = read_arguments(raw, cheapest_arguments, args))
        return std::move(*bad);
    auto const& cat = data.catalog();
    auto params_b = args.take("params_b");
    auto precision = args.take("precision");
    auto const vram = args.take("vram_gb");
    if (vram && (params_b || precision))
        return refuse("give either params_b with precision (a model to fit) or vram_gb (memory needed), not both");
    if (!vram && !params_b && !precision)
        return refuse("params_b and precision (a model to fit), or vram_gb (memory needed): one is required");

    std::int64_t needed_units = 0;
    json::value params_json = nullptr, precision_json = nullptr;
    if (vram) {
        auto const gb = pricing::parse_quantity("vram_gb", *vram, rules::quantity_decimals, 1,
                                                max_vram_gb * pricing::micro_units);
        if (!gb)
            return refuse(gb.err().message);
        needed_units = *gb * (pricing::needed_units_per_gb / pricing::micro_units);
    } else {
        auto const spec = pricing::parse_model_spec({std::move(params_b), std::move(precision), std::nullopt}, cat);
        if (!spec)
            return refused_parameter(spec.err());
        needed_units = pricing::needed_memory_units(spec->micro_params_b, spec->weights);
        params_json = micro_text(spec->micro_params_b);
        precision_json = pricing::to_string(spec->weights);
    }
    std::int64_t micro_hours = pricing::micro_units;
    if (auto const h = args.take("hours")) {
        auto const parsed = pricing::parse_quantity("hours", *h, rules::quantity_decimals, 1,
                                                    std::int64_t{rules::max_job_hours} * pricing::micro_units);
        if (!parsed)
            return refuse(parsed.err().message);
        micro_hours = *parsed;
    }
    std::int64_t const duration_us = micro_hours * (pricing::microseconds_per_hour / pricing::micro_units);
    pricing::tier tier = pricing::tier::on_demand;
    if (auto const t = args.take("tier")) {
        auto const parsed = pricing::parse_tier(*t);
        if (!parsed)
            return refuse("tier: " + parsed.err().message);
        tier = *parsed;
    }
    auto const* sheet = data.current_sheet();
    if (!sheet)
        return no_sheet();

    struct option {
        std::string gpu;
        int gpus;
        money per_gpu_hour;
        money hourly;
    };
    std::vector<option> options;
    for (auto const& m : cat.gpus) {
        auto const row = pricing::size_on(m, needed_units, sheet->find(m.id));
        if (!row.hourly || !row.practical_gpus)
            continue;
        options.push_back({m.id, *row.practical_gpus, sheet->find(m.id)->rates->of(tier), row.hourly->of(tier)});
    }
    std::stable_sort(options.begin(), options.end(), [](option const& a, option const& b) {
        return a.hourly != b.hourly ? a.hourly < b.hourly : a.gpus < b.gpus;
    });

    auto option_json = [&](option const& o) {
        money const total = pricing::gpu_time_cost(o.per_gpu_hour, o.gpus, duration_us);
        return json::object{{"gpu", o.gpu},
                            {"name", gpu_name(data, o.gpu)},
                            {"gpus", o.gpus},
                            {"per_gpu_hour", to_decimal(o.per_gpu_hour)},
                            {"hourly", to_decimal(o.hourly)},
                            {"total", to_decimal(total)},
                            {"total_display", markdown::cents(total)}};
    };
    json::value best = nullptr;
    json::array alternatives;
    std::string const hours = micro_text(micro_hours);
    std::string const needed = needed_gb_text(needed_units);
    std::string text;
    if (options.empty()) {
        text = "No priced configuration of one instance (up to 8 GPUs) holds " + needed + " GB in " +
               pricing::to_string(sheet->week) + "; the model needs several nodes or a smaller precision.\n";
    } else {
        auto const b = option_json(options.front());
        text = "Cheapest for " + needed + " GB, " + hours + " h " + std::string(pricing::to_string(tier)) + " (" +
               pricing::to_string(sheet->week) + "): **" + std::to_string(options.front().gpus) + " × " +
               options.front().gpu + "** at " + markdown::rate(options.front().hourly) + "/h, " +
               b.at("total_display").as_string().c_str() + " in all (GPU time only, billed per second).\n";
        best = b;
        markdown::table table{"GPU", "GPUs", "Per hour", "Total"};
        for (std::size_t i = 1; i < options.size() && i <= cheapest_alternatives; ++i) {
            auto o = option_json(options[i]);
            table.add({options[i].gpu, std::to_string(options[i].gpus), markdown::rate(options[i].hourly),
                       o.at("total_display").as_string().c_str()});
            alternatives.push_back(std::move(o));
        }
        if (!table.empty())
            text += "\nNext cheapest:\n\n" + table.str();
    }
    return {{{"needed_gb", needed},
             {"params_b", std::move(params_json)},
             {"precision", std::move(precision_json)},
             {"hours", hours},
             {"tier", pricing::to_string(tier)},
             {"week", pricing::to_string(sheet->week)},
             {"cheapest", std::move(best)},
             {"alternatives", std::move(alternatives)}},
            std::move(text)};
}

// ---- check_instance -----------------------------------------------------------------------------

tool_result instance(data_view const& data, json::object const* raw)
{
    arguments args;
    if (auto bad = read_arguments(raw, pricing::instance_parameter_names, args))
        return std::move(*bad);
    pricing::instance_parameters const params{args.take("gpu"),        args.take("gpus"),
                                              args.take("vcpus"),      args.take("memory_gib"),
                                              args.take("cpu_generation"), args.take("region")};
    auto const& cat = data.catalog();
    auto const wanted = pricing::parse_instance_request(params, cat);
    if (!wanted)
        return refused_parameter(wanted.err());
    auto const check = pricing::check_instance(*wanted, *cat.find(wanted->gpu));

    json::array problems;
    std::string problem_text;
    for (auto const& p : check.problems) {
        json::object o{{"limit", p.limit}};
        if (p.limit == "cpu_generation") {
            o["allowed_generations"] = strings(p.allowed_generations);
            o["requested_generation"] = p.requested_generation;
            problem_text += "- cpu_generation " + p.requested_generation + " is not one of " +
                            list_text(p.allowed_generations) + "\n";
        } else {
            o["allowed"] = p.allowed;
            o["requested"] = p.requested;
            problem_text += "- " + p.limit + ": " + std::to_string(p.requested) + " requested, at most " +
                            std::to_string(p.allowed) + "\n";
        }
        problems.push_back(std::move(o));
    }
    auto const& q = check.request;
    std::string const shape = std::to_string(q.gpus) + " × " + q.gpu + ", " + std::to_string(q.vcpus) + " vCPUs, " +
                              std::to_string(q.memory_gib) + " GiB, CPU " + q.cpu_generation +
                              (q.region.empty() ? std::string() : " in " + q.region);
    std::string text = check.ok() ? "OK: " + shape + " is within the limits.\n"
                                  : "vm-specs-mismatch: " + shape + " breaks these limits:\n" + problem_text;
    return {{{"status", check.ok() ? "ok" : "vm-specs-mismatch"},
             {"gpu", q.gpu},
             {"gpus", q.gpus},
             {"vcpus", q.vcpus},
             {"memory_gib", q.memory_gib},
             {"cpu_generation", q.cpu_generation},
             {"region", text_or_null(q.region)},
             {"limits",
              {{"max_gpus_per_instance", check.limits.max_gpus_per_instance},
               {"max_vcpus", check.limits.max_vcpus},
               {"max_memory_gib", check.limits.max_memory_gib},
               {"cpu_generations", strings(check.limits.cpu_generations)}}},
             {"problems", std::move(problems)}},
            std::move(text)};
}

// ---- explain_term -------------------------------------------------------------------------------

constexpr std::array<std::string_view, 2> term_arguments{"term", "lang"};
constexpr std::size_t max_other_matches = 5;

tool_result explain(data_view const& data, json::object const* raw)
{
    arguments args;
    if (auto bad = read_arguments(raw, term_arguments, args))
        return std::move(*bad);
    auto const term = args.take("term");
    if (!term || glossary::words(*term).empty())
        return refuse("term: required; accepted: a glossary slug (gpu-hour), a term's name in English or French "
                      "(accents optional) or words to search for");
    glossary::language lang = glossary::language::en;
    if (auto const l = args.take("lang")) {
        auto const parsed = glossary::parse_language(*l);
        if (!parsed)
            return refuse("lang: " + pricing::quote(*l) + " is not a glossary language; accepted: en, fr");
        lang = *parsed;
    }
    auto const* doc = data.glossary(lang);
    auto const* sheet = data.current_sheet();
    if (!doc || !sheet)
        return refuse("the glossary is unavailable: " + std::string(data.glossary_problem()));

    std::string const folded = glossary::fold(*term);
    glossary::term_ref found = doc->find_term(folded);
    glossary::entry const* question = found ? nullptr : doc->find_question(folded);
    std::vector<std::string> others;
    if (!found && !question) {
        // A name or alias as written (accents and case aside), then a search.
        for (auto const& t : doc->terms()) {
            bool same = glossary::fold(t.term->name) == folded;
            for (auto const& a : t.term->aliases)
                same = same || glossary::fold(a) == folded;
            if (same) {
                found = t;
                break;
            }
        }
        auto const hits = glossary::search(*doc, *term);
        for (auto const& h : hits) {
            if (!found) {
                found = h;
                continue;
            }
            if (h.term != found.term && others.size() < max_other_matches)
                others.push_back(h.term->slug);
        }
    }
    if (!found && !question) {
        std::string slugish;
        for (auto const& w : glossary::words(*term)) {
            if (!slugish.empty())
                slugish += '-';
            slugish += w;
        }
        auto const suggestions = glossary::suggest(*doc, slugish);
        return refuse("no glossary entry matches " + pricing::quote(term->substr(0, 80)) +
                      (suggestions.empty() ? std::string() : "; closest: " + list_text(suggestions)) +
                      "; accepted: a slug, a term's name or words it contains (lang en or fr)");
    }
    glossary::entry const& e = question ? *question : *found.term;
    json::object o{{"lang", glossary::to_string(lang)},
                   {"week", pricing::to_string(sheet->week)},
                   {"slug", e.slug},
                   {"kind", question ? "question" : "term"},
                   {"name", e.name},
                   {"category", question ? json::value(nullptr) : json::value(found.cat->slug)},
                   {"category_name", question ? json::value(nullptr) : json::value(found.cat->name)},
                   {"text", e.text},
                   {"related", strings(e.related)},
                   {"aliases", strings(e.aliases)},
                   {"other_matches", strings(others)}};
    std::string text = "**" + e.name + "** (`" + e.slug + "`): " + e.text + "\n\nRelated: " + list_text(e.related) +
                       "." + (others.empty() ? std::string() : " Other matches: " + list_text(others) + ".") + "\n";
    return {std::move(o), std::move(text)};
}

// ---- get_methodology ----------------------------------------------------------------------------

constexpr std::array<std::string_view, 0> no_arguments{};

std::string ratio_text(rules::ratio r) { return pricing::decimal_string(r.numerator * 100 / r.denominator, 2, 2); }

tool_result methodology(data_view const&, json::object const* raw)
{
    arguments args;
    if (auto bad = read_arguments(raw, no_arguments, args))
        return std::move(*bad);
    std::string const od = ratio_text(rules::on_demand_of_median);
    std::string const spot = ratio_text(rules::spot_of_on_demand);
    std::string const reserved = ratio_text(rules::reserved_of_on_demand);
    json::object o{
        {"reference",
         "the median of the per-GPU hourly prices of on-demand listings observed on the public GPU marketplace in "
         "the " + std::to_string(rules::window_days) + " days before the re-check (every Monday 00:00 UTC)"},
        {"median", "odd count: the middle value; even count: the mean of the two middle values, exactly"},
        {"min_observations", rules::min_observations},
        {"tiers",
         {{"on_demand", {{"of", "median"}, {"ratio", od}, {"rounding", "down to the mill ($0.001)"}}},
          {"spot", {{"of", "on_demand"}, {"ratio", spot}, {"rounding", "down to the mill ($0.001)"}}},
          {"reserved",
           {{"of", "on_demand"},
            {"ratio", reserved},
            {"rounding", "down to the mill ($0.001)"},
            {"term_months", rules::reserved_term_months},
            {"break_even_utilization_percent", rules::reserved_break_even_percent}}}}},
        {"cap", "every published on-demand rate is at most " + od + " × the median, checked exactly before a sheet is "
                "published"},
        {"billing",
         {{"granularity", "per second"},
          {"proration", "rate × seconds / 3600, rounded half-up to the micro-dollar"},
          {"gpus", "an n-GPU instance costs n × the per-GPU rate (1 to " +
                       std::to_string(rules::max_gpus_per_instance) + " GPUs)"},
          {"storage_per_gb_month", to_decimal(rules::storage_per_gb_month)},
          {"month_hours", rules::month_hours},
          {"network_per_gb", to_decimal(rules::network_per_gb)},
          {"regions", "the same prices in every region"}}},
        {"account",
         {{"prepaid", true},
          {"min_top_up", to_decimal(rules::min_top_up)},
          {"credits_expire", false},
          {"sla_target_percent", pricing::decimal_string(rules::sla_target_permille, 1, 1)}}},
        {"power_score",
         "100 × dense FP16 tensor TFLOPS (FP32 accumulate, no sparsity) / the RTX 3090's (71), one decimal, "
         "rounded half-up"},
        {"sizing", "memory = parameters × bytes per parameter × 1.5 (fp32 4, fp16/bf16 2, fp8/int8 1, int4 0.5); "
                   "GPUs = ceil(memory / VRAM), offered as the next power of two up to 8"},
        {"audit", "every week's observations and the SHA-256 of their canonical CSV are published; "
                  "`lowcostgpu audit --url BASE` recomputes a sheet and reports any difference"}};
    std::string text =
        "**How LowCostGPU prices** (USD per GPU-hour, exact integer arithmetic):\n\n"
        "- On-demand = market median × " + od + ", rounded down to the mill; never above " + od +
        " × the median.\n"
        "- Spot = " + spot + " × on-demand; reserved (" + std::to_string(rules::reserved_term_months) +
        "-month term) = " + reserved + " × on-demand, both rounded down to the mill; reserved pays off above " +
        std::to_string(rules::reserved_break_even_percent) + " % utilisation.\n"
        "- Median of the on-demand listings of the " + std::to_string(rules::window_days) +
        " days before each Monday 00:00 UTC; fewer than " + std::to_string(rules::min_observations) +
        " observations: no price that week.\n"
        "- Billing per second; n GPUs cost n × the rate; storage $" + to_decimal(rules::storage_per_gb_month) +
        " per GB-month (" + std::to_string(rules::month_hours) + " h); network $" + to_decimal(rules::network_per_gb) +
        " per GB in and out; same prices in every region.\n"
        "- Prepaid balance, minimum top-up $" + pricing::to_cents(rules::min_top_up) +
        ", credits never expire; SLA target 99.9 % monthly.\n";
    return {std::move(o), std::move(text)};
}

// ---- the table ----------------------------------------------------------------------------------

using tool_fn = tool_result (*)(data_view const&, json::object const*);

struct tool_entry {
    std::string_view name;
    tool_fn fn;
};

constexpr tool_entry tools[] = {
    {"get_prices", prices},       {"get_gpu", gpu},           {"compare_gpus", compare},
    {"estimate_job_cost", estimate}, {"size_model", size},    {"find_cheapest", cheapest},
    {"check_instance", instance}, {"explain_term", explain},  {"get_methodology", methodology},
};

// The definitions, written as JSON so they read like the tools/list answer they are.
constexpr char const* definitions_json = R"json([
{"name":"get_prices","title":"GPU prices this week",
 "description":"The price sheet in effect: per-GPU hourly rates (on-demand, spot, reserved) of every priced GPU model, as a compact table. On-demand is at most 70 % of the public market median; spot is 50 % and reserved (3-month term) 65 % of on-demand. Filter by gpu, vendor, architecture, min_vram_gb or max_price; sort by gpu, price or vram. Give gpu alone to also get that model's market median and cap.",
 "inputSchema":{"type":"object","properties":{
  "gpu":{"type":"string","description":"One catalog id, e.g. h100-sxm"},
  "vendor":{"type":"string","description":"NVIDIA or AMD (any letter case)"},
  "architecture":{"type":"string","description":"A catalog architecture such as Hopper (any letter case)"},
  "min_vram_gb":{"type":"number","minimum":0,"description":"Only models with at least this much memory, in GB"},
  "max_price":{"type":"number","minimum":0,"description":"Only models whose rate in `tier` is at most this, USD per GPU-hour"},
  "tier":{"type":"string","enum":["on_demand","spot","reserved"],"description":"The tier max_price and sort=price look at (default on_demand)"},
  "sort":{"type":"string","enum":["gpu","price","vram"],"description":"gpu (default, catalog order), price (cheapest first) or vram (largest first)"}},
  "additionalProperties":false},
 "outputSchema":{"type":"object","required":["week","effective_from","effective_until","currency","unit","count","rows","unpriced"],"properties":{
  "week":{"type":"string"},"effective_from":{"type":"string"},"effective_until":{"type":"string"},
  "currency":{"type":"string"},"unit":{"type":"string"},"count":{"type":"integer"},
  "rows":{"type":"array","items":{"type":"object","required":["gpu","name","vendor","vram_gb","on_demand","spot","reserved"],"properties":{
   "gpu":{"type":"string"},"name":{"type":"string"},"vendor":{"type":"string"},"vram_gb":{"type":"integer"},
   "on_demand":{"type":"string"},"spot":{"type":"string"},"reserved":{"type":"string"},
   "median":{"type":"string"},"cap":{"type":"string"},"observations":{"type":"integer"}}}},
  "unpriced":{"type":"array","items":{"type":"object","required":["gpu","reason"],"properties":{"gpu":{"type":"string"},"reason":{"type":"string"}}}}}}},
{"name":"get_gpu","title":"One GPU model",
 "description":"A GPU model of the catalog: memory, bandwidth, dense FP16 TFLOPS and PowerScore (RTX 3090 = 100), TDP, NVLink, MIG profiles, instance limits (GPUs, vCPUs, memory, CPU generations), regions and this week's price.",
 "inputSchema":{"type":"object","properties":{"gpu":{"type":"string","description":"A catalog id, e.g. h100-sxm"}},"required":["gpu"],"additionalProperties":false},
 "outputSchema":{"type":"object","required":["gpu","name","vendor","architecture","vram_gb","memory_bandwidth_gbs","fp16_dense_tflops","power_score","mig","instance_limits","regions","price"],"properties":{
  "gpu":{"type":"string"},"name":{"type":"string"},"vendor":{"type":"string"},"architecture":{"type":"string"},"form_factor":{"type":"string"},
  "vram_gb":{"type":"integer"},"memory_type":{"type":"string"},"memory_bandwidth_gbs":{"type":"integer"},
  "fp16_dense_tflops":{"$ref":"#/$defs/figure"},"power_score":{"anyOf":[{"$ref":"#/$defs/figure"},{"type":"null"}]},
  "tdp_w":{"$ref":"#/$defs/figure"},"nvlink_gbs":{"anyOf":[{"$ref":"#/$defs/figure"},{"type":"null"}]},
  "mig":{"type":"object","required":["max_instances","profiles"],"properties":{"max_instances":{"type":"integer"},"profiles":{"type":"array","items":{"type":"object","required":["name","memory_gb","compute_sevenths","max_instances"]}}}},
  "instance_limits":{"type":"object","required":["max_gpus","max_vcpus","max_memory_gib","cpu_generations"],"properties":{"max_gpus":{"type":"integer"},"max_vcpus":{"type":"integer"},"max_memory_gib":{"type":"integer"},"cpu_generations":{"type":"array","items":{"type":"string"}}}},
  "regions":{"type":"object","required":["count","codes"],"properties":{"count":{"type":"integer"},"codes":{"type":"array","items":{"type":"string"}}}},
  "price":{"anyOf":[{"type":"null"},{"type":"object","required":["week","available"],"properties":{"week":{"type":"string"},"available":{"type":"boolean"},"on_demand":{"type":"string"},"spot":{"type":"string"},"reserved":{"type":"string"},"median":{"type":"string"},"reason":{"type":"string"}}}]},
  "source":{"type":"string"}},
  "$defs":{"figure":{"type":"object","required":["value","confirmed"],"properties":{"value":{"type":"string"},"confirmed":{"type":"boolean"}}}}}},
{"name":"compare_gpus","title":"Compare GPU models",
 "description":"Side by side, 2 to 8 catalog models: memory, bandwidth, PowerScore, this week's rates, price per 100 PowerScore and per GB of VRAM, and the winners of each criterion (compared exactly).",
 "inputSchema":{"type":"object","properties":{"gpus":{"type":"array","items":{"type":"string"},"minItems":2,"maxItems":8,"description":"Catalog ids, e.g. [\"h100-sxm\", \"a100-80gb-sxm\"]"}},"required":["gpus"],"additionalProperties":false},
 "outputSchema":{"type":"object","required":["week","currency","rows","winners"],"properties":{
  "week":{"type":["string","null"]},"currency":{"type":"string"},
  "rows":{"type":"array","items":{"type":"object","required":["gpu","name","vram_gb","memory_bandwidth_gbs","fp16_dense_tflops","power_score","rates","per_100_power_score","per_gb_vram_hour"],"properties":{
   "gpu":{"type":"string"},"name":{"type":"string"},"vram_gb":{"type":"integer"},"memory_bandwidth_gbs":{"type":"integer"},
   "fp16_dense_tflops":{"type":"string"},"power_score":{"type":"string"},
   "rates":{"anyOf":[{"type":"null"},{"type":"object","required":["on_demand","spot","reserved"],"properties":{"on_demand":{"type":"string"},"spot":{"type":"string"},"reserved":{"type":"string"}}}]},
   "per_100_power_score":{"type":["string","null"]},"per_gb_vram_hour":{"type":["string","null"]},"reason":{"type":"string"}}}},
  "winners":{"type":"object","required":["lowest_on_demand","lowest_spot","lowest_reserved","most_vram","most_bandwidth","highest_power_score","lowest_price_per_power_score","lowest_price_per_gb_vram"],
   "additionalProperties":{"type":"array","items":{"type":"string"}}}}}},
{"name":"estimate_job_cost","title":"Cost of a job",
 "description":"Exact cost of a GPU job at this week's rates, billed per second: GPU time, storage ($0.08 per GB-month of 730 h) and network ($0.01 per GB), the same job in every tier, and the reserved 3-month commitment. Give gpu and exactly one of seconds or hours. The same numbers as GET /v1/estimate.",
 "inputSchema":{"type":"object","properties":{
  "gpu":{"type":"string","description":"A catalog id, e.g. h100-sxm"},
  "gpus":{"type":"integer","minimum":1,"maximum":8,"description":"GPUs in the instance (default 1, at most the model's limit)"},
  "seconds":{"type":"integer","minimum":1,"maximum":31536000,"description":"Duration in whole seconds"},
  "hours":{"type":"number","exclusiveMinimum":0,"maximum":8760,"description":"Duration in hours, up to 6 decimals"},
  "tier":{"type":"string","enum":["on_demand","spot","reserved"],"description":"Billed tier (default on_demand)"},
  "storage_gb":{"type":"number","minimum":0,"maximum":1000000,"description":"Volume size in GB"},
  "storage_hours":{"type":"number","exclusiveMinimum":0,"description":"How long the volume is kept (default: the job's duration); needs storage_gb"},
  "egress_gb":{"type":"number","minimum":0,"maximum":10000000,"description":"GB sent out"},
  "ingress_gb":{"type":"number","minimum":0,"maximum":10000000,"description":"GB received"},
  "tokens_per_second":{"type":"number","exclusiveMinimum":0,"description":"Your measured throughput, for the cost per million tokens"},
  "images_per_hour":{"type":"number","exclusiveMinimum":0,"description":"Your measured throughput, for the cost per image"}},
  "required":["gpu"],"additionalProperties":false},
 "outputSchema":{"type":"object","required":["gpu","name","week","currency","tier","gpus","duration","lines","total","total_display","effective_per_gpu_hour","tiers","reserved_term","throughput"],"properties":{
  "gpu":{"type":"string"},"name":{"type":"string"},"week":{"type":"string"},"currency":{"type":"string"},"tier":{"type":"string"},"gpus":{"type":"integer"},
  "duration":{"type":"object","required":["seconds","hours"],"properties":{"seconds":{"type":"string"},"hours":{"type":"string"}}},
  "lines":{"type":"array","items":{"type":"object","required":["item","quantity","unit","unit_rate","amount"],"properties":{"item":{"type":"string","enum":["gpu_time","storage","egress","ingress"]},"quantity":{"type":"string"},"unit":{"type":"string"},"unit_rate":{"type":"string"},"amount":{"type":"string"}}}},
  "total":{"type":"string"},"total_display":{"type":"string"},"effective_per_gpu_hour":{"type":"string"},
  "tiers":{"type":"array","items":{"type":"object","required":["tier","per_gpu_hour","gpu_time","total","total_display"],"properties":{"tier":{"type":"string"},"per_gpu_hour":{"type":"string"},"gpu_time":{"type":"string"},"total":{"type":"string"},"total_display":{"type":"string"},"per_work":{"type":"string"}}}},
  "reserved_term":{"type":"object","required":["months","hours","gpus","per_gpu_hour","commitment","break_even_utilization_percent"]},
  "throughput":{"anyOf":[{"type":"null"},{"type":"object","required":["unit","rate"],"properties":{"unit":{"type":"string","enum":["tokens_per_second","images_per_hour"]},"rate":{"type":"string"}}}]}}}},
{"name":"size_model","title":"GPUs a model needs",
 "description":"How many GPUs of each catalog model hold a model: memory = parameters × bytes per parameter × 1.5 (fp32 4, fp16/bf16 2, fp8/int8 1, int4 0.5), GPUs = ceil(memory / VRAM), offered as the next power of two up to 8; the smallest MIG slice that fits; hourly cost per tier; the cheapest configuration per tier.",
 "inputSchema":{"type":"object","properties":{
  "params_b":{"type":"number","exclusiveMinimum":0,"maximum":100000,"description":"Model size in billions of parameters, e.g. 70"},
  "precision":{"type":"string","enum":["fp32","fp16","bf16","fp8","int8","int4"],"description":"Weight precision"},
  "gpu":{"type":"string","description":"Only this catalog model (default: every model)"}},
  "required":["params_b","precision"],"additionalProperties":false},
 "outputSchema":{"type":"object","required":["params_b","precision","needed_gb","rows","cheapest"],"properties":{
  "params_b":{"type":"string"},"precision":{"type":"string"},"needed_gb":{"type":"string"},
  "rows":{"type":"array","items":{"type":"object","required":["gpu","vram_gb","gpus_needed","practical_gpus","fits_one_node","fits_one_instance","mig","hourly"],"properties":{
   "gpu":{"type":"string"},"vram_gb":{"type":"integer"},"gpus_needed":{"type":"integer"},"practical_gpus":{"type":["integer","null"]},
   "fits_one_node":{"type":"boolean"},"fits_one_instance":{"type":"boolean"},
   "mig":{"anyOf":[{"type":"null"},{"type":"object","required":["profile","memory_gb","compute_sevenths","instances_per_gpu"]}]},
   "hourly":{"anyOf":[{"type":"null"},{"type":"object","required":["on_demand","spot","reserved"]}]}}}},
  "cheapest":{"type":"array","items":{"type":"object","required":["tier","gpu","gpus","hourly"],"properties":{"tier":{"type":"string"},"gpu":{"type":"string"},"gpus":{"type":"integer"},"hourly":{"type":"string"}}}}}}},
{"name":"find_cheapest","title":"Cheapest configuration that fits",
 "description":"The cheapest single instance (1, 2, 4 or 8 GPUs of one model) that holds a model (params_b and precision) or a memory need (vram_gb), in a tier, with its exact GPU-time cost for a duration (hours, default 1), and the next cheapest alternatives.",
 "inputSchema":{"type":"object","properties":{
  "params_b":{"type":"number","exclusiveMinimum":0,"maximum":100000,"description":"Model size in billions of parameters (with precision)"},
  "precision":{"type":"string","enum":["fp32","fp16","bf16","fp8","int8","int4"],"description":"Weight precision (with params_b)"},
  "vram_gb":{"type":"number","exclusiveMinimum":0,"description":"Memory needed in GB, instead of params_b and precision"},
  "hours":{"type":"number","exclusiveMinimum":0,"maximum":8760,"description":"Duration in hours (default 1)"},
  "tier":{"type":"string","enum":["on_demand","spot","reserved"],"description":"Tier (default on_demand)"}},
  "additionalProperties":false},
 "outputSchema":{"type":"object","required":["needed_gb","params_b","precision","hours","tier","week","cheapest","alternatives"],"properties":{
  "needed_gb":{"type":"string"},"params_b":{"type":["string","null"]},"precision":{"type":["string","null"]},
  "hours":{"type":"string"},"tier":{"type":"string"},"week":{"type":"string"},
  "cheapest":{"anyOf":[{"type":"null"},{"$ref":"#/$defs/option"}]},
  "alternatives":{"type":"array","items":{"$ref":"#/$defs/option"}}},
  "$defs":{"option":{"type":"object","required":["gpu","name","gpus","per_gpu_hour","hourly","total","total_display"],"properties":{
   "gpu":{"type":"string"},"name":{"type":"string"},"gpus":{"type":"integer"},"per_gpu_hour":{"type":"string"},"hourly":{"type":"string"},"total":{"type":"string"},"total_display":{"type":"string"}}}}}},
{"name":"check_instance","title":"Does a GPU fit this instance?",
 "description":"Whether a GPU model attaches to an instance of a given shape: GPUs per instance, vCPUs, memory and CPU generation against the model's limits (in a region, when given). Answers ok, or vm-specs-mismatch with every broken limit.",
 "inputSchema":{"type":"object","properties":{
  "gpu":{"type":"string","description":"A catalog id"},
  "gpus":{"type":"integer","minimum":1,"maximum":64,"description":"GPUs in the instance (default 1)"},
  "vcpus":{"type":"integer","minimum":1,"maximum":4096},
  "memory_gib":{"type":"integer","minimum":1,"maximum":65536},
  "cpu_generation":{"type":"string","description":"e.g. v7"},
  "region":{"type":"string","description":"A region code (optional)"}},
  "required":["gpu","vcpus","memory_gib","cpu_generation"],"additionalProperties":false},
 "outputSchema":{"type":"object","required":["status","gpu","gpus","vcpus","memory_gib","cpu_generation","region","limits","problems"],"properties":{
  "status":{"type":"string","enum":["ok","vm-specs-mismatch"]},"gpu":{"type":"string"},"gpus":{"type":"integer"},"vcpus":{"type":"integer"},
  "memory_gib":{"type":"integer"},"cpu_generation":{"type":"string"},"region":{"type":["string","null"]},
  "limits":{"type":"object","required":["max_gpus_per_instance","max_vcpus","max_memory_gib","cpu_generations"]},
  "problems":{"type":"array","items":{"type":"object","required":["limit"],"properties":{"limit":{"type":"string"},"allowed":{"type":"integer"},"requested":{"type":"integer"},"allowed_generations":{"type":"array","items":{"type":"string"}},"requested_generation":{"type":"string"}}}}}}},
{"name":"explain_term","title":"Explain a term",
 "description":"A term of the LowCostGPU glossary (85 terms and 3 questions, English or French, with this week's figures): by slug, by name in either language (case and accents ignored) or by words it contains.",
 "inputSchema":{"type":"object","properties":{
  "term":{"type":"string","description":"A slug (gpu-hour), a name (Clé API, cle api) or words"},
  "lang":{"type":"string","enum":["en","fr"],"description":"Language of the answer (default en)"}},
  "required":["term"],"additionalProperties":false},
 "outputSchema":{"type":"object","required":["lang","week","slug","kind","name","category","category_name","text","related","aliases","other_matches"],"properties":{
  "lang":{"type":"string"},"week":{"type":"string"},"slug":{"type":"string"},"kind":{"type":"string","enum":["term","question"]},
  "name":{"type":"string"},"category":{"type":["string","null"]},"category_name":{"type":["string","null"]},"text":{"type":"string"},
  "related":{"type":"array","items":{"type":"string"}},"aliases":{"type":"array","items":{"type":"string"}},"other_matches":{"type":"array","items":{"type":"string"}}}}},
{"name":"get_methodology","title":"How prices are set",
 "description":"The published pricing rules: the market median, on-demand at most 70 % of it, spot and reserved shares, rounding, the observation window, per-second billing, storage and network rates, account terms, PowerScore, sizing and how to audit.",
 "inputSchema":{"type":"object","properties":{},"additionalProperties":false},
 "outputSchema":{"type":"object","required":["reference","median","min_observations","tiers","cap","billing","account","power_score","sizing","audit"],"properties":{
  "reference":{"type":"string"},"median":{"type":"string"},"min_observations":{"type":"integer"},
  "tiers":{"type":"object","required":["on_demand","spot","reserved"]},"cap":{"type":"string"},
  "billing":{"type":"object"},"account":{"type":"object"},"power_score":{"type":"string"},"sizing":{"type":"string"},"audit":{"type":"string"}}}}
])json";

}

json::array const& tool_definitions()
{
    static json::array const definitions = [] {
        json::array list = json::parse(definitions_json).as_array();
        for (auto& v : list) {
            auto& tool = v.as_object();
            tool["annotations"] = json::object{{"title", tool.at("title")},
                                               {"readOnlyHint", true},
                                               {"destructiveHint", false},
                                               {"idempotentHint", true},
                                               {"openWorldHint", false}};
        }
        return list;
    }();
    return definitions;
}

std::optional<tool_result> call_tool(std::string_view name, json::object const* arguments, data_view const& data)
{
    for (auto const& t : tools)
        if (t.name == name)
            return t.fn(data, arguments);
    return std::nullopt;
}

json::object tool_result_json(tool_result const& r)
{
    json::object o{{"content", json::array{json::object{{"type", "text"}, {"text", r.text}}}}};
    if (!r.is_error)
        o["structuredContent"] = r.structured;
    o["isError"] = r.is_error;
    return o;
}

}
