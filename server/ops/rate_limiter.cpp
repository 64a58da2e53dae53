#include "server/ops/rate_limiter.hpp"

#include <boost/asio/ip/address.hpp>

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

std::string client_key(std::string const& address)
{
    boost::system::error_code ec;
    auto const parsed = boost::asio::ip::make_address(address, ec);
    if (ec || parsed.is_v4())
        return address;
    auto const v6 = parsed.to_v6();
    if (v6.is_v4_mapped())
        return v6.to_v4().to_string();
    auto bytes = v6.to_bytes();
    std::fill(bytes.begin() + 8, bytes.end(), 0);
    return boost::asio::ip::address_v6(bytes).to_string() + "/64";
}

bool is_loopback(std::string const& address)
{
    // Parsed, never matched by prefix: "127.evil" is not an address, so it is not exempt.
    boost::system::error_code ec;
    auto const parsed = boost::asio::ip::make_address(address, ec);
    if (ec)
        return false;
    if (parsed.is_v6() && parsed.to_v6().is_v4_mapped())
        return parsed.to_v6().to_v4().is_loopback();
    return parsed.is_loopback();
}

}
