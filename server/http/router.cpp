#include "server/http/router.hpp"

#include "server/http/handlers.hpp"

#include <array>
#include <string>

namespace lcg::http {

namespace {

struct route {
    std::string_view pattern;  // "{x}" matches one path segment
    handler fn;
    bool needs_snapshot;       // only the probes answer before the first snapshot
};

// Every route of the API, in one table.
auto const routes = std::to_array<route>({
    {"/healthz", handle_healthz, false},
    {"/readyz", handle_readyz, false},
    {"/v1/prices", handle_prices, true},
    {"/v1/prices/{gpu}", handle_price_of, true},
    {"/v1/gpus", handle_gpu_catalog, true},
    {"/v1/gpus/{id}", handle_gpu, true},
    {"/v1/sheets", handle_sheets, true},
    {"/v1/sheets/{week}", handle_sheet, true},
    {"/v1/sheets/{week}/observations", handle_observations, true},
    {"/v1/sheets/{week}/observations.csv", handle_observations_csv, true},
    {"/v1/methodology", handle_methodology, true},
    {"/v1/regions", handle_regions, true},
    {"/v1/inventory", handle_inventory, true},
    {"/v1/glossary", handle_glossary, true},
    {"/v1/glossary/{slug}", handle_glossary_term, true},
    {"/v1/estimate", handle_estimate, true},
    {"/v1/sizing", handle_sizing, true},
    {"/v1/compare", handle_compare, true},
    {"/v1/instances/check", handle_instance_check, true},
});

bool match(std::string_view pattern, std::string_view path, std::vector<std::string_view>& out)
{
    out.clear();
    while (!pattern.empty() && !path.empty()) {
        if (pattern.front() != '/' || path.front() != '/')
            return false;
        pattern.remove_prefix(1);
        path.remove_prefix(1);
        auto const p = pattern.substr(0, pattern.find('/'));
        auto const s = path.substr(0, path.find('/'));
        if (p.starts_with('{')) {
            if (s.empty())
                return false;
            out.push_back(s);
        } else if (p != s) {
            return false;
        }
        pattern.remove_prefix(p.size());
        path.remove_prefix(s.size());
    }
    return pattern.empty() && path.empty();
}

response method_not_allowed(request const& req, std::string_view path)
{
    auto res = problem(req, beast_http::status::method_not_allowed,
                       std::string(req.method_string()) + " is not allowed on " + std::string(path) +
                           "; this API is read-only (GET, HEAD)");
    res.set(beast_http::field::allow, "GET, HEAD");
    return res;
}

response dispatch(request const& req, request_context const& ctx)
{
    std::string_view const target = req.target();
    auto const question = target.find('?');
    std::string_view const path = target.substr(0, question);
    std::vector<std::string_view> captures;
    for (auto const& r : routes) {
        if (!match(r.pattern, path, captures))
            continue;
        if (req.method() != beast_http::verb::get && req.method() != beast_http::verb::head)
            return method_not_allowed(req, path);
        if (r.needs_snapshot && !ctx.snapshot) {
            auto res = problem(req, beast_http::status::service_unavailable,
                               "the service is starting: no data loaded from PostgreSQL yet");
            res.set(beast_http::field::retry_after, "5");
            return res;
        }
        auto query = query_params::parse(question == std::string_view::npos ? "" : target.substr(question + 1));
        if (!query)
            return from_error(req, query.err());
        route_input in{req, ctx, std::move(captures), query.value()};
        response res = r.fn(in);
        if (auto const unknown = query->first_unknown(); unknown && res.result() == beast_http::status::ok)
            return bad_parameter(req, *unknown,
                                 "unknown parameter " + pricing::quote(*unknown) + " for " + std::string(path));
        return res;
    }
    return problem(req, beast_http::status::not_found,
                   "no resource at " + std::string(path) + "; the API lives under /v1 (see README)");
}

}

response handle(request const& req, request_context const& ctx)
{
    try {
        return dispatch(req, ctx);
    } catch (std::exception const&) {
        return problem(req, beast_http::status::internal_server_error, "the server failed to answer this request");
    }
}

}
