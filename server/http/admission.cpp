#include "server/http/admission.hpp"

#include "server/http/forwarded.hpp"
#include "server/http/handlers.hpp"
#include "server/http/headers.hpp"
#include "server/http/response.hpp"
#include "server/http/wire.hpp"
#include "server/ops/client_address.hpp"
#include "server/ops/metrics.hpp"

#include "mcp/failure.hpp"

namespace lcg::http {

namespace {

// `why` says more when the request alone would have passed (a batch's messages).
response too_many_requests(request const& req, ops::rate_decision const& d, ops::rate_limit_options const& o,
                           std::string_view why = {})
{
    std::string const detail = "too many requests from this address" + std::string(why) + "; retry after " +
                               std::to_string(d.retry_after_seconds) + " s";
    response res;
    if (names_mcp_endpoint(req.target())) {
        // An MCP client understands a JSON-RPC error better than a problem document.
        res = base_response(req, beast_http::status::too_many_requests);
        res.set(beast_http::field::content_type, "application/json");
        res.body() = mcp::error_response(nullptr, {mcp::error_code::rate_limited, detail}) + "\n";
        res.prepare_payload();
    } else {
        res = problem(req, beast_http::status::too_many_requests, detail);
    }
    long const window = static_cast<long>(o.burst / o.per_second + 0.5);
    res.set(beast_http::field::retry_after, std::to_string(d.retry_after_seconds));
    res.set("RateLimit-Policy", "\"per-address\";q=" + std::to_string(static_cast<long>(o.burst)) +
                                    ";w=" + std::to_string(std::max(1L, window)));
    res.set("RateLimit", "\"per-address\";r=" + std::to_string(d.remaining) + ";t=" +
                             std::to_string(d.reset_seconds));
    return res;
}

}

// A request body is framed only by chunked as the final coding, never in HTTP/1.0 and never across
// a folded line. No other coding is implemented (a gzip request body would be taken as it is) and
// chunked may be applied once, so the one accepted value is "chunked" alone, in one field line:
// "gzip, chunked", "chunked, chunked" and "chunked," are refused. A request whose framing is unclear
// is refused, so no proxy in front can read it otherwise.
std::optional<std::string> refuse_transfer_coding(request const& head)
{
    auto const [first, last] = head.equal_range(beast_http::field::transfer_encoding);
    if (first == last)
        return std::nullopt;  // nearly every request
    if (head.version() < 11)
        return "Transfer-Encoding is not allowed in an HTTP/1.0 request";
    if (std::next(first) != last)
        return "a request's Transfer-Encoding must be given once, as chunked";
    auto const value = first->value();
    if (value.find_first_of("\r\n") != std::string_view::npos)
        return "a Transfer-Encoding folded over several lines is refused";
    if (!iequals(trim_whitespace(value), "chunked"))
        return "a request's Transfer-Encoding must be chunked alone (no other coding is implemented, and chunked is "
               "applied once)";
    return std::nullopt;
}

// RFC 9112 §3.2: an HTTP/1.1 request carries exactly one Host field, and a request with several
// (or, in HTTP/1.1, none) is answered 400, because which authority it names is unclear.
std::optional<std::string> refuse_host(request const& head)
{
    auto const count = head.count(beast_http::field::host);
    if (count > 1)
        return "a request must carry one Host header, not " + std::to_string(count);
    if (count == 0 && head.version() >= 11)
        return "an HTTP/1.1 request must carry a Host header";
    return std::nullopt;
}

expectation expectation_of(request const& head)
{
    auto const field = head.find(beast_http::field::expect);
    if (field == head.end() || head.version() < 11)
        return expectation::none;
    return iequals(trim_whitespace(field->value()), "100-continue") ? expectation::continue_first : expectation::unmet;
}

// obs-fold (RFC 9112 §5.2) is a line break followed by a space or a tab. The parser would unfold it
// silently; a proxy in front might not, so the request is refused instead.
std::optional<response> refuse_folded_line(asio::const_buffer bytes)
{
    std::string_view const text(static_cast<char const*>(bytes.data()), bytes.size());
    std::string_view const head = text.substr(0, text.find("\r\n\r\n"));
    for (std::size_t at = head.find('\n'); at != std::string_view::npos; at = head.find('\n', at + 1))
        if (at + 1 < head.size() && (head[at + 1] == ' ' || head[at + 1] == '\t'))
            return problem(request{}, beast_http::status::bad_request,
                           "a header folded over several lines (obs-fold) is refused");
    return std::nullopt;
}

std::size_t per_address_cap(server_options const& o)
{
    return o.max_connections_per_address != 0 ? o.max_connections_per_address
                                               : std::max<std::size_t>(8, o.max_connections / 16);
}

std::string const& busy_connection_answer()
{
    static std::string const answer = [] {
        request req{beast_http::verb::get, "/", 11};
        auto res = problem(req, beast_http::status::service_unavailable, "too many open connections; retry shortly");
        res.set(beast_http::field::retry_after, "1");
        res.keep_alive(false);
        std::string head;
        write_head(res, head, {});  // made once: a 503 may go without a Date (RFC 9110 §6.6.1)
        return head + std::string(res.body().view());
    }();
    return answer;
}

// Whether the rate limit applies to `client` (loopback is exempt unless asked).
bool limited(connection_shared const& shared, std::string const& client)
{
    return shared.limiter && (shared.limiter->options().limit_loopback || !ops::is_loopback(client));
}

std::optional<response> admit(connection_shared& shared, request const& req, std::string const& peer,
                              std::string& client, std::string_view& route, bool& linger)
{
    if (req.target().size() > shared.options.target_limit) {
        route = "(unmatched)";
        auto res = problem(req, beast_http::status::uri_too_long,
                           "the request target is longer than " + std::to_string(shared.options.target_limit) + " bytes");
        res.keep_alive(false);
        linger = true;
        return res;
    }
    client = forwarded_client(peer, list_items(req, "X-Forwarded-For"), shared.options.trusted_proxies);
    if (limited(shared, client)) {
        auto const decision = shared.limiter->take(client);
        if (!decision.allowed) {
            route = route_pattern(req.target());
            shared.metrics.record_rate_limited();
            return too_many_requests(req, decision, shared.limiter->options());
        }
    }
    return std::nullopt;
}

answer answer_request(connection_shared& shared, std::shared_ptr<const snapshot::snapshot> snapshot,
                      request const& req, std::string const& client, std::string_view& route)
{
    request_context ctx{std::move(snapshot),
                        std::chrono::time_point_cast<std::chrono::seconds>(std::chrono::system_clock::now()),
                        shared.options.max_snapshot_age, shared.options.mcp_policy, shared.snapshots.checked_at(),
                        shared.snapshots.upstream(), shared.options.archive};
    ctx.mcp_servers = &shared.mcp_servers;
    ctx.metrics = &shared.metrics;
    ctx.client = client;
    if (limited(shared, client))
        ctx.charge = [&shared, &req, &client](std::size_t count) -> std::optional<response> {
            auto const decision = shared.limiter->take(client, count);
            if (decision.allowed)
                return std::nullopt;
            shared.metrics.record_rate_limited();
            auto const& options = shared.limiter->options();
            bool const never = static_cast<double>(count + 1) > options.burst;
            return too_many_requests(req, decision, options,
                                     never ? ": a batch counts one request per message, and this one is larger than "
                                             "the burst of " + std::to_string(static_cast<long>(options.burst)) +
                                                 " requests; send smaller batches"
                                           : std::string(": a batch counts one request per message"));
        };
    return handle_deferrable(req, ctx, &route);
}

// A body on a route that takes none is refused; one that is accepted is charged to the budget of
// body bytes as it arrives (hold_body), until the request is read.
std::uint64_t body_budget_per_client(server_options const& o)
{
    return o.body_budget_per_address != 0 ? o.body_budget_per_address : o.body_budget / 4;
}

std::optional<response> refuse_body(connection_shared& shared, beast_http::request_parser<received_body>& parser,
                                    std::string const& peer, body_reservation& reserved)
{
    join_negotiation_lines(parser.get());
    if (auto const host = refuse_host(parser.get()))
        return problem(parser.get(), beast_http::status::bad_request, *host);
    // Once Host is known to be one, and before the route is asked whether it takes a body; a target
    // too long to trust is left for admit's 414.
    if (parser.get().target().size() <= shared.options.target_limit)
        to_origin_form(parser.get());
    if (auto const framing = refuse_transfer_coding(parser.get()))
        return problem(parser.get(), beast_http::status::bad_request, *framing);
    if (expectation_of(parser.get()) == expectation::unmet)
        return problem(parser.get(), beast_http::status::expectation_failed,
                       "the only expectation met here is Expect: 100-continue");
    // A coding list the parser does not read as ending in chunked ("x y, chunked"): it would take
    // the body for the next request where a proxy in front reads it as this one's.
    if (parser.get().find(beast_http::field::transfer_encoding) != parser.get().end() && !parser.chunked())
        return problem(parser.get(), beast_http::status::bad_request,
                       "a Transfer-Encoding that cannot be read as ending with chunked is refused");
    auto const length = parser.content_length();
    if (!parser.chunked() && length.value_or(0) == 0)
        return std::nullopt;
    if (auto refusal = refuse_unwanted_body(parser.get()))
        return refusal;
    // Nothing is taken yet: a body announced and never sent holds no memory, so it holds no budget.
    reserved = {0, forwarded_client(peer, list_items(parser.get(), "X-Forwarded-For"), shared.options.trusted_proxies)};
    return std::nullopt;
}

std::optional<response> hold_body(connection_shared& shared, beast_http::request_parser<received_body>& parser,
                                  body_reservation& reserved)
{
    std::uint64_t const holds = parser.get().body().capacity();
    if (holds <= reserved.bytes)
        return std::nullopt;
    std::uint64_t const more = holds - reserved.bytes;
    auto const busy = [&](std::string const& why) {
        auto res = problem(parser.get(), beast_http::status::service_unavailable, why);
        res.set(beast_http::field::retry_after, "1");
        return res;
    };
    // One client's share first, so that slow bodies from one address cannot take the whole budget.
    if (!shared.body_bytes_by_client.take(reserved.client, body_budget_per_client(shared.options), more))
        return busy("this address is sending too many request bodies at once; retry once they are in");
    if (shared.body_bytes_reserved.fetch_add(more) + more > shared.options.body_budget) {
        shared.body_bytes_reserved.fetch_sub(more);
        shared.body_bytes_by_client.give_back(reserved.client, more);
        return busy("too many request bodies are being received; retry shortly");
    }
    reserved.bytes = holds;
    shared.metrics.body_taken(more);
    return std::nullopt;
}

void release_body_budget(connection_shared& shared, body_reservation& reserved)
{
    if (reserved.bytes != 0) {
        shared.body_bytes_reserved.fetch_sub(reserved.bytes);
        shared.body_bytes_by_client.give_back(reserved.client, reserved.bytes);
        shared.metrics.body_given_back(reserved.bytes);
    }
    reserved = {};
}

namespace {

// What an answer to a request that could not be read, or is refused as it is read, is framed for:
// HTTP/1.1, and the connection closes after it (what follows cannot be trusted).
request unread_request()
{
    request req;
    req.version(11);
    req.keep_alive(false);
    return req;
}

}

response unreadable_request(beast::error_code ec, std::string_view target)
{
    auto req = unread_request();
    if (ec == beast_http::error::body_limit && names_mcp_endpoint(target)) {
        req.target(target);  // so that no CORS header of the read API goes with it (base_response)
        return mcp_transport_refusal(req, beast_http::status::payload_too_large, mcp::too_large().message);
    }
    auto const status = ec == beast_http::error::header_limit ? beast_http::status::request_header_fields_too_large
                        : ec == beast_http::error::body_limit ? beast_http::status::payload_too_large
                                                              : beast_http::status::bad_request;
    return problem(req, status, "the request could not be read: " + ec.message());
}

std::optional<response> refuse_overlong_framing(bool header_done, std::size_t header_bytes, std::size_t held,
                                                std::size_t limit)
{
    if (!header_done && header_bytes + held > limit)
        return unreadable_request(beast_http::error::header_limit);
    if (header_done && held > limit)
        return problem(unread_request(), beast_http::status::bad_request,
                       "the request could not be read: a chunk size line or trailer longer than " +
                           std::to_string(limit) + " bytes");
    return std::nullopt;
}

std::size_t field_count(request const& req) { return static_cast<std::size_t>(std::distance(req.begin(), req.end())); }

std::optional<response> refuse_trailers(request const& req, std::size_t fields_at_header)
{
    if (field_count(req) == fields_at_header)
        return std::nullopt;
    return problem(unread_request(), beast_http::status::bad_request,
                   "trailer fields are refused: send every field in the header block");
}

}
