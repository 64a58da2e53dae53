#include "server/ops/rate_limiter.hpp"

#include "server/ops/client_address.hpp"

#include <algorithm>
#include <cmath>

namespace lcg::ops {

rate_limiter::rate_limiter(rate_limit_options options) : options_(options) {}

rate_decision rate_limiter::take(std::string const& client, clock::time_point now) { return take(client, 1, now); }

rate_decision rate_limiter::take(std::string const& client, std::size_t count, clock::time_point now)
{
    double const wanted = static_cast<double>(count);
    std::string key = client_key(client);
    std::lock_guard lock(mutex_);
    auto it = buckets_.find(key);
    if (it == buckets_.end()) {
        if (buckets_.size() >= options_.max_clients)
            evict(now);
        it = buckets_.emplace(std::move(key), bucket{options_.burst, now}).first;
    }
    bucket& b = it->second;
    double const elapsed = std::chrono::duration<double>(now - b.updated).count();
    b.tokens = std::min(options_.burst, b.tokens + elapsed * options_.per_second);
    b.updated = now;
    rate_decision d;
    if (b.tokens >= wanted) {
        b.tokens -= wanted;
        d.allowed = true;
    } else {
        // A count above the burst never fits: the retry names when the bucket is full again.
        double const missing = std::min(wanted, options_.burst) - b.tokens;
        d.allowed = false;
        d.retry_after_seconds = std::max(1L, static_cast<long>(std::ceil(missing / options_.per_second)));
    }
    d.remaining = static_cast<long>(std::floor(b.tokens));
    d.reset_seconds = static_cast<long>(std::ceil((options_.burst - b.tokens) / options_.per_second));
    return d;
}

void rate_limiter::evict(clock::time_point now)
{
    // First forget every client whose bucket has refilled (it would start full anyway); if none
    // has, forget the one idle longest. Either keeps the table within max_clients.
    auto const full_after = std::chrono::duration<double>(options_.burst / options_.per_second);
    std::erase_if(buckets_, [&](auto const& kv) { return now - kv.second.updated >= full_after; });
    if (buckets_.size() >= options_.max_clients) {
        auto oldest = std::min_element(buckets_.begin(), buckets_.end(),
                                       [](auto const& a, auto const& b) { return a.second.updated < b.second.updated; });
        buckets_.erase(oldest);
    }
}

std::size_t rate_limiter::clients() const
{
    std::lock_guard lock(mutex_);
    return buckets_.size();
}

}
