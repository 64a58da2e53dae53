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
response handle_gpus(route_input& in);
response handle_gpu(route_input& in);

}
