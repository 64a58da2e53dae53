#include "server/http/event_loop.hpp"

#include "server/ops/log_writer.hpp"
#include "server/ops/client_address.hpp"
#include "server/ops/metrics.hpp"

#include <ctime>

namespace lcg::http {

namespace {

// How often an event loop looks for connections past their deadline: timeouts are whole seconds,
// so a quarter-second sweep keeps them within 25 % while costing nothing per request.
constexpr auto sweep_interval = std::chrono::milliseconds(250);

}

steady::time_point coarse_now()
{
    timespec t{};
    ::clock_gettime(CLOCK_MONOTONIC_COARSE, &t);
    return steady::time_point(std::chrono::duration_cast<steady::duration>(std::chrono::seconds(t.tv_sec) +
                                                                         std::chrono::nanoseconds(t.tv_nsec)));
}

bool address_slots::take(std::string const& address, std::size_t cap, std::size_t amount)
{
    std::string key = ops::client_key(address);
    std::lock_guard lock(mutex_);
    auto const it = held_.try_emplace(std::move(key), 0).first;
    if (amount > cap || it->second > cap - amount) {
        if (it->second == 0)
            held_.erase(it);
        return false;
    }
    it->second += amount;
    return true;
}

void address_slots::give_back(std::string const& address, std::size_t amount)
{
    std::string const key = ops::client_key(address);
    std::lock_guard lock(mutex_);
    if (auto it = held_.find(key); it != held_.end() && (it->second -= std::min(amount, it->second)) == 0)
        held_.erase(it);
}

void event_loop::sweep()
{
    sweeper.expires_after(sweep_interval);
    sweeper.async_wait([this](beast::error_code ec) {
        if (ec)
            return;
        auto const now = steady::now();
        // Closing only cancels the pending operation: the connection ends in its handler, so the
        // set is not changed while we walk it.
        for (auto* c : connections)
            c->expire_if_due(now);
        flush_log();
        sweep();
    });
}

void event_loop::close_longest_idle()
{
    connection_base* longest = nullptr;
    auto since = steady::time_point::max();
    for (auto* c : connections)
        if (auto const t = c->idle_since(); t < since) {
            since = t;
            longest = c;
        }
    if (!longest)
        return;
    shared.metrics.record_evicted_connection();
    longest->close_when_idle();
}

void event_loop::flush_log()
{
    if (log_lines.empty())
        return;
    shared.log.write(log_lines);
    log_lines.clear();
}

}
