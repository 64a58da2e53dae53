// POST /mcp: the Streamable HTTP transport of the MCP core (JSON responses only, no SSE, no
// sessions). The transport checks come first (Host and Origin, Content-Type, Accept, size), then the
// message goes to the mcp::server of the snapshot in force. OPTIONS /mcp is the CORS preflight a
// browser sends before such a POST from another origin.
#include "server/http/handlers.hpp"
#include "server/http/headers.hpp"
#include "server/http/negotiation.hpp"
#include "server/http/mcp_access.hpp"
#include "server/ops/metrics.hpp"

#include "server/mcp_bridge/snapshot_view.hpp"
#include "server/snapshot/gzip.hpp"

#include "mcp/failure.hpp"
#include "mcp/server_card.hpp"

#include "render/json.hpp"

#include <boost/json/array.hpp>

#include <array>
#include <string>

namespace lcg::http {

namespace {

// What a page from an allowed origin may send and read. The request headers are those the MCP
// clients send (Last-Event-ID only when resuming a stream, which we never offer). Of the response
// headers the SDKs read, this server sends none today: it is stateless, so no Mcp-Session-Id, and
// the negotiated version travels in the body, not in MCP-Protocol-Version. They are exposed anyway,
// so that a browser client would see them as any other client does if a later version sends them.
constexpr std::string_view cors_request_headers =
    "Content-Type, Accept, MCP-Protocol-Version, Mcp-Method, Mcp-Name, Last-Event-ID";
constexpr std::string_view cors_response_headers = "MCP-Protocol-Version, Mcp-Session-Id";
constexpr std::string_view allowed_methods = "POST, OPTIONS";  // also the router's, for its 405



// The media type of a Content-Type value, without its parameters.
std::string_view media_type_of(std::string_view value) { return trim_whitespace(value.substr(0, value.find(';'))); }

// Whether an Accept header allows application/json: application/json, application/* or */* with a
// q-value above 0. No Accept header allows anything.
bool accepts_json(std::string_view accept)
{
    if (trim_whitespace(accept).empty())
        return true;
    for (auto const& range : weighted_items(accept))
        if (range.q > 0 && (iequals(range.value, "application/json") || iequals(range.value, "application/*") ||
                            range.value == "*/*"))
            return true;
    return false;
}

std::optional<std::string_view> header(request const& req, std::string_view name)
{
    auto const it = req.find(name);
    if (it == req.end())
        return std::nullopt;
    return std::string_view(it->value());
}


// OPTIONS /mcp, once Host and Origin passed. With an Origin it is a browser's CORS preflight: 204
// with the method and headers a page may use, cached by the browser for a day (the caller adds
// the origin itself). Without one no browser is asking, so nothing is granted to any page: a plain
// OPTIONS (RFC 9110 §9.3.7), answered 204 with Allow alone. Access-Control-Request-Method and
// -Headers do not change the answer. GET and DELETE are granted to the page although they are 405
// (no event stream, no session): so the browser sends them and the page's client reads the 405,
// which the SDKs take as "not offered", where a refused preflight is a network error they log.
response preflight(request const& req, bool from_browser)
{
    auto res = base_response(req, beast_http::status::no_content);
    res.set(beast_http::field::allow, allowed_methods);
    if (from_browser) {
        res.set(beast_http::field::access_control_allow_methods, "GET, POST, DELETE");
        res.set(beast_http::field::access_control_allow_headers, cors_request_headers);
        res.set(beast_http::field::access_control_max_age, "86400");
    }
    return res;  // no Content-Length: a 204 has no content
}

// GET (no server-sent stream is offered), DELETE (no session to end), HEAD and the rest: 405, as the
// Streamable HTTP transport allows, with the CORS headers of an allowed origin added by the caller,
// so that a page's client reads the 405 instead of failing on it.
response other_method(request const& req)
{
    auto res = mcp_transport_refusal(req, beast_http::status::method_not_allowed,
                       std::string(req.method_string()) + " is not allowed on /mcp; allowed: " +
                           std::string(allowed_methods));
    res.set(beast_http::field::allow, allowed_methods);
    return res;
}

// A reply's body. One that ends with text the server keeps (the tool list, the default get_prices
// result: the largest replies, asked for most) goes gzip-encoded to a client that accepts gzip, from
// that text deflated once per snapshot by the servers' shared cache (none in tests that call the
// router without one: plain then), so that a reply costs no compression; it is sent as it is
// otherwise. Other replies are sent as they are: compressing each on the fly would let one request
// cost as much CPU as its reply is large. False when the reply goes plain only because the deflated
// copy is not to be had now (another snapshot's server holds the cache): not the reply to keep.
bool write_reply(request const& req, response& res, mcp_bridge::server_cache* shared,
                 std::shared_ptr<const mcp::server> const& server, mcp::reply answer)
{
    if (answer.lasting_end.empty()) {
        res.body() = std::move(answer.body);
        return true;
    }
    res.set(beast_http::field::vary, "Origin, Accept-Encoding");
    bool const wants_gzip = shared && accepts_gzip(req[beast_http::field::accept_encoding]);
    if (wants_gzip)
        if (auto const deflated = shared->deflated(server, answer.lasting_end)) {
            res.set(beast_http::field::content_encoding, "gzip");
            res.body() = snapshot::gzip_joined(answer.body, *deflated);
            return true;
        }
    res.body() = std::move(answer.body);
    res.body().end_with(server, answer.lasting_end);
    return !wants_gzip;
}

// POST /mcp, once Host and Origin passed: the transport checks, then the MCP core.
response exchange(route_input& in)
{
    // The message is the body: a query (a token or a marker some clients add to the URL) is read
    // by nobody, and refusing it after the message ran would throw a computed answer away.
    in.query.release();
    auto const& req = in.req;
    if (!iequals(media_type_of(req[beast_http::field::content_type]), "application/json"))
        return mcp_transport_refusal(req, beast_http::status::unsupported_media_type,
                       "unsupported media type: POST /mcp takes Content-Type: application/json");
    if (!accepts_json(req[beast_http::field::accept]))
        return mcp_transport_refusal(req, beast_http::status::bad_request,
                       "not acceptable: /mcp answers application/json, which Accept does not allow");

    mcp::message_context context{mcp::transport::http, header(req, "MCP-Protocol-Version"),
                                 header(req, "Mcp-Method"), header(req, "Mcp-Name")};
    context.batch_cpu = mcp::batch_cpu_budget;
    // The request paid for one message; a batch pays for the others before any of them runs.
    std::optional<response> rate_limited;
    if (in.ctx.charge)
        context.admit_batch = [&](std::size_t messages) {
            rate_limited = in.ctx.charge(messages - 1);
            return !rate_limited;
        };
    mcp_bridge::server_cache for_this_request;
    auto const server = (in.ctx.mcp_servers ? *in.ctx.mcp_servers : for_this_request).get(in.ctx.snapshot);
    auto answer = server->handle(req.body(), context);
    if (rate_limited)
        return std::move(*rate_limited);
    if (in.ctx.metrics)
        for (auto const& call : answer.tool_calls)
            in.ctx.metrics->record_mcp_call(call.tool, std::string(call.outcome));
    for (auto const& failure : answer.failures)
        ops::report_caught_exception(in.ctx.metrics, "mcp", failure);

    auto res = base_response(req, mcp_status(answer));
    res.set(beast_http::field::cache_control, "no-store");
    if (!answer.empty()) {
        res.set(beast_http::field::content_type, "application/json");
        // A lone message answered without failure gets the same bytes when sent again with the same
        // headers on this snapshot: the connection may store the reply (stored_answers).
        bool const repeatable = !answer.batch && answer.failures.empty();
        auto call = answer.tool_calls.empty() ? mcp::tool_call{} : std::move(answer.tool_calls.front());
        if (write_reply(req, res, in.ctx.mcp_servers, server, std::move(answer)) && repeatable)
            res.body().mark_message_answer(std::move(call));
    }
    res.prepare_payload();
    return res;
}

}

response mcp_transport_refusal(request const& req, beast_http::status status, std::string const& message)
{
    auto res = base_response(req, status);
    res.set(beast_http::field::content_type, "application/json");
    res.set(beast_http::field::cache_control, "no-store");
    res.set(beast_http::field::vary, "Origin");
    res.body() = mcp::error_response(nullptr, {mcp::error_code::invalid_request, message});
    res.prepare_payload();
    return res;
}

beast_http::status mcp_status(mcp::reply const& answer)
{
    using enum mcp::error_code;
    if (answer.too_large)
        return beast_http::status::payload_too_large;
    if (answer.empty())
        return beast_http::status::accepted;  // a notification, or a batch of them
    if (!answer.error)
        return beast_http::status::ok;  // a result, or a batch's answers whatever each says
    switch (*answer.error) {
    case parse_error:
    case invalid_request:
    case header_mismatch:
    case unsupported_protocol_version:
        return beast_http::status::bad_request;
    case method_not_found:
        // 2026-07-28 routes by Mcp-Method, so a method it lacks is a resource that is not there.
        return answer.modern ? beast_http::status::not_found : beast_http::status::ok;
    case internal_error:
        return beast_http::status::internal_server_error;
    case rate_limited:
        return beast_http::status::too_many_requests;
    case invalid_params:
    case resource_not_found:
        return beast_http::status::ok;
    }
    return beast_http::status::internal_server_error;
}

response handle_mcp(route_input& in)
{
    auto const& req = in.req;
    static mcp_access const localhost_only;
    mcp_access const& access = in.ctx.mcp_policy ? *in.ctx.mcp_policy : localhost_only;
    if (!access.host_allowed(req[beast_http::field::host]))
        return mcp_transport_refusal(req, beast_http::status::forbidden,
                       "forbidden: this Host is not allowed to use /mcp (see --allowed-hosts)");
    auto const origin = header(req, "Origin");
    if (origin && !access.origin_allowed(*origin))
        return mcp_transport_refusal(req, beast_http::status::forbidden,
                       "forbidden: this Origin is not allowed to use /mcp (see --allowed-origins)");
    auto res = req.method() == beast_http::verb::options ? preflight(req, origin.has_value())
               : req.method() == beast_http::verb::post  ? exchange(in)
                                                         : other_method(req);
    // The answer depends on Origin, and a reply that may be gzip-encoded on Accept-Encoding too
    // (write_reply); on nothing else a cache could key on: every other variation is an error, and
    // no-store. An allowed origin is named, never "*": even with --allowed-origins '*' a page reads
    // only what it was allowed, one origin at a time.
    if (res.find(beast_http::field::vary) == res.end())
        res.set(beast_http::field::vary, "Origin");
    if (origin) {
        res.set(beast_http::field::access_control_allow_origin, *origin);
        res.set(beast_http::field::access_control_expose_headers, cors_response_headers);
    }
    return res;
}

response handle_server_card(route_input& in)
{
    auto const& req = in.req;
    // The card names the endpoint a client reaches through this same Host; a Host that /mcp refuses
    // has no endpoint to name (and, unchecked, could make the card advertise any host at all).
    static mcp_access const localhost_only;
    mcp_access const& access = in.ctx.mcp_policy ? *in.ctx.mcp_policy : localhost_only;
    std::string_view const host = req[beast_http::field::host];
    if (!access.host_allowed(host))
        return problem(req, beast_http::status::forbidden,
                       "this Host is not allowed to use /mcp (see --allowed-hosts): no server card names it");
    // The draft's media type, and plain JSON for a client that asks only for that.
    static constexpr std::array<std::string_view, 2> types{mcp::server_card_media_type, "application/json"};
    auto const type = negotiate_type(req[beast_http::field::accept], types);
    if (!type)
        return problem(req, beast_http::status::not_acceptable,
                       "/mcp/server-card is not available in any format that Accept: " +
                           std::string(req[beast_http::field::accept]) + " allows; available: " +
                           std::string(types[0]) + ", " + std::string(types[1]),
                       {{"available", boost::json::array{types[0], types[1]}}});
    // Where clients reach the service: the operator's --public-url when given; else this Host, over
    // plain HTTP for loopback only (behind a public name the service is reached through TLS, which
    // the draft requires for a card in production and this process does not see).
    std::string const& configured = in.snap().public_url;
    std::string const base = !configured.empty() ? configured
                                                 : (mcp_access::is_loopback(host) ? "http://" : "https://") + std::string(host);
    // The card depends on this binary and the Host alone; it is dated like the first snapshot so
    // that If-Modified-Since revalidates as for the other documents.
    static auto const since = in.snap().built_at;
    auto card = std::make_shared<snapshot::document>(*snapshot::make_document(
        std::string(*type),
        render::to_text(mcp::server_card(mcp_bridge::server_identity(), mcp_bridge::registry_identity(), base)),
        false, since));
    if (*type != mcp::server_card_media_type) {
        // The same bytes under another media type are another representation: their own validators.
        card->etag.insert(card->etag.size() - 1, "-json");
        card->gzip_etag.insert(card->gzip_etag.size() - 1, "-json");
    }
    auto res = serve_document(req, card, server_card_cache_control);
    res.set(beast_http::field::access_control_allow_methods, "GET, HEAD");
    res.set(beast_http::field::access_control_allow_headers, server_card_request_headers);
    return res;
}

response handle_legacy_server_card(route_input& in)
{
    // The card depends only on this binary (its registry and version): rendered once, then served
    // with its validators like any published document, with a link to the current draft's card.
    static auto const card = snapshot::make_document(
        "application/json", render::to_text(mcp::legacy_server_card(mcp_bridge::server_identity(), "/mcp")), false,
        in.snap().built_at);
    auto res = serve_document(in.req, card);
    res.set(beast_http::field::link,
            "</mcp/server-card>; rel=\"alternate\"; type=\"" + std::string(mcp::server_card_media_type) + "\"");
    return res;
}

}
