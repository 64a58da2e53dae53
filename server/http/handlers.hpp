#pragma once

#include "server/http/query.hpp"
#include "server/http/response.hpp"
#include "server/http/router.hpp"

#include <string_view>
#include <vector>

namespace lcg::http {

// What a route handler receives: the request, the snapshot in force, the path segments captured by
// the route's {placeholders}, and the query parameters (a handler takes those it knows; the router
// refuses any left over).
struct route_input {
    request const& req;
    request_context const& ctx;
    std::vector<std::string_view> captures;
    query_params& query;

    snapshot::snapshot const& snap() const { return *ctx.snapshot; }
};

using handler = response (*)(route_input& in);

// Handlers, grouped by area; the route table in router.cpp is the one place that maps paths to them.
response handle_healthz(route_input& in);
response handle_readyz(route_input& in);
response handle_prices(route_input& in);
response handle_price_of(route_input& in);
response handle_gpu_catalog(route_input& in);  // pre-rendered, or filtered per request
response handle_gpu(route_input& in);
response handle_sheets(route_input& in);
response handle_sheet(route_input& in);
response handle_observations(route_input& in);
response handle_observations_csv(route_input& in);
response handle_methodology(route_input& in);
response handle_regions(route_input& in);
response handle_inventory(route_input& in);
response handle_glossary(route_input& in);
response handle_glossary_term(route_input& in);
response handle_estimate(route_input& in);
response handle_sizing(route_input& in);
response handle_compare(route_input& in);
response handle_instance_check(route_input& in);

}
