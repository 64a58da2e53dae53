#pragma once

// What the connections of a server share (settings, the snapshot, the rate limiter, the counters
// that bound the whole server) and the event loop that owns some of them, with its sweep of their
// deadlines.

#include "server/http/http_date.hpp"
#include "server/http/server.hpp"
#include "server/http/stored_answers.hpp"
#include "server/mcp_bridge/snapshot_view.hpp"
#include "server/ops/metrics.hpp"
#include "server/ops/rate_limiter.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace lcg::http {

namespace asio = boost::asio;
namespace beast = boost::beast;
using steady = std::chrono::steady_clock;
using loop_executor = asio::io_context::executor_type;
using tcp_socket = asio::basic_stream_socket<asio::ip::tcp, loop_executor>;

// The steady clock at the kernel's tick (a few milliseconds), for deadlines: cheaper to read than
// steady::now(), which a request would otherwise read five times, and deadlines are swept every
// 250 ms anyway. The same clock, so the two compare.
steady::time_point coarse_now();

// How much of something each client (an address, or an IPv6 /64: ops::client_key) holds: the connections it has open (taken by the acceptor,
// given back when they end), or the bytes of the request bodies it is sending.
class address_slots {
public:
    // Takes `amount` unless the address would then hold more than `cap`.
    bool take(std::string const& address, std::size_t cap, std::size_t amount = 1);
    void give_back(std::string const& address, std::size_t amount = 1);

private:
    std::mutex mutex_;
    std::unordered_map<std::string, std::size_t> held_;
};

// What every connection of a server shares: settings, the snapshot cell, the rate limiter and
// the counters that bound the whole server.
struct connection_shared {
    server_options options;
    snapshot::holder const& snapshots;
    ops::metrics& metrics;
    ops::log_writer& log;  // each request's line, and what the server says of itself
    std::optional<ops::rate_limiter> limiter;
    std::atomic<std::uint64_t> request_counter{0};
    std::atomic<long> live_connections{0};
    std::atomic<std::uint64_t> body_bytes_reserved{0};  // of options.body_budget
    address_slots body_bytes_by_client{};               // of options.body_budget_per_address
    address_slots slots{};                              // for max_connections_per_address
    mcp_bridge::server_cache mcp_servers{};             // POST /mcp: the MCP core of the snapshot in force
};

// What an event loop's sweep and shutdown need of a connection, whatever its stream.
class connection_base {
public:
    virtual ~connection_base() = default;
    // Closes the connection when its deadline has passed (a slow reader that still makes
    // progress is given more time).
    virtual void expire_if_due(steady::time_point now) = 0;
    // Shutdown: an idle connection closes now, a busy one after its answer.
    virtual void close_when_idle() = 0;
    // Since when it has waited for a request with no byte of it received; steady::time_point::max()
    // while a request is being read or answered.
    virtual steady::time_point idle_since() const = 0;
};

// One event loop and the connections it owns; touched only on its own thread.
struct event_loop {
    explicit event_loop(connection_shared& s) : shared(s), ioc(1), sweeper(ioc.get_executor()) {}

    void sweep();      // every 250 ms, until the io_context stops
    void flush_log();  // writes the pending request log lines
    // Closes the connection that has waited longest for a request, if any waits: the server is
    // crowded and a new client is being let in.
    void close_longest_idle();

    connection_shared& shared;
    // Declared before the io_context: connections still queued in it when it is destroyed leave
    // this set in their destructors.
    std::unordered_set<connection_base*> connections;
    std::string log_lines;  // pending request log, flushed in batches
    date_field date;         // of every answer's head
    stored_answers answers{date};  // of published documents, replayed to the same question
    asio::io_context ioc;
    asio::basic_waitable_timer<steady, asio::wait_traits<steady>, loop_executor> sweeper;
};
}
