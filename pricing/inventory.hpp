#pragma once

#include "catalog.hpp"
#include "quantity.hpp"

#include <optional>
#include <string>
#include <string_view>

// Filters of the inventory (/v1/inventory and the get_inventory tool): one model, one region.
namespace lcg::pricing {

// A region code from a parameter, in any letter case; the error lists the valid codes.
parsed<region const*> find_region_parameter(std::string_view parameter, std::string_view text, catalog const& cat);

struct inventory_query {
    gpu_model const* gpu = nullptr;  // null: every model
    region const* where = nullptr;   // null: every region
    bool empty() const { return !gpu && !where; }
};

parsed<inventory_query> parse_inventory_query(std::optional<std::string> const& gpu,
                                              std::optional<std::string> const& region, catalog const& cat);

}
