#include "server/http/response.hpp"

#include "server/http/headers.hpp"
#include "server/http/http_date.hpp"
#include "server/http/negotiation.hpp"
#include "render/html.hpp"
#include "render/json.hpp"
#include "server/snapshot/gzip.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace lcg::http {

namespace {

// The tag of `tags` that names `etag` or `other` (the same content in the other encoding, which a
// client may hold), or nothing. Compared weakly, a tag's W/ is dropped first; compared strongly, a
// W/ tag names nothing (RFC 9110 §8.8.3.2).
std::optional<std::string_view> tag_named(std::vector<std::string_view> const& tags, std::string_view etag,
                                          std::string_view other, bool weakly)
{
    for (auto tag : tags) {
        if (tag.starts_with("W/")) {
            if (!weakly)
                continue;
            tag.remove_prefix(2);
        }
        if (tag == etag || (!other.empty() && tag == other))
            return tag == etag ? etag : other;
    }
    return std::nullopt;
}

// The entity tag of If-None-Match that matches `etag` or `other`, or nothing (weakly compared).
std::optional<std::string_view> etag_matches(request const& req, std::string_view etag, std::string_view other)
{
    auto const it = req.find(beast_http::field::if_none_match);
    if (it == req.end())
        return std::nullopt;
    if (it->value() == "*")
        return etag;
    return tag_named(list_items(it->value()), etag, other, true);
}

// If-Match, else If-Unmodified-Since (RFC 9110 §13.2.2, steps 1 and 2): whether the resource is
// in the state the client expects. If-Match compares strongly with either encoding's tag, both
// naming the same state, over every line of the field; a date that does not parse, or more than
// one, is ignored, as §13.1.4 asks.
bool precondition_holds(request const& req, std::string_view etag, std::string_view other,
                        std::optional<pricing::instant> last_modified)
{
    if (req.find(beast_http::field::if_match) != req.end()) {
        auto const tags = list_items(req, beast_http::field::if_match);
        return std::find(tags.begin(), tags.end(), "*") != tags.end() || tag_named(tags, etag, other, false);
    }
    auto const since = req.find(beast_http::field::if_unmodified_since);
    if (since == req.end() || !last_modified || req.count(beast_http::field::if_unmodified_since) > 1)
        return true;
    auto const date = parse_http_date(since->value());
    return !date || *last_modified <= *date;
}

// One representation as a response may send it. Its bytes are shared with the response, which
// keeps `owner` alive until they are written.
struct representation {
    std::shared_ptr<const void> owner;
    std::string_view content_type;
    std::string_view body;
    std::string_view etag;
    std::string_view gzip_body;  // empty: none
    std::string_view gzip_etag;
    std::optional<pricing::instant> last_modified;
};

// A cheap validator for computed bodies: a 64-bit multiply-xorshift hash taken 8 bytes at a
// time in four independent lanes, folded at the end (a byte-wise FNV cost more than rendering the
// body, and one lane waits on each multiply in turn). Distinct bodies, distinct tags; the same body
// gives the same tag on every replica.
std::string computed_etag(std::string_view body)
{
    constexpr std::uint64_t multiplier = 0x9E3779B97F4A7C15ULL;
    auto const mix = [](std::uint64_t h, std::uint64_t word) {
        h = (h ^ word) * multiplier;
        return h ^ (h >> 29);
    };
    auto const word_at = [&](std::size_t at) {
        std::uint64_t word;
        std::memcpy(&word, body.data() + at, 8);
        return word;
    };
    std::uint64_t lane[4] = {0xcbf29ce484222325ULL ^ body.size(), 1, 2, 3};
    std::size_t i = 0;
    for (; i + 32 <= body.size(); i += 32)
        for (std::size_t l = 0; l < 4; ++l)
            lane[l] = mix(lane[l], word_at(i + 8 * l));
    for (; i + 8 <= body.size(); i += 8)
        lane[0] = mix(lane[0], word_at(i));
    std::uint64_t tail = 0;
    std::memcpy(&tail, body.data() + i, body.size() - i);
    std::uint64_t h = mix(lane[0], tail);
    for (std::size_t l = 1; l < 4; ++l)
        h = mix(h, lane[l]);
    static constexpr char hex[] = "0123456789abcdef";
    std::string tag = "\"c";
    for (int shift = 60; shift >= 0; shift -= 4)
        tag += hex[(h >> shift) & 0xf];
    return tag + "\"";
}

response conditional(request const& req, representation const& r, std::string_view cache_control)
{
    bool const gzipped = !r.gzip_body.empty() && accepts_gzip(req[beast_http::field::accept_encoding]);
    std::string_view etag = gzipped ? r.gzip_etag : r.etag;
    std::string_view const other_encoding = gzipped ? r.etag : r.gzip_etag;
    std::string_view const other = r.gzip_body.empty() ? std::string_view{} : other_encoding;
    // Either encoding's tag, even where this request asked for no gzip copy and none was made.
    if (!precondition_holds(req, etag, other_encoding, r.last_modified)) {
        auto res = problem(req, beast_http::status::precondition_failed,
                           "the resource is not in the state If-Match or If-Unmodified-Since expects: its entity tag is " +
                               std::string(etag));
        res.set(beast_http::field::etag, etag);
        return res;
    }
    bool not_modified = false;
    if (req.find(beast_http::field::if_none_match) != req.end()) {
        // If-None-Match decides alone when present (RFC 9110 §13.2.2).
        if (auto const matched = etag_matches(req, etag, other)) {
            not_modified = true;
            etag = *matched;
        }
    } else if (auto const since = req.find(beast_http::field::if_modified_since);
               since != req.end() && r.last_modified) {
        auto const date = parse_http_date(since->value());
        not_modified = date && *r.last_modified <= *date;
    }
    auto res = base_response(req, not_modified ? beast_http::status::not_modified : beast_http::status::ok);
    res.set(beast_http::field::etag, etag);
    res.set(beast_http::field::cache_control, cache_control);
    res.set(beast_http::field::vary, "Accept, Accept-Encoding, Accept-Language");
    if (r.last_modified)
        res.set(beast_http::field::last_modified, http_date(*r.last_modified));
    if (not_modified)
        return res;
    res.set(beast_http::field::content_type, r.content_type);
    if (r.content_type.starts_with("text/html"))
        res.set("Content-Security-Policy", render::html_content_security_policy);
    if (r.content_type.starts_with("text/markdown"))
        res.set(beast_http::field::content_disposition, "inline");  // shown as text, not downloaded
    if (gzipped)
        res.set(beast_http::field::content_encoding, "gzip");
    res.body() = payload(r.owner, gzipped ? r.gzip_body : r.body);
    res.prepare_payload();
    return res;
}

}

