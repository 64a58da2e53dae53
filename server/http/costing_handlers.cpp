// The costing tools and the filtered catalog: bodies computed per request from the snapshot by the
// pure functions of pricing/ (the MCP tools call the same ones), never from the database.
#include "server/http/handlers.hpp"

#include "server/render/costing_json.hpp"

#include "pricing/compare.hpp"
#include "pricing/estimate.hpp"
#include "pricing/gpu_filter.hpp"
#include "pricing/instance_check.hpp"
#include "pricing/sizing.hpp"

#include <array>
#include <optional>
#include <string>

namespace lcg::http {

namespace {

namespace json = boost::json;

std::optional<std::string> take(route_input& in, std::string_view name) { return in.query.take(std::string(name)); }

// A parameter nobody took is refused before anything else is checked, so that a typo ("hour=10")
// is named as such rather than reported as a missing duration.
template <std::size_t N>
std::optional<response> unknown_parameter(route_input& in, std::string_view path,
                                          std::array<std::string_view, N> const& known)
{
    auto const unknown = in.query.first_unknown();
    if (!unknown)
        return std::nullopt;
    std::string accepted;
    for (auto name : known) {
        if (!accepted.empty())
            accepted += ", ";
        accepted += name;
    }
    return bad_parameter(in.req, *unknown,
                         "unknown parameter " + pricing::quote(*unknown) + " for " + std::string(path) +
                             "; accepted: " + accepted);
}

json::array gpu_ids(route_input& in)
{
    json::array ids;
    for (auto const& m : in.snap().catalog.gpus)
        ids.push_back(json::value(m.id));
    return ids;
}

// A refused parameter: 400 naming it; a refused GPU id or region also lists the valid values.
response refused(route_input& in, pricing::parameter_error const& e, bool lists_gpus)
{
    if (e.cause.code != pricing::errc::invalid_argument)
        return from_error(in.req, e.cause, e.parameter);
    json::object extra{{"parameter", e.parameter}};
    if (lists_gpus)
        extra["valid_ids"] = gpu_ids(in);
    if (e.parameter == "region") {
        json::array codes;
        for (auto const& r : in.snap().catalog.regions)
            codes.push_back(json::value(r.code));
        extra["valid_regions"] = std::move(codes);
    }
    return problem(in.req, beast_http::status::bad_request, e.cause.message, std::move(extra));
}

// The computed bodies rest on the catalog and the current prices, exactly what /v1/gpus shows: they
// changed when it did.
std::optional<pricing::instant> catalog_time(route_input& in)
{
    if (auto const doc = in.snap().find_document("/v1/gpus"))
        return doc->last_modified;
    return std::nullopt;
}

response no_sheet_yet(request const& req)
{
    auto res = problem(req, beast_http::status::service_unavailable, "no price sheet is in effect yet");
    res.set(beast_http::field::retry_after, "60");
    return res;
}

}

response handle_gpu_catalog(route_input& in)
{
    pricing::gpu_filter_parameters const params{take(in, "vendor"), take(in, "architecture"),
                                                take(in, "min_vram_gb"), take(in, "mig"), take(in, "nvlink")};
    if (auto bad = unknown_parameter(in, "/v1/gpus", pricing::gpu_filter_parameter_names))
        return std::move(*bad);
    auto const& snap = in.snap();
    auto const filter = pricing::parse_gpu_filter(params, snap.catalog);
    if (!filter)
        return refused(in, filter.err(), false);
    if (filter->empty())
        return document_at(in, "/v1/gpus");
    return serve_computed(in, render::catalog_view, render::filtered_catalog_json(snap.catalog, snap.current, *filter),
                          catalog_time(in));
}

response handle_estimate(route_input& in)
{
    pricing::estimate_parameters const params{
        take(in, "gpu"),        take(in, "gpus"),          take(in, "seconds"),  take(in, "hours"),
        take(in, "tier"),       take(in, "storage_gb"),    take(in, "storage_hours"), take(in, "egress_gb"),
        take(in, "ingress_gb"), take(in, "tokens_per_second"), take(in, "images_per_hour")};
    if (auto bad = unknown_parameter(in, "/v1/estimate", pricing::estimate_parameter_names))
        return std::move(*bad);
    auto const& snap = in.snap();
    auto const job = pricing::parse_job(params, snap.catalog);
    if (!job)
        return refused(in, job.err(), job.err().parameter == "gpu");
    if (!snap.current)
        return no_sheet_yet(in.req);
    auto const estimate = pricing::estimate_job(*job, snap.current->find(job->gpu));
    if (!estimate)
        return from_error(in.req, estimate.err(), "gpu");
    return serve_computed(in, render::estimate_view,
                          render::estimate_text(*estimate, *snap.catalog.find(job->gpu), *snap.current),
                          catalog_time(in));
}

response handle_sizing(route_input& in)
{
    pricing::sizing_parameters const params{take(in, "params_b"), take(in, "precision"), take(in, "gpu")};
    if (auto bad = unknown_parameter(in, "/v1/sizing", pricing::sizing_parameter_names))
        return std::move(*bad);
    auto const& snap = in.snap();
    auto const spec = pricing::parse_model_spec(params, snap.catalog);
    if (!spec)
        return refused(in, spec.err(), spec.err().parameter == "gpu");
    auto const result = pricing::size_model(*spec, snap.catalog, snap.current);
    return serve_computed(in, render::sizing_view, render::sizing_json(result, snap.catalog, snap.current),
                          catalog_time(in));
}

response handle_compare(route_input& in)
{
    auto const list_text = take(in, "gpus");
    if (auto bad = unknown_parameter(in, "/v1/compare", pricing::compare_parameter_names))
        return std::move(*bad);
    auto const& snap = in.snap();
    auto const ids = pricing::parse_gpu_list("gpus", list_text, snap.catalog);
    if (!ids)
        return refused(in, ids.err(), true);
    auto const comparison = pricing::compare_gpus(*ids, snap.catalog, snap.current);
    if (!comparison)
        return from_error(in.req, comparison.err(), "gpus");
    return serve_computed(in, render::comparison_view, render::comparison_json(*comparison, snap.catalog, snap.current),
                          catalog_time(in));
}

response handle_instance_check(route_input& in)
{
    pricing::instance_parameters const params{take(in, "gpu"),        take(in, "gpus"),
                                              take(in, "vcpus"),      take(in, "memory_gib"),
                                              take(in, "cpu_generation"), take(in, "region")};
    if (auto bad = unknown_parameter(in, "/v1/instances/check", pricing::instance_parameter_names))
        return std::move(*bad);
    auto const& snap = in.snap();
    auto const wanted = pricing::parse_instance_request(params, snap.catalog);
    if (!wanted)
        return refused(in, wanted.err(), wanted.err().parameter == "gpu");
    auto const check = pricing::check_instance(*wanted, *snap.catalog.find(wanted->gpu));
    return serve_computed(in, render::instance_check_view, render::instance_check_json(check), catalog_time(in));
}

}
