#pragma once

#include "server/ops/log_writer.hpp"

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <ostream>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>

namespace lcg::ops {

// A server's counters, exposed at /metrics in the Prometheus text format, and the log it reports
// to. Recording is cheap (atomics, or one short lock for labelled counters); rendering happens only
// on a scrape. The serve command owns one and hands it to what records: the HTTP server (its
// connections' shared state and each request's context), the snapshot refresher or the mirror's
// follower, the archive.
class metrics {
public:
    // `log`: where caught exceptions are reported, whose dropped lines /metrics counts; it outlives this.
    explicit metrics(log_writer& log) : log_(log) {}
    log_writer& log() const { return log_; }

    // `route` is a label with static storage (a route pattern): it is kept, not copied.
    void record_request(std::string_view route, int status, std::chrono::nanoseconds latency);
    void record_mcp_call(std::string const& tool, std::string const& outcome);  // outcome: ok, tool_error, rpc_error
    void record_snapshot_reload() { snapshot_reloads_.fetch_add(1, std::memory_order_relaxed); }
    void record_database_error() { database_errors_.fetch_add(1, std::memory_order_relaxed); }
    // `where` is a label with static storage ("http", "mcp"): kept, not copied.
    void record_caught_exception(std::string_view where);
    void record_rate_limited() { rate_limited_.fetch_add(1, std::memory_order_relaxed); }
    void record_rejected_connection() { rejected_connections_.fetch_add(1, std::memory_order_relaxed); }
    void record_evicted_connection() { evicted_connections_.fetch_add(1, std::memory_order_relaxed); }
    void connection_opened() { open_connections_.fetch_add(1, std::memory_order_relaxed); }
    void connection_closed() { open_connections_.fetch_sub(1, std::memory_order_relaxed); }
    long open_connections() const { return open_connections_.load(std::memory_order_relaxed); }
    // A body taken on (its announced length, or the limit when chunked) and given back once read.
    void body_taken(std::uint64_t bytes) { request_body_bytes_.fetch_add(bytes, std::memory_order_relaxed); }
    void body_given_back(std::uint64_t bytes) { request_body_bytes_.fetch_sub(bytes, std::memory_order_relaxed); }

    // `snapshot_age_seconds` is negative when no snapshot is loaded yet.
    std::string render(double snapshot_age_seconds) const;

private:
    static constexpr std::array<double, 12> bucket_bounds{0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005,
                                                          0.01,   0.025,   0.05,   0.1,   0.5,    1.0};
    log_writer& log_;
    mutable std::mutex mutex_;
    std::map<std::pair<std::string_view, int>, std::uint64_t> requests_;
    std::map<std::pair<std::string, std::string>, std::uint64_t> mcp_calls_;
    std::map<std::string_view, std::uint64_t> caught_exceptions_{{"http", 0}, {"mcp", 0}};
    std::array<std::atomic<std::uint64_t>, bucket_bounds.size() + 1> latency_buckets_{};
    std::atomic<std::uint64_t> latency_count_{0};
    std::atomic<std::uint64_t> latency_sum_ns_{0};
    std::atomic<std::uint64_t> snapshot_reloads_{0};
    std::atomic<std::uint64_t> database_errors_{0};
    std::atomic<std::uint64_t> rate_limited_{0};
    std::atomic<std::uint64_t> rejected_connections_{0};
    std::atomic<std::uint64_t> evicted_connections_{0};
    std::atomic<long> open_connections_{0};
    std::atomic<std::uint64_t> request_body_bytes_{0};
};

// One unlabelled sample in the Prometheus text format, after its HELP and TYPE lines (`type`:
// "counter" or "gauge").
template <class Number>
void write_sample(std::ostream& out, std::string_view name, std::string_view type, std::string_view help, Number value)
{
    out << "# HELP " << name << ' ' << help << "\n# TYPE " << name << ' ' << type << '\n'
        << name << ' ' << value << '\n';
}

// An exception caught while answering (`where`: "http", "mcp"): one JSON line in the log of
// `counted` ({"event":"caught_exception","where":…,"detail":…}) and one more in its
// lowcostgpu_caught_exceptions_total{where}; with no `counted` (a test that calls the router
// directly), the line goes to standard error. The client got a 500 or a -32603 without internals.
void report_caught_exception(metrics* counted, std::string_view where, std::string_view detail);

}
