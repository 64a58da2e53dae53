#include "server/ops/metrics.hpp"
#include "server/ops/log_writer.hpp"

#include <boost/json.hpp>

#include <cstdio>
#include <sstream>
#include <iostream>

namespace lcg::ops {

namespace {

// Label values are escaped as the exposition format requires.
std::string label(std::string_view value)
{
    std::string out;
    for (char c : value) {
        if (c == '\\' || c == '"')
            out += '\\';
        if (c == '\n') {
            out += "\\n";
            continue;
        }
        out += c;
    }
    return out;
}

}

void metrics::record_caught_exception(std::string_view where)
{
    std::lock_guard lock(mutex_);
    ++caught_exceptions_[where];
}

void report_caught_exception(metrics* counted, std::string_view where, std::string_view detail)
{
    if (counted)
        counted->record_caught_exception(where);
    std::string line = boost::json::serialize(
        boost::json::object{{"event", "caught_exception"}, {"where", where}, {"detail", detail}});
    line += '\n';
    if (counted)
        counted->log().write(line);
    else
        std::clog << line << std::flush;
}

void metrics::record_request(std::string_view route, int status, std::chrono::nanoseconds latency)
{
    {
        std::lock_guard lock(mutex_);
        ++requests_[{route, status}];
    }
    double const seconds = std::chrono::duration<double>(latency).count();
    std::size_t i = 0;
    while (i < bucket_bounds.size() && seconds > bucket_bounds[i])
        ++i;
    latency_buckets_[i].fetch_add(1, std::memory_order_relaxed);
    latency_count_.fetch_add(1, std::memory_order_relaxed);
    latency_sum_ns_.fetch_add(static_cast<std::uint64_t>(latency.count()), std::memory_order_relaxed);
}

void metrics::record_mcp_call(std::string const& tool, std::string const& outcome)
{
    std::lock_guard lock(mutex_);
    ++mcp_calls_[{tool, outcome}];
}

std::string metrics::render(double snapshot_age_seconds) const
{
    std::ostringstream out;
    out << "# HELP lowcostgpu_http_requests_total HTTP requests answered, by route pattern and status.\n"
           "# TYPE lowcostgpu_http_requests_total counter\n";
    {
        std::lock_guard lock(mutex_);
        for (auto const& [key, count] : requests_)
            out << "lowcostgpu_http_requests_total{route=\"" << label(key.first) << "\",status=\"" << key.second
                << "\"} " << count << "\n";
        out << "# HELP lowcostgpu_caught_exceptions_total Exceptions caught while answering (each also logged), by "
               "where.\n"
               "# TYPE lowcostgpu_caught_exceptions_total counter\n";
        for (auto const& [where, count] : caught_exceptions_)
            out << "lowcostgpu_caught_exceptions_total{where=\"" << label(where) << "\"} " << count << "\n";
        out << "# HELP lowcostgpu_mcp_calls_total MCP tool calls, by tool and outcome.\n"
               "# TYPE lowcostgpu_mcp_calls_total counter\n";
        for (auto const& [key, count] : mcp_calls_)
            out << "lowcostgpu_mcp_calls_total{tool=\"" << label(key.first) << "\",outcome=\"" << label(key.second)
                << "\"} " << count << "\n";
    }
    out << "# HELP lowcostgpu_http_request_duration_seconds Time from a parsed request to its response.\n"
           "# TYPE lowcostgpu_http_request_duration_seconds histogram\n";
    std::uint64_t cumulative = 0;
    for (std::size_t i = 0; i < bucket_bounds.size(); ++i) {
        cumulative += latency_buckets_[i].load(std::memory_order_relaxed);
        out << "lowcostgpu_http_request_duration_seconds_bucket{le=\"" << bucket_bounds[i] << "\"} " << cumulative
            << "\n";
    }
    cumulative += latency_buckets_.back().load(std::memory_order_relaxed);
    out << "lowcostgpu_http_request_duration_seconds_bucket{le=\"+Inf\"} " << cumulative << "\n"
        << "lowcostgpu_http_request_duration_seconds_sum "
        << static_cast<double>(latency_sum_ns_.load(std::memory_order_relaxed)) / 1e9 << "\n"
        << "lowcostgpu_http_request_duration_seconds_count " << latency_count_.load(std::memory_order_relaxed) << "\n";
    auto const counter = [&](std::string_view name, std::string_view help, std::atomic<std::uint64_t> const& v) {
        write_sample(out, name, "counter", help, v.load(std::memory_order_relaxed));
    };
    counter("lowcostgpu_snapshot_reloads_total",
            "Snapshots built from what PostgreSQL holds (a read that changes nothing builds none).", snapshot_reloads_);
    counter("lowcostgpu_database_errors_total", "Failed attempts to reach or read PostgreSQL.", database_errors_);
    counter("lowcostgpu_rate_limited_total", "Requests refused with 429.", rate_limited_);
    counter("lowcostgpu_rejected_connections_total", "Connections refused over the connection cap.",
            rejected_connections_);
    counter("lowcostgpu_evicted_connections_total",
            "Idle connections closed to admit a new client once most connection slots were taken.",
            evicted_connections_);
    write_sample(out, "lowcostgpu_log_lines_dropped_total", "counter",
                 "Log lines dropped because the log's reader fell behind (the queue was full); serving never waits "
                 "for it.",
                 log_.dropped_lines());
    write_sample(out, "lowcostgpu_open_connections", "gauge", "Client connections open now.",
                 open_connections_.load(std::memory_order_relaxed));
    write_sample(out, "lowcostgpu_request_body_bytes", "gauge",
                 "Bytes of request bodies being received now, as announced (bounded by the server's body budget).",
                 request_body_bytes_.load(std::memory_order_relaxed));
    write_sample(out, "lowcostgpu_snapshot_age_seconds", "gauge",
                 "Age of the snapshot being served (-1 before the first).", snapshot_age_seconds);
    return out.str();
}

}
