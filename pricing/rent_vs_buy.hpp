#pragma once

#include "catalog.hpp"
#include "money.hpp"
#include "quantity.hpp"
#include "sheet.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <string>

// Renting GPUs here against buying them (the glossary's rent-versus-buy break-even): what each
// costs over a horizon at a utilisation, and where they meet. Every figure of ownership is the
// user's; none is assumed. Exact: integers throughout, each total rounded half-up once to the
// micro-dollar, each break-even rounded up (the first figure at which owning is no dearer).
namespace lcg::pricing {

struct rent_vs_buy_parameters {
    std::string gpu{};
    std::optional<std::string> gpus{};
    std::optional<std::string> tier{};
    std::optional<std::string> week{};
    std::string purchase_price{};     // USD, the GPUs bought (or the whole machine)
    std::string power_watts{};        // W, the machine's draw while it works
    std::string electricity_price{};  // USD per kWh
    std::string hosting_per_month{};  // USD: space, cooling, network, staff, idle draw
    std::string utilisation{};        // percent of the horizon's hours at work
    std::string months{};             // the horizon
};

struct rent_vs_buy_request {
    gpu_model const* model = nullptr;
    int gpus = 1;
    tier rented = tier::on_demand;
    price_sheet const* sheet = nullptr;  // the rates rented at
    money purchase_price;
    std::int64_t power_watts = 0;
    money electricity_price;  // per kWh
    money hosting_per_month;
    std::int64_t utilisation_hundredths = 0;  // of a percent: 6550 is 65.5 %
    int months = 0;
};

// gpus defaults to 1, tier and week as everywhere; money has up to six decimals, utilisation two.
// Precondition: each figure within its parameter's bounds (gpus 1 to rules::max_requested_gpus,
// utilisation 0 to 100, months from 1, the others up to their rules:: maximum), which the API's
// decoder checks from the operation's declaration; the arithmetic relies on them.
parsed<rent_vs_buy_request> parse_rent_vs_buy(rent_vs_buy_parameters const& p, catalog const& cat,
                                              std::span<const price_sheet> sheets, price_sheet const* current);

enum class rent_vs_buy_verdict { rent, buy, even };
std::string_view to_string(rent_vs_buy_verdict v);  // "rent", "buy", "even"

// Where owning stops costing more than renting, rounded up to the hundredth.
enum class break_even_state {
    within,  // within reach: the horizon given, or at most 100 % utilisation
    beyond,  // later than the horizon (or past rules::longest_break_even_months), or above 100 %
    never,   // owning never catches up: renting costs no more per month (per hour) than owning runs
};
std::string_view to_string(break_even_state s);  // "within", "beyond", "never"

struct break_even {
    break_even_state state = break_even_state::never;
    std::optional<decimal_text> value;  // given when it exists and means something (see above)
};

struct rent_vs_buy_answer {
    rent_vs_buy_request request;
    money per_gpu_hour;      // the rate rented, in the tier
    decimal_text used_hours; // months × 730 h × utilisation: the hours the GPUs work
    money rent_total;        // gpus × rate × used hours
    money energy_total;      // power × tariff × used hours
    money hosting_total;     // hosting × months
    money own_total;         // purchase + hosting + energy
    money difference;        // rent_total − own_total: what buying saves (negative: what it costs)
    rent_vs_buy_verdict verdict = rent_vs_buy_verdict::even;  // from the exact totals
    break_even months;       // at the utilisation given
    break_even utilisation;  // percent, over the horizon given
};

// errc::unpriced when the sheet publishes no rate for the model.
outcome<rent_vs_buy_answer> compare_rent_vs_buy(rent_vs_buy_request const& request);

}
