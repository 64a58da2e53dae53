// The price sheet, the catalog, the signatures and keys, and the probes: documents pre-rendered in
// the snapshot. A week's inputs, which the archive holds, are in inputs_handlers.cpp.
#include "server/http/handlers.hpp"

#include "render/json.hpp"

#include "pricing/estimate.hpp"
#include "pricing/history.hpp"
#include "pricing/utf8.hpp"

#include <variant>

namespace lcg::http {

namespace {

namespace json = boost::json;

response no_sheet_yet(route_input const& in)
{
    bool const fr = in.lang == locale::language::fr;
    auto res = problem(in.req, beast_http::status::service_unavailable,
                       fr ? "aucun tarif n’est encore en vigueur" : "no price sheet is in effect yet", {}, in.lang);
    res.set(beast_http::field::retry_after, "60");
    return res;
}

// A week's document, in the request's language, named by the week or by an alias of it.
response document_of_week(route_input& in, std::string const& week)
{
    return document_at(in, render::path_of(*in.kind, week), {}, names_week_alias(in.captures[0]));
}

// A GPU in the path that names no model: 404 with the closest models, best first, and every id.
response unknown_gpu(route_input& in, pricing::parameter_error const& e)
{
    json::object extra{{"valid_ids", catalog_ids(in)}};
    if (!e.suggestions.empty())
        extra["suggestions"] = render::string_array(e.suggestions);
    return from_error(in.req, {pricing::errc::not_found, e.cause.message, e.cause.message_fr}, "gpu", std::move(extra),
                      in.lang);
}

response json_status(request const& req, beast_http::status status, json::object const& body)
{
    auto res = base_response(req, status);
    res.set(beast_http::field::content_type, "application/json");
    res.set(beast_http::field::cache_control, "no-store");
    res.body() = render::to_text(body);
    res.prepare_payload();
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

bool names_week_alias(std::string_view segment) { return segment == "latest" || segment == "current"; }

pricing::outcome<pricing::price_sheet const*, response> published_week(route_input& in)
{
    std::string_view const segment = in.captures[0];
    if (names_week_alias(segment)) {
        auto const named = pricing::sheet_for_week(segment, in.snap().sheets, in.snap().current);
        if (!named)
            return from_error(in.req, named.err(), "week", {}, in.lang);
        return *named;
    }
    auto const week = pricing::parse_week(segment);
    if (!week)
        return from_error(in.req, week.err(), "week", {}, in.lang);
    if (auto const* sheet = in.snap().find_sheet(*week))
        return sheet;
    std::string const shown = pricing::to_string(*week);
    return from_error(in.req,
                      {pricing::errc::not_found, "no sheet was published for " + shown + "; /v1/sheets lists those that were",
                       "aucun tarif n’a été publié pour " + shown + "\u202F; /v1/sheets donne ceux qui l’ont été"},
                      {}, {}, in.lang);
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
    // readiness says how long ago the data source last answered and gives up past the configured
    // limit. A snapshot is rebuilt only when something changed, so its own age says nothing about
    // the database's health; a mirror's is rebuilt at each answer of its upstream.
    auto const checked = in.ctx.database_checked_at.value_or(snap->built_at);
    auto const age = in.ctx.now - checked;
    bool const fresh = age <= in.ctx.max_snapshot_age;
    json::object body{{"status", fresh ? "ready" : "stale"},
                      {"database_checked_at", pricing::to_rfc3339(checked)},
                      {"database_checked_age_seconds", age.count()},
                      {"snapshot_built_at", pricing::to_rfc3339(snap->built_at)},
                      {"snapshot_age_seconds", (in.ctx.now - snap->built_at).count()},
                      {"max_snapshot_age_seconds", in.ctx.max_snapshot_age.count()}};
    body["current_sheet"] = snap->current ? json::value(pricing::to_string(snap->current->week)) : json::value(nullptr);
    if (upstream)
        body["upstream"] = upstream_json(*upstream);
    return json_status(in.req, fresh ? beast_http::status::ok : beast_http::status::service_unavailable, body);
}

namespace {

// The model the path's GPU segment names, percent-decoded, with the same lookup as the gpu parameter
// of every operation (any letter case), refused the same way. A segment that does not decode to
// UTF-8 is looked up as it is, and names no model.
pricing::parsed<pricing::gpu_model const*> model_in_path(route_input const& in)
{
    auto const decoded = percent_decode(in.captures[0], false);
    std::string const id = decoded && pricing::utf8_length(*decoded) ? *decoded : std::string(in.captures[0]);
    return pricing::find_gpu_parameter("gpu", id, in.snap().catalog);
}

}

response handle_price_of(route_input& in)
{
    auto const model = model_in_path(in);
    if (!model)
        return unknown_gpu(in, model.err());
    if (!in.snap().current)
        return no_sheet_yet(in);
    if (auto const week = in.query.take("week")) {
        auto const sheet = pricing::sheet_for_week(*week, in.snap().sheets, in.snap().current);
        if (!sheet)
            return from_error(in.req, sheet.err(), "week", {}, in.lang);
        if (*sheet != in.snap().current) {
            auto const* row = (*sheet)->find((*model)->id);
            std::string const week_shown = pricing::to_string((*sheet)->week);
            if (!row)
                return from_error(in.req,
                                  {pricing::errc::not_found, (*model)->id + " was not on the sheet of " + week_shown,
                                   (*model)->id + " ne figurait pas sur le tarif de " + week_shown},
                                  {}, {}, in.lang);
            return serve_computed(in, render::price_view, render::price_json(**sheet, *row, *model),
                                  (*sheet)->published_at);
        }
    }
    return published_document(in, (*model)->id);
}


response handle_sheets(route_input& in) { return published_document(in); }

response handle_sheet(route_input& in)
{
    auto const found = published_week(in);
    if (!found)
        return found.err();
    return document_of_week(in, pricing::to_string(found.value()->week));
}

response handle_regions(route_input& in) { return published_document(in); }
response handle_sources(route_input& in) { return published_document(in); }

// The feed and the charts are documents in one format of their own, stored under their URL.
response handle_sheets_feed(route_input& in) { return published_document(in); }

response handle_history_chart(route_input& in)
{
    auto const model = model_in_path(in);
    if (!model)
        return unknown_gpu(in, model.err());
    return published_document(in, (*model)->id);
}

response handle_signed_bytes(route_input& in)
{
    auto const found = published_week(in);
    if (!found)
        return found.err();
    return document_of_week(in, pricing::to_string(found.value()->week));
}

// datapackage.json or csv-metadata.json: the week's descriptions, stored under their file name.
response handle_week_description(route_input& in)
{
    auto const found = published_week(in);
    if (!found)
        return found.err();
    return document_of_week(in, pricing::to_string(found.value()->week));
}

response handle_signature(route_input& in)
{
    auto const found = published_week(in);
    if (!found)
        return found.err();
    auto const* sheet = found.value();
    if (sheet->signature.empty())
        return problem(in.req, beast_http::status::not_found,
                       "the sheet " + pricing::to_string(sheet->week) +
                           " is not signed yet (its operator signs older sheets with lowcostgpu sign --all)");
    // signature.txt, signed.txt.sig or signed.note: the same signature for three verifiers.
    return document_of_week(in, pricing::to_string(sheet->week));
}

namespace {

// A document of the signed catalog, or 404 while the catalog has never been signed.
response signed_catalog_document(route_input& in)
{
    if (!in.snap().signed_catalog)
        return problem(in.req, beast_http::status::not_found,
                       "the catalog is not signed yet (its operator signs it with lowcostgpu publish or "
                       "lowcostgpu sign --all)");
    return published_document(in);
}

}

response handle_signed_catalog(route_input& in) { return signed_catalog_document(in); }

response handle_catalog_signature(route_input& in) { return signed_catalog_document(in); }

response handle_keys(route_input& in) { return published_document(in); }

response handle_key_file(route_input& in)
{
    std::string_view const name = in.captures[0];
    bool const known = (name.ends_with(".pem") || name.ends_with(".pub")) && in.snap().keys.find(name.substr(0, name.size() - 4));
    if (!known)
        return problem(in.req, beast_http::status::not_found,
                       "no published key is named " + std::string(name) +
                           "; /.well-known/lowcostgpu-keys.json lists them ({key_id}.pem in PEM, {key_id}.pub for signify)");
    return published_document(in, name);
}

}
