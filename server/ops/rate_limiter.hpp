#pragma once

#include <chrono>
#include <cstddef>
#include <mutex>
#include <string>
#include <unordered_map>

namespace lcg::ops {

struct rate_limit_options {
    double per_second = 20.0;  // sustained requests per second per client
    double burst = 40.0;       // bucket size
    std::size_t max_clients = 100'000;  // the table is bounded: idle clients are forgotten first
    bool limit_loopback = false;        // local tools are not throttled unless asked
};

// The verdict for one request.
struct rate_decision {
    bool allowed = true;
    long remaining = 0;            // whole tokens left after this request
    long retry_after_seconds = 0;  // when refused: until one token is back
    long reset_seconds = 0;        // until the bucket is full again
};

// A token bucket per client (an address, or an IPv6 /64: client_key). Thread-safe; one short lock
// per request.
class rate_limiter {
public:
    using clock = std::chrono::steady_clock;

    explicit rate_limiter(rate_limit_options options);

    rate_decision take(std::string const& client, clock::time_point now = clock::now());
    // `count` requests at once, all or none: a batch of MCP messages pays for each of them.
    rate_decision take(std::string const& client, std::size_t count, clock::time_point now = clock::now());
    rate_limit_options const& options() const { return options_; }
    std::size_t clients() const;

private:
    struct bucket {
        double tokens;
        clock::time_point updated;
    };
    void evict(clock::time_point now);

    rate_limit_options options_;
    mutable std::mutex mutex_;
    std::unordered_map<std::string, bucket> buckets_;
};

}
