#pragma once

#include "server/snapshot/snapshot.hpp"

#include "render/format.hpp"

#include "pricing/outcome.hpp"
#include "pricing/sheet.hpp"

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

namespace lcg::archive {

// Reads the canonical observations CSV a published sheet was computed from, where the archive is
// kept (PostgreSQL, or a mirror's upstream). Throws when it cannot; returns "" when nothing is stored
// for that sheet. Each archive thread makes its own with a reader_factory and never shares it.
using reader = std::function<std::string(pricing::price_sheet const&)>;
using reader_factory = std::function<reader()>;

struct options {
    std::size_t cache_bytes = 64 * 1024 * 1024;  // the rendered documents kept, all formats together
    int threads = 2;                             // reads in progress at once
    std::chrono::milliseconds timeout{5000};     // the longest a request waits for a read
    std::size_t max_waiting = 256;               // requests waiting at once; beyond, refused at once
    // After a failed read, requests for documents not cached are refused at once for this long
    // instead of each trying the source again.
    std::chrono::milliseconds retry_after_failure{1000};
};

// A document of a sheet's inputs, or why there is none: errc::unavailable when the source cannot
// be read in time (the client may retry), errc::not_found when it holds nothing for the sheet.
using result = pricing::outcome<std::shared_ptr<const snapshot::document>>;
// Called exactly once, from any thread.
using completion = std::function<void(result)>;

// The inputs of published sheets (GET /v1/sheets/{week}/observations in every format), read on
// demand off the event loops and kept in a cache bounded by a byte budget, least recently used
// first out. What the snapshot does not hold: memory and start-up do not grow with the archive.
// The CSV is served as stored; JSON, Markdown and HTML are rendered from it. A document is keyed by
// the publication (week, inputs_sha256, published_at), so a republished week is read again.
// Thread-safe.
class archive {
public:
    archive(options o, reader_factory make_reader);
    ~archive();
    archive(archive const&) = delete;
    archive& operator=(archive const&) = delete;

    // The document if it is cached, else null. Counts a hit or a miss.
    // `l`: the language of a page (Markdown, HTML); the CSV and the JSON are the same in both.
    std::shared_ptr<const snapshot::document> cached(pricing::price_sheet const& sheet, render::format f,
                                                     render::language l = render::language::en);

    // Reads and renders the document (one read for every request waiting on the same document) and
    // calls `done` with it, or with errc::unavailable within options.timeout at the latest.
    void fetch(pricing::price_sheet const& sheet, render::format f, render::language l, completion done);
    void fetch(pricing::price_sheet const& sheet, render::format f, completion done)
    {
        fetch(sheet, f, render::language::en, std::move(done));
    }

    // Ends the threads; completions still waiting are called with errc::unavailable. Idempotent.
    void stop();

    struct figures {
        std::size_t cached_bytes = 0;
        std::size_t cached_documents = 0;
        std::uint64_t hits = 0;
        std::uint64_t misses = 0;
        std::uint64_t reads = 0;
        std::uint64_t failed_reads = 0;
    };
    figures measure() const;

private:
    struct waiter {
        completion done;
        std::chrono::steady_clock::time_point deadline;
    };
    struct job {
        pricing::price_sheet sheet;
        render::format format;
        render::language lang;
        std::vector<waiter> waiters;
    };
    struct entry {
        std::shared_ptr<const snapshot::document> doc;
        std::list<std::string>::iterator in_order;
    };

    void work(reader read);
    void watch();
    result produce(reader const& read, pricing::price_sheet const& sheet, render::format f, render::language l);
    void remember(std::string const& key, std::shared_ptr<const snapshot::document> const& doc);
    std::shared_ptr<const snapshot::document> recall(std::string const& key);  // under mutex_
    std::vector<waiter> take_waiters(std::string const& key);

    options options_;
    mutable std::mutex mutex_;
    std::condition_variable work_ready_;
    std::condition_variable deadlines_changed_;
    std::unordered_map<std::string, entry> cache_;
    std::list<std::string> order_;  // most recently used first
    std::size_t cached_bytes_ = 0;
    std::map<std::string, job> pending_;  // by document key: queued or being read
    std::deque<std::string> queue_;       // keys of pending_ not yet taken by a thread
    std::size_t waiting_ = 0;
    std::chrono::steady_clock::time_point failing_until_{};
    figures figures_;
    bool stopping_ = false;
    std::vector<std::thread> threads_;
    std::thread watcher_;
};

// A reader of the inputs stored in PostgreSQL (table sheet_input), over a connection of its own,
// opened when first needed and again after a failure, with `timeout` on connecting and on each query.
reader_factory database_readers(std::string database_url, std::chrono::milliseconds timeout);

}
