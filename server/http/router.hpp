#pragma once

#include "server/archive/archive.hpp"
#include "server/http/mcp_access.hpp"
#include "server/http/payload.hpp"
#include "server/ops/metrics.hpp"
#include "server/snapshot/snapshot.hpp"

#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

namespace lcg::mcp_bridge {
class server_cache;
}

namespace lcg::http {

namespace beast_http = boost::beast::http;

// A request body held as a string that takes memory as its bytes arrive. string_body reserves the
// whole announced Content-Length once the headers are read, so a body announced and never sent
// would hold up to body_limit for nothing; here it holds what came, and the server's budget of
// body bytes is charged for that (connection.hpp hold_body).
struct received_body : beast_http::string_body {
    class reader {
    public:
        template <bool isRequest, class Fields>
        reader(beast_http::header<isRequest, Fields>&, value_type& body) : body_(body)
        {
        }
        void init(boost::optional<std::uint64_t> const& length, boost::beast::error_code& ec)
        {
            length_ = length;
            ec = {};
        }
        template <class ConstBufferSequence>
        std::size_t put(ConstBufferSequence const& buffers, boost::beast::error_code& ec)
        {
            // The parser's body_limit bounds the total. The string grows geometrically, never past
            // the announced length, so a whole body holds what it weighs.
            std::size_t const at = body_.size();
            std::size_t const n = boost::asio::buffer_size(buffers);
            if (at + n > body_.capacity()) {
                std::uint64_t want = std::max<std::uint64_t>(at + n, 2 * body_.capacity());
                if (length_)
                    want = std::min(want, std::max<std::uint64_t>(*length_, at + n));
                // Into a new string: reserve on this one would double its capacity past `want`.
                value_type bigger;
                bigger.reserve(static_cast<std::size_t>(want));
                bigger.append(body_);
                body_.swap(bigger);
            }
            body_.resize(at + n);
            ec = {};
            return boost::asio::buffer_copy(boost::asio::buffer(body_.data() + at, n), buffers);
        }
        void finish(boost::beast::error_code& ec) { ec = {}; }

    private:
        value_type& body_;
        boost::optional<std::uint64_t> length_;
    };
};

using request = beast_http::request<received_body>;
using response = beast_http::response<payload_body>;

// What the router needs besides the request: the snapshot in force (null before the first one)
// and the clock reading for this request. No socket, no database: the router is a pure function.
struct request_context {
    std::shared_ptr<const snapshot::snapshot> snapshot;
    pricing::instant now;
    std::chrono::seconds max_snapshot_age{300};  // /readyz says 503 past it
    std::shared_ptr<const mcp_access> mcp_policy{};  // who may POST /mcp; null: localhost only
    // When the database last answered the refresher; /readyz measures staleness from it (from the
    // snapshot's build when empty), so a healthy database with no new sheet never looks stale.
    std::optional<pricing::instant> database_checked_at{};
    std::shared_ptr<const snapshot::upstream_status> upstream{};  // a mirror's; null otherwise
    // The sheets' inputs, read on demand; null where the server has none (they are then 503).
    archive::archive* archive = nullptr;
    // Who asks, as the rate limit names the client (its address, or the one a trusted proxy
    // forwards); empty where no client is known (tests that call the router directly). The
    // connection's, which outlives the handling: a handler that answers later copies what it needs.
    std::string_view client{};
    // Charges `count` more requests to the client's rate limit, all or none, and gives the 429 when
    // its bucket lacks them: an MCP batch pays for each message beyond the request's own. Null where
    // the client is not limited. Called only while the request is being answered.
    std::function<std::optional<response>(std::size_t count)> charge{};
    // The MCP server of each snapshot, built once per snapshot for every request that POSTs /mcp;
    // null: a server is built for the request (tests that call the router directly).
    mcp_bridge::server_cache* mcp_servers = nullptr;
    // The server's counters (/metrics shows them); null where nothing counts (tests that call the
    // router directly: /metrics is then 404).
    ops::metrics* metrics = nullptr;
};

// Sends a response that was not ready when the request was handled; callable from any thread, once.
using responder = std::function<void(response)>;
// Starts producing such a response: called once with the responder that will send it.
using deferred = std::function<void(responder)>;

// What handling a request gives: the response, or (when `later` is set) the way to get it once a
// read that must not block an event loop is done (a week's inputs from the archive). Whoever
// starts `later` receives the response through the responder, within the archive's timeout.
struct answer {
    answer(response r) : now(std::move(r)) {}
    answer(deferred d) : later(std::move(d)) {}
    response now;
    deferred later;
};

// Answers one request, maybe later. Never throws: a failure becomes a problem+json 500 with no
// internals. `route`, when given, receives the route pattern matched (see route_pattern), for metrics.
answer handle_deferrable(request const& req, request_context const& ctx, std::string_view* route = nullptr);

// The same, waiting on the calling thread for an answer given later and for a body sent in parts
// (gathered whole; throws if a part fails): for tests and tools, never on an event loop.
response handle(request const& req, request_context const& ctx, std::string_view* route = nullptr);

// The route pattern a target matches ("/v1/prices/{gpu}"), or "(unmatched)": a bounded label for
// metrics, whatever clients send.
std::string_view route_pattern(std::string_view target);

// For a request whose headers announce a body, asked before the body is read: nothing when the route
// takes one (POST /mcp), else the refusal (405 with Allow for a method the route does not take,
// 400 otherwise).
std::optional<response> refuse_unwanted_body(request const& head);

// The route table as tests and the OpenAPI check see it: each pattern with the formats it is
// negotiated in (none for the probes, /metrics and /mcp, which answer in their own format) and the
// methods it allows ("GET, HEAD").
struct route_info {
    std::string_view pattern;
    render::format_set formats;
    std::string_view methods;
};
std::vector<route_info> route_list();

}
