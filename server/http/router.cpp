#include "server/http/router.hpp"

#include "server/render/json.hpp"

#include <boost/beast/version.hpp>

#include <array>
#include <functional>
#include <string>
#include <vector>

namespace lcg::http {

namespace {

namespace json = boost::json;

constexpr std::string_view cache_control = "public, max-age=300, stale-while-revalidate=600, stale-if-error=86400";

// The pieces of a path matched against a route pattern: "{x}" captures one segment.
using captures = std::vector<std::string_view>;

struct route {
    std::string_view pattern;
    std::function<response(request const&, request_context const&, captures const&)> handler;
};

response base_response(request const& req, beast_http::status status)
{
    response res{status, req.version()};
    res.set(beast_http::field::server, "lowcostgpu");
    res.set("X-Content-Type-Options", "nosniff");
    res.set(beast_http::field::access_control_allow_origin, "*");
    res.keep_alive(req.keep_alive());
    return res;
}

response problem(request const& req, beast_http::status status, std::string const& detail, json::object extra = {})
{
    auto res = base_response(req, status);
    res.set(beast_http::field::content_type, "application/problem+json");
    res.set(beast_http::field::cache_control, "no-store");
    res.body() = render::to_text(
        render::problem_json(static_cast<int>(status), std::string(beast_http::obsolete_reason(status)), detail,
                             std::move(extra)));
    res.prepare_payload();
    return res;
}

bool etag_matches(request const& req, std::string_view etag)
{
    auto const it = req.find(beast_http::field::if_none_match);
    if (it == req.end())
        return false;
    std::string_view header = it->value();
    if (header == "*")
        return true;
    // A list of entity tags, possibly weak (W/"…"); weak comparison is right for If-None-Match.
    for (std::size_t pos = 0; pos < header.size();) {
        auto end = header.find(',', pos);
        if (end == std::string_view::npos)
            end = header.size();
        auto tag = header.substr(pos, end - pos);
        while (!tag.empty() && tag.front() == ' ')
            tag.remove_prefix(1);
        while (!tag.empty() && tag.back() == ' ')
            tag.remove_suffix(1);
        if (tag.starts_with("W/"))
            tag.remove_prefix(2);
        if (tag == etag)
            return true;
        pos = end + 1;
    }
    return false;
}

response serve_document(request const& req, snapshot::document const& doc)
{
    bool const not_modified = etag_matches(req, doc.etag);
    auto res = base_response(req, not_modified ? beast_http::status::not_modified : beast_http::status::ok);
    res.set(beast_http::field::etag, doc.etag);
    res.set(beast_http::field::cache_control, cache_control);
    res.set(beast_http::field::vary, "Accept, Accept-Encoding, Accept-Language");
    if (!not_modified) {
        res.set(beast_http::field::content_type, doc.content_type);
        res.body() = doc.body;
    }
    res.prepare_payload();
    if (req.method() == beast_http::verb::head || not_modified)
        res.body().clear();  // Content-Length stays that of the full body
    return res;
}

response unavailable(request const& req, std::string const& detail)
{
    auto res = problem(req, beast_http::status::service_unavailable, detail);
    res.set(beast_http::field::retry_after, "5");
    return res;
}

json::array valid_gpu_ids(snapshot::snapshot const& s)
{
    json::array ids;
    for (auto const& m : s.catalog.gpus)
        ids.push_back(json::value(m.id));
    return ids;
}

response unknown_gpu(request const& req, snapshot::snapshot const& s, std::string_view id)
{
    return problem(req, beast_http::status::not_found,
                   pricing::quote(id) + " is not a GPU of the catalog; valid_ids lists the ones that are",
                   {{"valid_ids", valid_gpu_ids(s)}});
}

response document_at(request const& req, request_context const& ctx, std::string_view path)
{
    if (auto const* doc = ctx.snapshot->find_document(path))
        return serve_document(req, *doc);
    return problem(req, beast_http::status::not_found, "nothing is published at " + std::string(path));
}

response prices(request const& req, request_context const& ctx, captures const&)
{
    if (!ctx.snapshot->current)
        return unavailable(req, "no price sheet is in effect yet");
    return document_at(req, ctx, "/v1/prices");
}

response price_of(request const& req, request_context const& ctx, captures const& c)
{
    if (!ctx.snapshot->catalog.find(c[0]))
        return unknown_gpu(req, *ctx.snapshot, c[0]);
    if (!ctx.snapshot->current)
        return unavailable(req, "no price sheet is in effect yet");
    return document_at(req, ctx, "/v1/prices/" + std::string(c[0]));
}

response gpus(request const& req, request_context const& ctx, captures const&)
{
    return document_at(req, ctx, "/v1/gpus");
}

response gpu(request const& req, request_context const& ctx, captures const& c)
{
    if (!ctx.snapshot->catalog.find(c[0]))
        return unknown_gpu(req, *ctx.snapshot, c[0]);
    return document_at(req, ctx, "/v1/gpus/" + std::string(c[0]));
}

response json_status(request const& req, beast_http::status status, json::object body)
{
    auto res = base_response(req, status);
    res.set(beast_http::field::content_type, "application/json");
    res.set(beast_http::field::cache_control, "no-store");
    res.body() = render::to_text(body);
    res.prepare_payload();
    if (req.method() == beast_http::verb::head)
        res.body().clear();
    return res;
}

response healthz(request const& req, request_context const&, captures const&)
{
    return json_status(req, beast_http::status::ok, {{"status", "ok"}});
}

response readyz(request const& req, request_context const& ctx, captures const&)
{
    if (!ctx.snapshot)
        return json_status(req, beast_http::status::service_unavailable,
                           {{"status", "starting"}, {"detail", "no snapshot loaded from PostgreSQL yet"}});
    json::object body{{"status", "ready"},
                      {"snapshot_built_at", pricing::to_rfc3339(ctx.snapshot->built_at)},
                      {"snapshot_age_seconds", (ctx.now - ctx.snapshot->built_at).count()}};
    body["current_sheet"] = ctx.snapshot->current ? json::value(pricing::to_string(ctx.snapshot->current->week))
                                                  : json::value(nullptr);
    return json_status(req, beast_http::status::ok, std::move(body));
}

// Every route, in one table. Paths without a snapshot are only the probes.
std::array<route, 6> const routes{{
    {"/healthz", healthz},
    {"/readyz", readyz},
    {"/v1/prices", prices},
    {"/v1/prices/{gpu}", price_of},
    {"/v1/gpus", gpus},
    {"/v1/gpus/{id}", gpu},
}};

bool needs_snapshot(route const& r) { return r.pattern.starts_with("/v1/"); }

bool match(std::string_view pattern, std::string_view path, captures& out)
{
    out.clear();
    while (!pattern.empty() && !path.empty()) {
        if (pattern.front() != '/' || path.front() != '/')
            return false;
        pattern.remove_prefix(1);
        path.remove_prefix(1);
        auto const pe = pattern.find('/');
        auto const se = path.find('/');
        auto const p = pattern.substr(0, pe);
        auto const s = path.substr(0, se);
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

response dispatch(request const& req, request_context const& ctx)
{
    std::string_view target = req.target();
    std::string_view const path = target.substr(0, target.find('?'));
    captures c;
    for (auto const& r : routes) {
        if (!match(r.pattern, path, c))
            continue;
        if (req.method() != beast_http::verb::get && req.method() != beast_http::verb::head) {
            auto res = problem(req, beast_http::status::method_not_allowed,
                               std::string(req.method_string()) + " is not allowed on " + std::string(path) +
                                   "; this API is read-only (GET, HEAD)");
            res.set(beast_http::field::allow, "GET, HEAD");
            return res;
        }
        if (needs_snapshot(r) && !ctx.snapshot)
            return unavailable(req, "the service is starting: no data loaded from PostgreSQL yet");
        return r.handler(req, ctx, c);
    }
    return problem(req, beast_http::status::not_found,
                   "no resource at " + std::string(path) + "; see / for the index of everything");
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
