#pragma once

#include "server/http/router.hpp"

#include "render/format.hpp"

#include "locale/language.hpp"

#include "pricing/calendar.hpp"
#include "pricing/outcome.hpp"

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <string>
#include <string_view>

namespace lcg::http {

inline constexpr std::string_view shared_cache_control =
    "public, max-age=300, stale-while-revalidate=600, stale-if-error=86400";
inline constexpr std::string_view immutable_cache_control = "public, max-age=31536000, immutable";

// The read API's CORS, as the Fetch standard has browsers ask (issue 28): every origin may read it,
// send the request headers it takes (content negotiation and validators: a page that revalidates
// with If-None-Match is preflighted) and read the response headers that matter to a client.
inline constexpr std::string_view read_api_allow = "GET, HEAD, OPTIONS";
inline constexpr std::string_view read_api_request_headers =
    "Accept, Accept-Language, If-None-Match, If-Modified-Since, If-Match, If-Unmodified-Since, Cache-Control";
inline constexpr std::string_view read_api_exposed_headers =
    "ETag, Last-Modified, Link, Content-Language, Retry-After, RateLimit, RateLimit-Policy";

// The server card's (/mcp/server-card): the caching and the CORS request headers the SEP-2127
// draft lists (Content-Type and If-None-Match), with the read API's other validators and Accept.
inline constexpr std::string_view server_card_cache_control = "public, max-age=3600";
inline constexpr std::string_view server_card_request_headers =
    "Accept, Content-Type, If-None-Match, If-Modified-Since";

// Whether a request target is the MCP endpoint: the path /mcp, whatever the query (not /mcp/server-card).
bool names_mcp_endpoint(std::string_view target);

// Headers every response carries (server, nosniff, keep-alive as the request asked), and on every
// target but /mcp (which handles CORS itself) Access-Control-Allow-Origin: * and the exposed headers.
response base_response(request const& req, beast_http::status status);

// OPTIONS on a read route: 204, the preflight a browser sends before a GET with a header outside
// the CORS-safelisted ones, answered for a day.
response read_preflight(request const& req, std::string_view request_headers = read_api_request_headers);

// A problem's title: the reason phrase of its status, HTTP's own in English, ours in French.
std::string_view problem_title(beast_http::status status, locale::language lang);

// RFC 9457 problem document; `extra` members are merged in. Its title is the status's reason in
// `lang` (RFC 9457 lets a title change for localisation only); the detail is given in that language.
response problem(request const& req, beast_http::status status, std::string const& detail,
                 boost::json::object extra = {}, locale::language lang = locale::language::en);

// 400 naming the parameter at fault and what it accepts.
response bad_parameter(request const& req, std::string const& parameter, std::string const& detail,
                       locale::language lang = locale::language::en);

// The one table from a domain error to HTTP: invalid_argument 400, not_found 404, unavailable 503
// (with Retry-After). `extra` members are merged into the problem document, and the message is
// the error's in `lang` (Content-Language says which).
response from_error(request const& req, pricing::error const& e, std::string const& parameter = {},
                    boost::json::object extra = {}, locale::language lang = locale::language::en);

// The status of a domain error: the table from_error uses.
beast_http::status status_of(pricing::errc code);

// An HTML page answering with an error status (a calculator's refusal shown under its form): the
// headers of an HTML page, not stored.
response html_error_page(request const& req, beast_http::status status, std::string body);

// A pre-rendered document: ETag and Last-Modified with If-None-Match and If-Modified-Since (304)
// and If-Match and If-Unmodified-Since (412),
// its gzip copy when Accept-Encoding allows (with the gzip ETag), HEAD, and the headers its type
// needs (Content-Security-Policy on HTML, Content-Disposition: inline on Markdown).
response serve_document(request const& req, std::shared_ptr<const snapshot::document> const& doc,
                        std::string_view cache_control = shared_cache_control);

// A body sent as it is read (a week's inputs, a stored chunk at a time): the validators and
// headers of a document (ETag and Last-Modified with the validators: 304, 412),
// known before any of it is read, and no gzip copy. A 200 takes its body with send_parts.
struct parts_head {
    std::string_view content_type;
    std::string etag;  // quoted
    std::optional<pricing::instant> last_modified;
};
response parts_response(request const& req, parts_head const& head, std::string_view cache_control);
// The body of such a 200: the parts of `source`, `size` bytes in all (Content-Length) when known,
// else framed by the connection (chunked, or closing after it for an HTTP/1.0 client).
void send_parts(response& res, std::shared_ptr<body_source> source, std::optional<std::size_t> size);

// A body computed for this request (estimates, filtered listings) in format `f`: the same rules,
// with an ETag of the body and gzip compressed on the fly.
response serve_body(request const& req, render::format f, std::string body,
                    std::optional<pricing::instant> last_modified,
                    std::string_view cache_control = shared_cache_control);

}
