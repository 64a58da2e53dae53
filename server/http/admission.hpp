#pragma once

// What is checked of a request before it is answered (its framing, Host, Expect, target and rate),
// the budgets its body is charged to while it arrives, the refusals for a crowded server, and the
// handing of an admitted request to the router.

#include "server/http/event_loop.hpp"
#include "server/http/router.hpp"

#include <boost/asio/buffer.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/http/parser.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace lcg::http {

// A request body's share of the budget, while it is received: the bytes it holds so far, and by whom.
struct body_reservation {
    std::uint64_t bytes = 0;
    std::string client;
};

// The answer to a request whose framing, target, client or body is refused, or nothing.
std::optional<std::string> refuse_transfer_coding(request const& head);  // RFC 9112 §6.1
std::optional<std::string> refuse_host(request const& head);             // RFC 9112 §3.2
// What an Expect field asks (RFC 9110 §10.1.1): nothing (none, or HTTP/1.0, where it is ignored), the
// interim 100 Continue before the client sends its body, or an expectation no server here meets (417).
enum class expectation { none, continue_first, unmet };
expectation expectation_of(request const& head);
std::optional<response> refuse_folded_line(asio::const_buffer bytes);  // obs-fold in the header block at its start
std::size_t per_address_cap(server_options const& o);

// The whole 503 written to a connection refused for lack of a slot, with the default headers.
std::string const& busy_connection_answer();

// What is checked of a complete request before it is answered: the target limit and the rate
// limit. The refusal, or nothing. `client` receives the client's address (X-Forwarded-For from a
// trusted proxy); `route` names the route for the metrics of a refusal; `linger` is set when the
// connection must close after answering (the target was too long to trust what follows).
std::optional<response> admit(connection_shared& shared, request const& req, std::string const& peer,
                              std::string& client, std::string_view& route, bool& linger);
// Answers an admitted request: the router on `snapshot` (and the archive, whose answers may come
// later). `route` names the matched route for the metrics.
answer answer_request(connection_shared& shared, std::shared_ptr<const snapshot::snapshot> snapshot,
                      request const& req, std::string const& client, std::string_view& route);
// The checks made when a request's headers are in and before a byte of its body is buffered; a
// target in absolute-form becomes its origin-form there (to_origin_form), and negotiation fields
// sent on several lines one line each (join_negotiation_lines).
// `reserved` is set to who the body is charged to (the address X-Forwarded-For names from a
// trusted proxy, else `peer`), with nothing taken yet.
std::optional<response> refuse_body(connection_shared& shared, beast_http::request_parser<received_body>& parser,
                                    std::string const& peer, body_reservation& reserved);
// Charges the body's memory so far (its capacity) to the whole server's budget and the client's
// share, as its bytes arrive: past either, the 503 that ends the request. Given back, all of it,
// with release_body_budget.
std::optional<response> hold_body(connection_shared& shared, beast_http::request_parser<received_body>& parser,
                                  body_reservation& reserved);
void release_body_budget(connection_shared& shared, body_reservation& reserved);
// The most body bytes one client may have in flight: the option, else a quarter of the budget.
std::uint64_t body_budget_per_client(server_options const& o);

// The response to a request the parser could not read (431, 413 or 400), as a problem; a body too
// large for /mcp is refused as MCP clients read a refusal, a JSON-RPC error.
response unreadable_request(beast::error_code ec, std::string_view target = {});
// The parser keeps a line's bytes until the line ends, and checks its header limit against what it
// has not yet taken in: so a request is refused here when its header block (`header_bytes` taken in,
// `held` waiting) passes `limit` in all (431), or when, its headers done, `held` bytes of a chunk's
// size line or of its trailer pass it (400). Without this a client could make either grow for as
// long as the header timeout, a few bytes at a time.
std::optional<response> refuse_overlong_framing(bool header_done, std::size_t header_bytes, std::size_t held,
                                                std::size_t limit);
// Trailer fields join the request's fields after the headers were checked (Host, X-Forwarded-For):
// a chunked request that ends with any is refused. `fields_at_header` is how many it had then.
std::optional<response> refuse_trailers(request const& req, std::size_t fields_at_header);
std::size_t field_count(request const& req);
}
