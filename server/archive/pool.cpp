// The archive's pool of readers: the jobs requests wait on (one per key), the threads that take
// them from the queue, and the watchdog that answers a waiter whose deadline passed.
#include "server/archive/impl.hpp"

#include <algorithm>

#include <malloc.h>

namespace lcg::archive {

pricing::error unavailable(pricing::price_sheet const& sheet, std::string_view why)
{
    return {pricing::errc::unavailable, "the inputs of " + pricing::to_string(sheet.week) +
                                            " cannot be read now (" + std::string(why) + "); retry shortly"};
}

archive::impl::impl(options o, source_factory const& make_source) : options_(o), cache_(o.cache_bytes)
{
    for (int i = 0; i < std::max(1, options_.threads); ++i)
        threads_.emplace_back([this, make_source] { work(make_source()); });
    watcher_ = std::thread([this] { watch(); });
}

void archive::impl::stop()
{
    {
        std::lock_guard lock(mutex_);
        if (stopping_ && threads_.empty())
            return;
        stopping_ = true;
    }
    work_ready_.notify_all();
    deadlines_changed_.notify_all();
    for (auto& t : threads_)
        t.join();
    threads_.clear();
    if (watcher_.joinable())
        watcher_.join();
    std::vector<std::pair<pricing::price_sheet, waiter>> left;
    {
        std::lock_guard lock(mutex_);
        for (auto& [key, j] : pending_)
            for (auto& w : j.waiters)
                left.emplace_back(j.what.sheet, std::move(w));
        pending_.clear();
        queue_.clear();
        waiting_ = 0;
        waiting_by_reader_.clear();
    }
    for (auto& [sheet, w] : left)
        w.done(unavailable(sheet, "the server is stopping"));
}

std::size_t archive::impl::reader_waiting_cap() const
{
    return options_.max_waiting_per_reader != 0 ? options_.max_waiting_per_reader
                                                : std::max<std::size_t>(1, options_.max_waiting / 4);
}

void archive::impl::stopped_waiting(waiter const& w)
{
    --waiting_;
    if (w.reader.empty())
        return;
    if (auto it = waiting_by_reader_.find(w.reader); it != waiting_by_reader_.end() && --it->second == 0)
        waiting_by_reader_.erase(it);
}

void archive::impl::obtain(std::string const& key, request const& what, value_completion done,
                           std::optional<clock::time_point> deadline, std::string const& reader)
{
    value found;
    std::string refused;
    {
        std::lock_guard lock(mutex_);
        auto const now = clock::now();
        found = cache_.recall(key);
        if (found)
            ;  // cached
        else if (stopping_)
            refused = "the server is stopping";
        else if (now < failing_until_ && !pending_.contains(key))
            refused = "the archive did not answer a moment ago";
        else if (waiting_ >= options_.max_waiting)
            refused = "too many reads are waiting";
        else if (auto const mine = waiting_by_reader_.find(reader);
                 mine != waiting_by_reader_.end() && mine->second >= reader_waiting_cap())
            refused = "this client has as many reads waiting as one client may (" +
                      std::to_string(reader_waiting_cap()) + ")";
        if (!found && refused.empty()) {
            auto [it, added] = pending_.try_emplace(key, job{what, {}});
            it->second.waiters.push_back({std::move(done), deadline.value_or(now + options_.timeout), reader});
            ++waiting_;
            if (!reader.empty())
                ++waiting_by_reader_[reader];
            if (added)
                queue_.push_back(key);
        }
    }
    if (found)
        return done(found);
    if (!refused.empty())
        return done(unavailable(what.sheet, refused));
    work_ready_.notify_one();
    deadlines_changed_.notify_one();
}

std::vector<archive::impl::waiter> archive::impl::take_waiters(std::string const& key)
{
    auto it = pending_.find(key);
    if (it == pending_.end())
        return {};
    auto out = std::move(it->second.waiters);
    for (auto const& w : out)
        stopped_waiting(w);
    pending_.erase(it);
    return out;
}

void archive::impl::work(std::unique_ptr<source> from)
{
    std::unique_lock lock(mutex_);
    while (true) {
        work_ready_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
        if (stopping_)
            return;
        std::string const key = queue_.front();
        queue_.pop_front();
        if (pending_.at(key).waiters.empty()) {  // every waiter's deadline passed while it was queued
            pending_.erase(key);
            continue;
        }
        request const what = pending_.at(key).what;
        lock.unlock();
        value_result r = produce(*from, what);
        // A page's read gives back what its chunks took rather than keep it for the next.
        if (what.what == task::page)
            malloc_trim(0);
        lock.lock();
        if (r && !*r) {  // abandoned: no one waited; one who came since has it read again
            if (pending_.at(key).waiters.empty())
                pending_.erase(key);
            else
                queue_.push_back(key);
            continue;
        }
        if (r) {
            if (worth_keeping(what))
                cache_.remember(key, *r, size_of(what.what, *r));
        } else if (r.err().code == pricing::errc::unavailable) {
            ++figures_.failed_reads;
            failing_until_ = clock::now() + options_.retry_after_failure;
        }
        auto waiters = take_waiters(key);
        lock.unlock();
        for (auto& w : waiters)
            w.done(r);
        lock.lock();
    }
}

bool archive::impl::awaited(std::string const& key)
{
    std::lock_guard lock(mutex_);
    auto const it = pending_.find(key);
    return it != pending_.end() && !it->second.waiters.empty();
}

void archive::impl::watch()
{
    std::unique_lock lock(mutex_);
    while (!stopping_) {
        auto next = clock::time_point::max();
        for (auto const& [key, j] : pending_)
            for (auto const& w : j.waiters)
                next = std::min(next, w.deadline);
        if (next == clock::time_point::max())
            deadlines_changed_.wait(lock);
        else
            deadlines_changed_.wait_until(lock, next);
        auto const now = clock::now();
        std::vector<std::pair<pricing::price_sheet, waiter>> expired;
        for (auto& [key, j] : pending_) {
            auto late = std::stable_partition(j.waiters.begin(), j.waiters.end(),
                                              [&](waiter const& w) { return w.deadline > now; });
            for (auto it = late; it != j.waiters.end(); ++it)
                expired.emplace_back(j.what.sheet, std::move(*it));
            j.waiters.erase(late, j.waiters.end());
        }
        if (expired.empty())
            continue;
        for (auto const& [sheet, w] : expired)
            stopped_waiting(w);
        lock.unlock();
        for (auto& [sheet, w] : expired)
            w.done(unavailable(sheet, "the archive did not answer in time"));
        lock.lock();
    }
}

}