bool names_mcp_endpoint(std::string_view target) { return target.substr(0, target.find('?')) == "/mcp"; }

response base_response(request const& req, beast_http::status status)
{
    response res{status, req.version()};
    res.set(beast_http::field::server, "lowcostgpu");
    res.set("X-Content-Type-Options", "nosniff");
    // The read-only API is public to every origin. /mcp is not: its handler names the one origin it
    // allows (mcp_handler.cpp), so no response under /mcp, not even a 405, says "*".
    if (!names_mcp_endpoint(req.target())) {
        res.set(beast_http::field::access_control_allow_origin, "*");
        res.set(beast_http::field::access_control_expose_headers, read_api_exposed_headers);
    }
    res.keep_alive(req.keep_alive());
    return res;
}

response read_preflight(request const& req, std::string_view request_headers)
{
    auto res = base_response(req, beast_http::status::no_content);
    res.set(beast_http::field::allow, read_api_allow);
    res.set(beast_http::field::access_control_allow_methods, "GET, HEAD");
    res.set(beast_http::field::access_control_allow_headers, request_headers);
    res.set(beast_http::field::access_control_max_age, "86400");
    return res;  // no Content-Length: a 204 has no content
}

std::string_view problem_title(beast_http::status status, locale::language lang)
{
    if (lang == locale::language::en)
        return beast_http::obsolete_reason(status);
    switch (status) {
    case beast_http::status::bad_request: return "Requête incorrecte";
    case beast_http::status::not_found: return "Introuvable";
    case beast_http::status::method_not_allowed: return "Méthode non autorisée";
    case beast_http::status::not_acceptable: return "Format non disponible";
    case beast_http::status::conflict: return "Conflit";
    case beast_http::status::too_many_requests: return "Trop de requêtes";
    case beast_http::status::internal_server_error: return "Erreur interne du serveur";
    case beast_http::status::service_unavailable: return "Service indisponible";
    default: return beast_http::obsolete_reason(status);
    }
}

