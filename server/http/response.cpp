#include "server/http/response.hpp"

#include "server/render/json.hpp"

#include <cstdint>

namespace lcg::http {

namespace {

bool etag_matches(request const& req, std::string_view etag)
{
    auto const it = req.find(beast_http::field::if_none_match);
    if (it == req.end())
        return false;
    std::string_view header = it->value();
    if (header == "*")
        return true;
    // A list of entity tags, possibly weak (W/"…"); If-None-Match compares weakly.
    while (!header.empty()) {
        auto const comma = header.find(',');
        auto tag = header.substr(0, comma);
        header = comma == std::string_view::npos ? std::string_view{} : header.substr(comma + 1);
        while (!tag.empty() && (tag.front() == ' ' || tag.front() == '\t'))
            tag.remove_prefix(1);
        while (!tag.empty() && (tag.back() == ' ' || tag.back() == '\t'))
            tag.remove_suffix(1);
        if (tag.starts_with("W/"))
            tag.remove_prefix(2);
        if (tag == etag)
            return true;
    }
    return false;
}

// A cheap validator for computed bodies (FNV-1a, 64 bits): distinct bodies, distinct tags.
std::string computed_etag(std::string_view body)
{
    std::uint64_t h = 1469598103934665603ULL;
    for (char c : body) {
        h ^= static_cast<unsigned char>(c);
        h *= 1099511628211ULL;
    }
    static constexpr char hex[] = "0123456789abcdef";
    std::string tag = "\"c";
    for (int shift = 60; shift >= 0; shift -= 4)
        tag += hex[(h >> shift) & 0xf];
    return tag + "\"";
}

response conditional(request const& req, std::string_view content_type, std::string_view etag,
                     std::string const& body, std::string_view cache_control)
{
    bool const not_modified = etag_matches(req, etag);
    auto res = base_response(req, not_modified ? beast_http::status::not_modified : beast_http::status::ok);
    res.set(beast_http::field::etag, etag);
    res.set(beast_http::field::cache_control, cache_control);
    res.set(beast_http::field::vary, "Accept, Accept-Encoding, Accept-Language");
    if (not_modified)
        return res;
    res.set(beast_http::field::content_type, content_type);
    res.body() = body;
    res.prepare_payload();
    if (req.method() == beast_http::verb::head)
        res.body().clear();  // Content-Length stays that of the full body
    return res;
}

}

response base_response(request const& req, beast_http::status status)
{
    response res{status, req.version()};
    res.set(beast_http::field::server, "lowcostgpu");
    res.set("X-Content-Type-Options", "nosniff");
    res.set(beast_http::field::access_control_allow_origin, "*");
    res.keep_alive(req.keep_alive());
    return res;
}

response problem(request const& req, beast_http::status status, std::string const& detail, boost::json::object extra)
{
    auto res = base_response(req, status);
    res.set(beast_http::field::content_type, "application/problem+json");
    res.set(beast_http::field::cache_control, "no-store");
    res.body() = render::to_text(render::problem_json(static_cast<int>(status),
                                                      std::string(beast_http::obsolete_reason(status)), detail,
                                                      std::move(extra)));
    res.prepare_payload();
    if (req.method() == beast_http::verb::head)
        res.body().clear();
    return res;
}

response bad_parameter(request const& req, std::string const& parameter, std::string const& detail)
{
    return problem(req, beast_http::status::bad_request, detail, {{"parameter", parameter}});
}

response from_error(request const& req, pricing::error const& e, std::string const& parameter)
{
    static constexpr beast_http::status statuses[] = {
        beast_http::status::bad_request,          // invalid_argument
        beast_http::status::not_found,            // not_found
        beast_http::status::service_unavailable,  // unavailable
    };
    boost::json::object extra;
    if (!parameter.empty())
        extra["parameter"] = parameter;
    return problem(req, statuses[static_cast<int>(e.code)], e.message, std::move(extra));
}

response serve_document(request const& req, snapshot::document const& doc, std::string_view cache_control)
{
    return conditional(req, doc.content_type, doc.etag, doc.body, cache_control);
}

response serve_json(request const& req, boost::json::value const& body, std::string_view cache_control)
{
    std::string const text = render::to_text(body);
    return conditional(req, "application/json", computed_etag(text), text, cache_control);
}

}
