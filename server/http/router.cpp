#include "server/http/router.hpp"
#include "server/http/route_table.hpp"

#include "server/http/handlers.hpp"
#include "server/http/headers.hpp"
#include "server/http/negotiation.hpp"
#include "server/ops/metrics.hpp"


#include <algorithm>
#include <array>
#include <future>
#include <string>

namespace lcg::http {

namespace {

boost::json::array available_types(render::format_set offered)
{
    boost::json::array types;
    offered.for_each([&](render::format f) { types.push_back(boost::json::value(render::media_type(f))); });
    return types;
}

response not_acceptable(request const& req, std::string_view path, std::string_view query, render::format_set offered)
{
    // A resource in one format ("/llms.txt", "/openapi.json") is its own URL; the others take a suffix.
    bool const single = offered == render::json_only || offered == render::text_only;
    auto types = available_types(offered);
    boost::json::array urls;
    offered.for_each([&](render::format f) {
        urls.push_back(boost::json::value(single ? std::string(path) + std::string(query)
                                                 : render::suffixed_url(path, f, query)));
    });
    std::string const accept(req[beast_http::field::accept]);
    std::string const suffixed =
        single ? std::string() : render::suffixed_url(path, render::format::markdown, query);
    auto const lang = negotiate_language(req[beast_http::field::accept_language]);
    std::string const detail =
        lang == locale::language::fr
            ? std::string(path) + " n’existe dans aucun format que permet Accept\u202F: " + accept +
                  "\u202F; formats disponibles\u202F: " + media_types(offered) +
                  (single ? std::string() : " (ou nommez-en un par un suffixe\u202F: " + suffixed + ")")
            : std::string(path) + " is not available in any format that Accept: " + accept +
                  " allows; available: " + media_types(offered) +
                  (single ? std::string() : " (or name one with a suffix: " + suffixed + ")");
    return problem(req, beast_http::status::not_acceptable, detail,
                   {{"available", std::move(types)}, {"alternates", std::move(urls)}}, lang);
}

// Whether a response carries the resource (and so the links to its other formats).
bool has_resource(response const& res)
{
    return res.result() == beast_http::status::ok || res.result() == beast_http::status::not_modified;
}

// Whether `method` is one of `allowed` ("GET, HEAD").
bool method_allowed(std::string_view allowed, std::string_view method) { return list_has(allowed, method); }

response method_not_allowed(request const& req, std::string_view path, std::string_view allowed)
{
    bool const read_only = allowed == "GET, HEAD";
    auto const lang = negotiate_language(req[beast_http::field::accept_language]);
    std::string const method(req.method_string());
    std::string const detail =
        lang == locale::language::fr
            ? method + " n’est pas permis sur " + std::string(path) +
                  (read_only ? std::string("\u202F; cette API est en lecture seule (GET, HEAD)")
                             : "\u202F; permis\u202F: " + std::string(allowed))
            : method + " is not allowed on " + std::string(path) +
                  (read_only ? std::string("; this API is read-only (GET, HEAD)") : "; allowed: " + std::string(allowed));
    auto res = problem(req, beast_http::status::method_not_allowed, detail, {}, lang);
    res.set(beast_http::field::allow, read_only ? read_api_allow : allowed);
    return res;
}

// A body for `r`, the route of `path` (or none): refused unless `r` takes POST and this is one.
std::optional<response> refuse_body_on(route const* r, request const& head, std::string_view path)
{
    std::string_view const method = head.method_string();
    if (r && method == "POST" && method_allowed(r->methods, "POST"))
        return std::nullopt;
    if (r && !method_allowed(r->methods, method))
        return method_not_allowed(head, path, r->methods);
    return problem(head, beast_http::status::bad_request, "this resource takes no request body");
}

answer dispatch(request const& req, request_context const& ctx, std::string_view& route)
{
    std::string_view const target = req.target();
    auto const question = target.find('?');
    std::string_view const path = target.substr(0, question);
    std::string_view const query_string = question == std::string_view::npos ? "" : target.substr(question);
    auto const found = find_route(path);
    route = found.r ? found.r->pattern : unmatched_route;
    if (!found.r) {
        auto const lang = negotiate_language(req[beast_http::field::accept_language]);
        return problem(req, beast_http::status::not_found,
                       lang == locale::language::fr
                           ? "aucune ressource à " + std::string(path) + "\u202F; l’API est sous /v1 (voir le README)"
                           : "no resource at " + std::string(path) + "; the API lives under /v1 (see README)",
                       {}, lang);
    }
    auto const& r = *found.r;
    std::vector<std::string_view> captures;  // into found.path, which outlives the handler
    match(r.pattern, found.path, captures, r.tail);
    bool const read_route = r.methods == "GET, HEAD";
    if (read_route && req.method() == beast_http::verb::options)
        return read_preflight(req, r.preflight_headers);
    if (!method_allowed(r.methods, req.method_string()) && !r.refuses_other_methods)
        return method_not_allowed(req, path, r.methods);
    // Only routes that take POST read a body; on the others one is a client error, never ignored.
    // The connection asks the same before reading a body; this is for requests handed over whole.
    if (!req.body().empty())
        if (auto refusal = refuse_body_on(&r, req, path))
            return std::move(*refusal);
    if (r.needs_snapshot && !ctx.snapshot) {
        auto res = problem(req, beast_http::status::service_unavailable,
                           "the service is starting: no data loaded yet");
        res.set(beast_http::field::retry_after, "5");
        return res;
    }
    // The format: named by the suffix, else negotiated from Accept.
    render::format format = render::format::json;
    if (found.suffix) {
        // The resource exists, not in that format: 406, as for an Accept header nothing satisfies.
        if (!r.formats.contains(*found.suffix)) {
            auto const lang = negotiate_language(req[beast_http::field::accept_language]);
            std::string const shown(render::display_name(*found.suffix));
            return problem(req, beast_http::status::not_acceptable,
                           lang == locale::language::fr
                               ? std::string(found.path) + " n’existe pas en " + shown + "\u202F; formats disponibles\u202F: " +
                                     media_types(r.formats)
                               : std::string(found.path) + " has no " + shown + " form; it is available as " +
                                     media_types(r.formats),
                           {{"available", available_types(r.formats)}}, lang);
        }
        format = *found.suffix;
    } else if (!r.formats.empty()) {
        auto const negotiated = negotiate_format(req[beast_http::field::accept], r.formats);
        if (!negotiated)
            return not_acceptable(req, found.path, reencoded_query(query_string), r.formats);
        format = *negotiated;
    }
    // /mcp reads no query string (its message is the body) and refuses in JSON-RPC, never here.
    bool const reads_query = !query_string.empty() && !r.refuses_other_methods;
    auto query = query_params::parse(reads_query ? query_string.substr(1) : "");
    if (!query) {  // in the language Accept-Language asks for: `lang` is among what could not be read
        auto const preferred = negotiate_language(req[beast_http::field::accept_language]);
        if (!r.op)
            return from_error(req, query.err().cause, query.err().parameter, {}, preferred);
        auto none = query_params::parse("");
        route_input in{req, ctx, std::move(captures), none.value(), format, r.formats, r.kind, found.path, {}, preferred};
        return refuse_unread_query(in, *r.op, api::refused(query.err()));
    }
    // Every document route (GET, from the snapshot) takes `lang`; an operation reads it with its
    // other arguments; the probes and /mcp take none.
    auto lang = locale::language::en;
    if (!r.op && r.needs_snapshot && r.methods == "GET, HEAD") {
        auto const preferred = negotiate_language(req[beast_http::field::accept_language]);
        auto const l = api::language_of(query.value().take("lang"), preferred);
        if (!l)
            return bad_parameter(req, l.err().parameter, l.err().in(preferred), preferred);
        lang = *l;
    }
    // What the answer echoes of the query (links to the other formats) is re-encoded, never the raw bytes.
    std::string const echoed_query = reencoded_query(query_string);
    route_input in{req, ctx, std::move(captures), query.value(), format, r.formats, r.kind, found.path, echoed_query, lang};
    response res = r.op ? handle_operation(in, *r.op) : r.fn(in);
    // Refused where the question would have been answered: with the body (200), without it (304,
    // which a cache would otherwise take as valid for that query too), or not for a precondition
    // (412, which RFC 9110 §13.2.1 lets a request in error not reach).
    if (auto const unknown = query->first_unknown();
        unknown && (in.later || res.result() == beast_http::status::ok ||
                    res.result() == beast_http::status::not_modified ||
                    res.result() == beast_http::status::precondition_failed))
        return bad_parameter(req, *unknown,
                             in.lang == locale::language::fr
                                 ? "paramètre inconnu " + pricing::quote(*unknown) + " pour " + std::string(found.path)
                                 : "unknown parameter " + pricing::quote(*unknown) + " for " + std::string(found.path),
                             in.lang);
    auto const& fixed = r.links_without_query[static_cast<std::size_t>(format)];
    if (!in.later) {
        if (has_resource(res)) {
            if (query_string.empty() && !fixed.empty())
                res.set(beast_http::field::link, fixed);
            else if (auto const links = with_description(alternate_links(found.path, echoed_query, r.formats, format),
                                                         r.pattern, found.path, format);
                     !links.empty())
                res.set(beast_http::field::link, links);
        }
        return res;
    }
    std::string links = query_string.empty() && !fixed.empty()
                            ? fixed
                            : with_description(alternate_links(found.path, echoed_query, r.formats, format), r.pattern,
                                               found.path, format);
    return deferred([later = std::move(in.later), links = std::move(links)](responder send) {
        later([send = std::move(send), links](response given) {
            if (has_resource(given) && !links.empty())
                given.set(beast_http::field::link, links);
            send(std::move(given));
        });
    });
}

}

std::string_view route_pattern(std::string_view target)
{
    auto const found = find_route(target.substr(0, target.find('?')));
    return found.r ? found.r->pattern : unmatched_route;
}

std::optional<response> refuse_unwanted_body(request const& head)
{
    std::string_view const target = head.target();
    std::string_view const path = target.substr(0, target.find('?'));
    return refuse_body_on(find_route(path).r, head, path);
}

std::vector<route_info> route_list()
{
    std::vector<route_info> out;
    for (auto const& r : routes())
        out.push_back({r.pattern, r.formats, r.methods});
    return out;
}

answer handle_deferrable(request const& req, request_context const& ctx, std::string_view* route)
{
    std::string_view matched = unmatched_route;
    try {
        auto res = dispatch(req, ctx, matched);
        if (route)
            *route = matched;
        return res;
    } catch (std::exception const& e) {
        if (route)
            *route = matched;
        ops::report_caught_exception(ctx.metrics, "http", std::string(req.method_string()) + " " + std::string(matched) + ": " +
                                                 e.what());
        return problem(req, beast_http::status::internal_server_error, "the server failed to answer this request");
    }
}

namespace {

// A body sent in parts, gathered whole for a caller that is not a connection.
response gathered(response res)
{
    auto const source = res.body().source();
    if (!source)
        return res;
    std::string body;
    while (true) {
        std::promise<body_part> given;
        auto next = given.get_future();
        source->next([&given](body_part part) { given.set_value(std::move(part)); });
        auto const part = next.get();
        if (part.failed)
            throw std::runtime_error("a body sent in parts could not be read whole");
        if (part.bytes.empty())
            break;
        body.append(part.bytes);
    }
    res.body() = std::move(body);
    if (res.find(beast_http::field::content_length) == res.end())
        res.prepare_payload();  // framed by the connection: the length is now known
    return res;
}

}

response handle(request const& req, request_context const& ctx, std::string_view* route)
{
    auto a = handle_deferrable(req, ctx, route);
    if (!a.later)
        return gathered(std::move(a.now));
    std::promise<response> given;
    auto result = given.get_future();
    a.later([&given](response res) { given.set_value(std::move(res)); });
    return gathered(result.get());
}

}
