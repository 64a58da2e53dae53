#pragma once

#include "catalog.hpp"
#include "gpu_filter.hpp"
#include "quantity.hpp"
#include "sheet.hpp"

#include <optional>
#include <string>
#include <vector>

// Which rows of a price sheet to show, and in which order: the filters and sort of /v1/prices and
// the get_prices tool.
namespace lcg::pricing {

struct price_query_parameters {
    std::optional<std::string> gpu{};
    std::optional<std::string> vendor{};
    std::optional<std::string> architecture{};
    std::optional<std::string> min_vram_gb{};
    std::optional<std::string> max_price{};
    std::optional<std::string> tier{};
    std::optional<std::string> sort{};
};

enum class price_order { gpu, price, vram };  // catalog order; cheapest first; most memory first

struct price_query {
    gpu_filter filter;
    gpu_model const* only = nullptr;  // one model
    tier compared = tier::on_demand;  // the rate max_price and sort=price look at
    std::optional<money> max_price;
    price_order order = price_order::gpu;

    bool empty() const;  // no filter and the default order: the whole sheet as published
};

// gpu: a catalog id; vendor, architecture, min_vram_gb as the catalog filter takes them; max_price:
// USD per GPU-hour, a plain decimal with up to 6 decimals (its bounds the API's decoder checks); tier: on_demand, spot or reserved; sort:
// gpu, price or vram. Errors name the parameter and what it accepts.
parsed<price_query> parse_price_query(price_query_parameters const& params, catalog const& cat);

// The rows of `sheet` the query selects, in its order. Models without a price this week are kept
// unless max_price is given (they meet no price): in sheet order for sort=gpu, last otherwise.
std::vector<sheet_row const*> select_prices(price_query const& query, price_sheet const& sheet, catalog const& cat);

}
