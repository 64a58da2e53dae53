// The price sheet, the catalog and the probes: documents pre-rendered in the snapshot.
#include "server/http/handlers.hpp"

#include "render/json.hpp"

#include "pricing/estimate.hpp"
#include "pricing/utf8.hpp"

#include <variant>

namespace lcg::http {

namespace {

namespace json = boost::json;

response no_sheet_yet(request const& req)
{
    auto res = problem(req, beast_http::status::service_unavailable, "no price sheet is in effect yet");
    res.set(beast_http::field::retry_after, "60");
    return res;
}

// The published sheet named by the {week} segment, or the response that explains why there is none.
std::variant<pricing::price_sheet const*, response> published_week(route_input& in)
{
    auto const week = pricing::parse_week(in.captures[0]);
    if (!week)
        return from_error(in.req, week.err(), "week");
    if (auto const* sheet = in.snap().find_sheet(*week))
        return sheet;
    return problem(in.req, beast_http::status::not_found,
                   "no sheet was published for " + pricing::to_string(*week) + "; /v1/sheets lists those that were");
}

response json_status(request const& req, beast_http::status status, json::object const& body)
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

// A mirror's upstream in /readyz: "following" while each state it offers is accepted, "refused"
// (with why) while the last good snapshot serves instead.
json::object upstream_json(snapshot::upstream_status const& u)
{
    json::object o{{"url", u.url},
                   {"state", u.refused ? "refused" : "following"},
                   {"checked_at", pricing::to_rfc3339(u.checked_at)}};
    o["accepted_at"] = u.accepted_at ? json::value(pricing::to_rfc3339(*u.accepted_at)) : json::value(nullptr);
    if (u.refused)
        o["detail"] = u.detail;
    return o;
}

}

response handle_healthz(route_input& in)
{
    return json_status(in.req, beast_http::status::ok, {{"status", "ok"}});
}

response handle_readyz(route_input& in)
{
    auto const& snap = in.ctx.snapshot;
    auto const* upstream = in.ctx.upstream.get();
    if (!snap) {
        json::object body{{"status", "starting"},
                          {"detail", upstream ? "no state of the upstream accepted yet" : "no snapshot loaded from PostgreSQL yet"}};
        if (upstream)
            body["upstream"] = upstream_json(*upstream);
        return json_status(in.req, beast_http::status::service_unavailable, body);
    }
    // While PostgreSQL is away, or a mirror's upstream is refused, the last snapshot keeps serving;
    // readiness says how old it is and gives up once it is older than the configured limit.
    auto const age = in.ctx.now - snap->built_at;
    bool const fresh = age <= in.ctx.max_snapshot_age;
    json::object body{{"status", fresh ? "ready" : "stale"},
                      {"snapshot_built_at", pricing::to_rfc3339(snap->built_at)},
                      {"snapshot_age_seconds", age.count()},
                      {"max_snapshot_age_seconds", in.ctx.max_snapshot_age.count()}};
    body["current_sheet"] = snap->current ? json::value(pricing::to_string(snap->current->week)) : json::value(nullptr);
    if (upstream)
        body["upstream"] = upstream_json(*upstream);
    return json_status(in.req, fresh ? beast_http::status::ok : beast_http::status::service_unavailable, body);
}

response handle_price_of(route_input& in)
{
    // The same lookup as the gpu parameter of every operation (any letter case), refused the same way.
    auto const decoded = percent_decode(in.captures[0], false);
    std::string const id = decoded && pricing::utf8_length(*decoded) ? *decoded : std::string(in.captures[0]);
    auto const model = pricing::find_gpu_parameter("gpu", id, in.snap().catalog);
    if (!model)
        return from_error(in.req, {pricing::errc::not_found, model.err().cause.message}, "gpu",
                          {{"valid_ids", catalog_ids(in)}});
    if (!in.snap().current)
        return no_sheet_yet(in.req);
    return document_at(in, "/v1/prices/" + (*model)->id);
}

}

namespace lcg::http {

response handle_sheets(route_input& in) { return document_at(in, "/v1/sheets"); }

response handle_sheet(route_input& in)
{
    auto const found = published_week(in);
    if (auto const* res = std::get_if<response>(&found))
        return *res;
    return document_at(in, "/v1/sheets/" + pricing::to_string(std::get<0>(found)->week));
}

response handle_observations(route_input& in)
{
    auto const found = published_week(in);
    if (auto const* res = std::get_if<response>(&found))
        return *res;
    return document_at(in, "/v1/sheets/" + pricing::to_string(std::get<0>(found)->week) + "/observations");
}

response handle_regions(route_input& in) { return document_at(in, "/v1/regions"); }

}
