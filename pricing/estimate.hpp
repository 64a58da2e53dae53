#pragma once

#include "catalog.hpp"
#include "money.hpp"
#include "outcome.hpp"
#include "quantity.hpp"
#include "sheet.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// Job costing (DESIGN §2 and §6): GPU time, storage and network of one job, billed per second, with
// the same job in every tier. Exact: integer micro-dollars, every proration rounded half-up once.
namespace lcg::pricing {

inline constexpr std::int64_t microseconds_per_second = 1'000'000;
inline constexpr std::int64_t microseconds_per_hour = 3'600'000'000;
inline constexpr std::int64_t micro_units = 1'000'000;  // quantities are parsed with 6 decimals

// The parameters of an estimate as the client wrote them (empty when not given). Transports fill it
// (HTTP query, MCP tool arguments) so that both get the same validation and the same numbers.
struct estimate_parameters {
    std::string gpu{};
    std::optional<std::string> gpus{};
    std::optional<std::string> seconds{};
    std::optional<std::string> hours{};
    std::optional<std::string> tier{};
    std::optional<std::string> storage_gb{};
    std::optional<std::string> storage_hours{};
    std::optional<std::string> egress_gb{};
    std::optional<std::string> ingress_gb{};
    std::optional<std::string> tokens_per_second{};
    std::optional<std::string> images_per_hour{};
};

enum class work_unit { tokens_per_second, images_per_hour };

// Throughput the client states (never assumed): millionths of tokens per second or images per hour.
struct throughput {
    work_unit unit = work_unit::tokens_per_second;
    std::int64_t micro_rate = 0;
};

// A validated job. Durations are in microseconds so that both `seconds` (whole) and `hours` (six
// decimals: 0.000001 h = 3,600 µs) are exact.
struct job_spec {
    std::string gpu;
    int gpus = 1;
    int instances = 1;  // ceil(gpus / the model's max_gpus_per_instance)
    std::int64_t duration_us = 0;
    tier billed = tier::on_demand;
    std::int64_t storage_micro_gb = 0;
    std::int64_t storage_us = 0;  // how long the storage is kept: the job's duration unless given
    std::int64_t egress_micro_gb = 0;
    std::int64_t ingress_micro_gb = 0;
    std::optional<throughput> work;
};

// Reads the parameters into exact units and checks the rules between them: gpu (a catalog id, any
// letter case); gpus (past the model's max_gpus_per_instance, on several instances); exactly one of
// seconds and hours (six decimals); tier (on_demand, spot, reserved; default on_demand);
// storage_hours only with storage_gb (default the job's duration); at most one of tokens_per_second
// (at least 0.001, up to 10^8) and images_per_hour. Every quantity has at most six decimals.
// Precondition: each value within its parameter's bounds, which the API's decoder checks from the
// operation's declaration (api/decoder.hpp: gpus 1 to max_requested_gpus, a duration above 0 up to
// max_job_hours, storage and network from 0 to their rules:: maximum). Errors name the parameter
// and what it accepts.
parsed<job_spec> parse_job(estimate_parameters const& params, catalog const& cat);

// The `tier` parameter: on_demand, spot or reserved in any letter case; on_demand when absent.
parsed<tier> tier_parameter(std::optional<std::string> const& text);

// The id of a catalog model from a parameter, in any letter case; the error lists the valid ids.
parsed<gpu_model const*> find_gpu_parameter(std::string_view parameter, std::string_view text, catalog const& cat);

enum class line_kind { gpu_time, storage, egress, ingress };
std::string_view to_string(line_kind kind);  // "gpu_time", "storage", "egress", "ingress"

// One line of an estimate: quantity × unit rate, prorated exactly, rounded half-up to the micro-dollar.
// Quantities: GPU-hours, GB-months (of 730 hours), GB, GB; a quantity is written exactly when it has
// at most 6 decimals and rounded half-up to 6 otherwise (the amount is always exact).
struct line_item {
    line_kind kind = line_kind::gpu_time;
    decimal_text quantity;
    money unit_rate;  // per GPU-hour, per GB-month, per GB
    money amount;
};

// The same job in one tier: storage and network cost the same in every tier.
struct tier_cost {
    tier billed = tier::on_demand;
    money per_gpu_hour;
    money gpu_time;
    money total;
    std::optional<money> per_work;  // per million tokens or per image, when a throughput is given
};

// A reserved instance commits to its whole term: months × 730 h × gpus × the reserved rate. It pays
// off against on-demand above the break-even utilisation.
struct reserved_commitment {
    int months = 0;
    std::int64_t hours = 0;
    int gpus = 0;
    money per_gpu_hour;
    money commitment;
    int break_even_percent = 0;
};

struct job_estimate {
    job_spec job;
    std::vector<line_item> lines;  // gpu_time, storage, egress, ingress: always all four
    money total;
    money effective_per_gpu_hour;  // total / (gpus × hours), half-up to the micro-dollar
    std::vector<tier_cost> tiers;  // on_demand, spot, reserved
    reserved_commitment reserved;
    std::optional<money> per_work;  // in the billed tier
};

// Costs `job` at the rates of its model on a sheet. errc::unpriced when the sheet has no price for it.
outcome<job_estimate> estimate_job(job_spec const& job, sheet_row const* row);

// The rules, one by one.
// hourly × duration / 1 h, rounded half-up to the micro-dollar (DESIGN §2: rate × seconds / 3600).
money prorate(money hourly, std::int64_t duration_us);
// n GPUs cost n × the per-GPU rate: prorate(gpus × per_gpu_hour, duration).
money gpu_time_cost(money per_gpu_hour, int gpus, std::int64_t duration_us);
// $0.08 per GB-month, a month being 730 hours, prorated per second (here: per microsecond).
money storage_cost(std::int64_t micro_gb, std::int64_t duration_us);
// $0.01 per GB, ingress and egress alike.
money network_cost(std::int64_t micro_gb);
// hourly / (tokens per hour) × 10^6, and hourly / images per hour; half-up to the micro-dollar.
money cost_per_million_tokens(money hourly, std::int64_t micro_tokens_per_second);
money cost_per_image(money hourly, std::int64_t micro_images_per_hour);
money cost_per_work(money hourly, throughput work);

}