response problem(request const& req, beast_http::status status, std::string const& detail, boost::json::object extra,
                 locale::language lang)
{
    auto res = base_response(req, status);
    res.set(beast_http::field::content_type, "application/problem+json");
    res.set(beast_http::field::cache_control, "no-store");
    if (lang == locale::language::fr)
        res.set(beast_http::field::content_language, "fr");
    res.body() = render::to_text(render::problem_json(static_cast<int>(status), std::string(problem_title(status, lang)), detail,
                                                      std::move(extra)));
    res.prepare_payload();
    return res;
}

response bad_parameter(request const& req, std::string const& parameter, std::string const& detail,
                       locale::language lang)
{
    return problem(req, beast_http::status::bad_request, detail, {{"parameter", parameter}}, lang);
}

beast_http::status status_of(pricing::errc code)
{
    switch (code) {
    case pricing::errc::invalid_argument: return beast_http::status::bad_request;
    case pricing::errc::not_found: return beast_http::status::not_found;
    case pricing::errc::unpriced: return beast_http::status::conflict;  // with the sheet in force
    case pricing::errc::unavailable: break;
    }
    return beast_http::status::service_unavailable;
}

response html_error_page(request const& req, beast_http::status status, std::string body)
{
    auto res = base_response(req, status);
    res.set(beast_http::field::content_type, render::content_type(render::format::html));
    res.set(beast_http::field::cache_control, "no-store");
    res.set("Content-Security-Policy", render::html_content_security_policy);
    res.body() = std::move(body);
    res.prepare_payload();
    return res;
}

response from_error(request const& req, pricing::error const& e, std::string const& parameter,
                    boost::json::object extra, locale::language lang)
{
    if (!parameter.empty())
        extra["parameter"] = parameter;
    bool const french = lang == locale::language::fr && !e.message_fr.empty();
    auto res = problem(req, status_of(e.code), french ? e.message_fr : e.message, std::move(extra),
                       french ? locale::language::fr : locale::language::en);
    if (e.code == pricing::errc::unavailable)
        res.set(beast_http::field::retry_after, "60");  // the next snapshot or publication
    return res;
}

response serve_document(request const& req, std::shared_ptr<const snapshot::document> const& doc,
                        std::string_view cache_control)
{
    return conditional(req,
                       {doc, doc->content_type, doc->body, doc->etag, doc->gzip_body, doc->gzip_etag, doc->last_modified},
                       cache_control);
}

response serve_body(request const& req, render::format f, std::string body,
                    std::optional<pricing::instant> last_modified, std::string_view cache_control)
{
    struct computed {
        std::string body, zipped;
    };
    auto const made = std::make_shared<computed>();
    made->body = std::move(body);
    std::string const etag = computed_etag(made->body);
    std::string const gzip_etag = etag.substr(0, etag.size() - 1) + "-gz\"";
    if (made->body.size() >= 256 && accepts_gzip(req[beast_http::field::accept_encoding]))
        made->zipped = snapshot::gzip(made->body);
    if (made->zipped.size() >= made->body.size())
        made->zipped = std::string();
    return conditional(req, {made, render::content_type(f), made->body, etag, made->zipped, gzip_etag, last_modified},
                       cache_control);
}

response parts_response(request const& req, parts_head const& head, std::string_view cache_control)
{
    return conditional(req, {nullptr, head.content_type, {}, head.etag, {}, {}, head.last_modified}, cache_control);
}

void send_parts(response& res, std::shared_ptr<body_source> source, std::optional<std::size_t> size)
{
    res.body() = payload(std::move(source));
    if (size)
        res.content_length(*size);
    else
        res.erase(beast_http::field::content_length);
}

}
