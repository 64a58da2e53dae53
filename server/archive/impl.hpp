#pragma once

// What an archive is made of (private to server/archive/): its cache, its pool of readers with the
// jobs they share and the watchdog of their waiters' deadlines, and what a job reads or renders.
// One mutex guards the cache, the jobs and the figures.
#include "server/archive/archive.hpp"
#include "server/archive/cache.hpp"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <map>
#include <thread>
#include <unordered_map>
#include <vector>

namespace lcg::archive {

// Why a read was not answered: errc::unavailable, for the client to retry.
pricing::error unavailable(pricing::price_sheet const& sheet, std::string_view why);

struct archive::impl {
    using clock = std::chrono::steady_clock;
    using value = cache::value;
    using value_result = pricing::outcome<value>;
    using value_completion = std::function<void(value_result)>;

    // raw_list: the sheet's raw files (a vector of pricing::raw_input); raw_page and raw_file are
    // documents like a page.
    enum class task { layout, chunk_part, page, raw_list, raw_page, raw_file };
    struct request {
        task what;
        pricing::price_sheet sheet;
        render::format format = render::format::csv;
        locale::language lang = locale::language::en;
        std::size_t seq = 0;
        std::shared_ptr<const pricing::input_layout> layout{};  // for a part
        std::string sha256{};                                  // for a raw file
    };
    struct waiter {
        value_completion done;
        clock::time_point deadline;
        std::string reader{};  // who waits, when named (options.max_waiting_per_reader)
    };
    struct job {
        request what;
        std::vector<waiter> waiters;
    };

    // Starts the readers, each with a source of its own, and the watchdog (pool.cpp).
    impl(options o, source_factory const& make_source);

    // The pool (pool.cpp). obtain: the value under `key`, from the cache at once, else from a job
    // on the threads (one for every request of the same key), or errc::unavailable within the
    // timeout; `deadline`: the waiter's, when not options.timeout from now.
    void obtain(std::string const& key, request const& what, value_completion done,
                std::optional<clock::time_point> deadline = std::nullopt, std::string const& reader = {});
    std::size_t reader_waiting_cap() const;
    void stopped_waiting(waiter const& w);  // a waiter answered or dropped: out of the counts
    void work(std::unique_ptr<source> from);
    void watch();  // the watchdog: answers each waiter whose deadline passed
    bool awaited(std::string const& key);  // whether a request still waits for the job of `key`
    std::vector<waiter> take_waiters(std::string const& key);
    void stop();

    // What the cache keeps (cache.cpp), and the public face's reads of documents (archive.cpp).
    static std::size_t size_of(task what, value const& item);
    bool worth_keeping(request const& what) const;
    std::shared_ptr<const snapshot::document> cached_document(std::string const& key);
    void fetch_document(std::string const& key, request const& what, completion done, std::string const& reader);

    // What a job reads or renders (pages.cpp).
    value_result produce(source& from, request const& what);
    value_result read_layout(source& from, pricing::price_sheet const& sheet);
    std::shared_ptr<const std::string> csv_chunk(source& from, request const& what, std::size_t seq);
    value_result render_part(source& from, request const& what);
    value_result render_page(source& from, request const& what);
    std::shared_ptr<const std::vector<pricing::raw_input>> raw_list(source& from, pricing::price_sheet const& sheet);
    value_result render_raw_page(source& from, request const& what);
    value_result read_raw_file(source& from, request const& what);

    // The streams (stream.cpp). A part as a stream holds it: its bytes count in streamed_ until
    // the last holder lets go.
    void read_part(pricing::price_sheet const& sheet, render::format f,
                   std::shared_ptr<const pricing::input_layout> const& layout, std::size_t seq, part_completion done,
                   std::optional<clock::time_point> deadline = std::nullopt);
    std::shared_ptr<const std::string> held(std::shared_ptr<const std::string> bytes,
                                            std::shared_ptr<std::atomic<std::size_t>> const& share) const;
    // Why a stream cannot be opened now, or nothing: the streams in flight hold options.stream_bytes,
    // or the reader's own (`share`, when named) hold its part of them.
    std::optional<std::string> no_room(std::atomic<std::size_t> const* share) const;
    // The count of what `reader`'s streams hold, shared by them (null for a reader not named). The
    // entries of readers with no stream left are dropped as the map grows, every 64 entries: it
    // holds the live readers and at most as many others.
    std::shared_ptr<std::atomic<std::size_t>> share_of(std::string const& reader);
    std::size_t reader_budget() const;

    options options_;
    std::shared_ptr<std::atomic<std::size_t>> streamed_ = std::make_shared<std::atomic<std::size_t>>(0);
    std::unordered_map<std::string, std::weak_ptr<std::atomic<std::size_t>>> shares_;  // by reader
    mutable std::mutex mutex_;
    std::condition_variable work_ready_;
    std::condition_variable deadlines_changed_;
    cache cache_;
    std::map<std::string, job> pending_;  // by key: queued or being read
    std::deque<std::string> queue_;       // keys of pending_ not yet taken by a thread
    std::size_t waiting_ = 0;
    std::unordered_map<std::string, std::size_t> waiting_by_reader_;  // of waiting_, the named readers'
    clock::time_point failing_until_{};
    figures figures_;
    bool stopping_ = false;
    std::vector<std::thread> threads_;
    std::thread watcher_;
};

}
