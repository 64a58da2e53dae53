#pragma once

#include "catalog.hpp"
#include "money.hpp"
#include "quantity.hpp"
#include "sheet.hpp"

#include <optional>
#include <span>
#include <string>

// Checking a price someone was told ("LowCostGPU charges $0.84 an hour for a spot H100 SXM")
// against the published sheet of the week it was meant for: the answer an assistant gives when it
// is asked whether a quoted rate is real.
namespace lcg::pricing {

struct quote_parameters {
    std::string gpu{};
    std::optional<std::string> tier{};
    std::string price{};  // USD per GPU-hour, as quoted
    std::optional<std::string> week{};   // the sheet in effect then (sheet_for_week); default: now
};

struct quote_request {
    gpu_model const* model = nullptr;
    tier t = tier::on_demand;
    money quoted;
    price_sheet const* sheet = nullptr;  // the sheet the quote is checked against
};

// gpu a catalog id, price up to 6 decimals (a quote of $0.84 is $0.840), tier as everywhere
// (default on_demand), week as get_prices takes it. Precondition: price within its declared bounds
// (0 to rules::max_observed_price), which the API's decoder checks.
parsed<quote_request> parse_quote(quote_parameters const& p, catalog const& cat, std::span<const price_sheet> sheets,
                                  price_sheet const* current);

enum class quote_verdict {
    published,     // the quote is the published rate
    above,         // more than the published rate
    below,         // less than the published rate
    not_priced,    // the sheet publishes no rate for the model that week
};
std::string_view to_string(quote_verdict v);  // "published", "above", "below", "not_priced"

struct quote_check {
    quote_request request;
    sheet_row const* row = nullptr;  // the model's row of the sheet (none: not in it)
    std::optional<money> published;  // the published rate in the tier, when priced
    quote_verdict verdict = quote_verdict::not_priced;
};

quote_check check_quote(quote_request const& request);

}
