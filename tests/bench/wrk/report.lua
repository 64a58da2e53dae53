-- Appended to every wrk script of tests/bench/run: one machine-readable line per run.
function done(summary, latency, requests)
    local e = summary.errors
    io.write(string.format(
        "WRK_RESULT requests=%d seconds=%.3f rps=%.1f p50_us=%d p99_us=%d max_us=%d status_errors=%d socket_errors=%d\n",
        summary.requests, summary.duration / 1e6, summary.requests / (summary.duration / 1e6),
        latency:percentile(50), latency:percentile(99), latency.max, e.status,
        e.connect + e.read + e.write + e.timeout))
end
