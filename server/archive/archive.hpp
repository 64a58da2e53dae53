#pragma once

#include "server/snapshot/snapshot.hpp"
#include "server/store/inputs.hpp"

#include "render/format.hpp"

#include "pricing/listing_mapping.hpp"
#include "pricing/outcome.hpp"
#include "pricing/sheet.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

namespace lcg::archive {

// Where the canonical observations CSV of published sheets is kept (PostgreSQL, or a mirror's
// upstream), read as it is stored: in chunks of whole lines (store::input_chunks). Both calls throw
// when the source cannot be read. Each archive thread makes its own with a source_factory and
// never shares it.
class source {
public:
    virtual ~source() = default;
    // The chunks' sizes and the header line; no chunks when nothing is stored for that publication.
    virtual store::input_layout layout(pricing::price_sheet const& sheet) = 0;
    // Chunk `seq` of that publication; "" when it is not stored (the week was republished since).
    virtual std::string chunk(pricing::price_sheet const& sheet, std::size_t seq) = 0;
    // The raw market files the sheet's observations were read from, in import order; none when
    // they were imported as a CSV.
    virtual std::vector<pricing::raw_input> raw_inputs(pricing::price_sheet const& sheet) = 0;
    // The bytes of one of those files or of a mapping they name, by SHA-256; nullopt when not stored.
    virtual std::optional<std::string> raw_bytes(pricing::price_sheet const& sheet, std::string const& sha256) = 0;
};
using source_factory = std::function<std::unique_ptr<source>()>;

struct options {
    std::size_t cache_bytes = 64 * 1024 * 1024;  // chunks, parts and pages kept, all formats together
    int threads = 2;                             // reads in progress at once
    std::chrono::milliseconds timeout{5000};     // the longest a request waits for a read (each part's too)
    std::size_t max_waiting = 256;               // requests waiting at once; beyond, refused at once
    // Bytes of parts held by the CSV and JSON streams in flight (read ahead, or being sent to a
    // client however slow), cached or not; a stream opened past it is refused (errc::unavailable)
    // until some are sent.
    std::size_t stream_bytes = 64 * 1024 * 1024;
    // After a failed read, requests for what is not cached are refused at once for this long
    // instead of each trying the source again.
    std::chrono::milliseconds retry_after_failure{1000};
};

// A page of a sheet's inputs, or why there is none: errc::unavailable when the source cannot be
// read in time (the client may retry), errc::not_found when it holds nothing for the sheet.
using result = pricing::outcome<std::shared_ptr<const snapshot::document>>;
using completion = std::function<void(result)>;  // called exactly once, from any thread

// One part of a week's inputs in CSV or JSON (its bytes are shared with the cache), or why it
// cannot be read. An empty part follows the last.
using part = pricing::outcome<std::shared_ptr<const std::string>>;
using part_completion = std::function<void(part)>;  // called exactly once, from any thread

class stream;
using opened = pricing::outcome<std::shared_ptr<stream>>;
using open_completion = std::function<void(opened)>;  // called exactly once, from any thread

// The inputs of published sheets (GET /v1/sheets/{week}/observations in every format), read on
// demand off the event loops and kept in a cache bounded by a byte budget, least recently used
// first out: what the snapshot does not hold, so memory and start-up do not grow with the archive.
// The CSV and the JSON are streams, a part per stored chunk, each read (the CSV as stored, the JSON
// rendered from it) when the client has taken the part before: a week's first byte does not wait
// for its last chunk, and neither a big week nor a slow client holds a thread, a database
// connection or the whole week. The Markdown and HTML pages (a summary per model) are tallied from
// every chunk, one at a time. What is cached is keyed by the publication (week, inputs_sha256,
// published_at), so a republished week is read again. Thread-safe.
class archive {
public:
    archive(options o, source_factory make_source);
    ~archive();
    archive(archive const&) = delete;
    archive& operator=(archive const&) = delete;

    // The page (Markdown, HTML) in language `l` if it is cached, else null. Counts a hit or a miss.
    std::shared_ptr<const snapshot::document> cached(pricing::price_sheet const& sheet, render::format f,
                                                     render::language l = render::language::en);
    // Reads and renders the page (one read for every request waiting on the same page) and calls
    // `done` with it, or with errc::unavailable within options.timeout at the latest.
    void fetch(pricing::price_sheet const& sheet, render::format f, render::language l, completion done);

    // The page of the sheet's raw market files (/v1/sheets/{week}/sources) in any table format, and
    // one of those files or mappings by its SHA-256 (/v1/sheets/{week}/sources/{sha256}; errc::not_found
    // when the sheet names no such file), as cached() and fetch() give the observations' pages.
    std::shared_ptr<const snapshot::document> cached_raw_inputs(pricing::price_sheet const& sheet, render::format f,
                                                                render::language l);
    void fetch_raw_inputs(pricing::price_sheet const& sheet, render::format f, render::language l, completion done);
    std::shared_ptr<const snapshot::document> cached_raw_file(pricing::price_sheet const& sheet,
                                                              std::string const& sha256);
    void fetch_raw_file(pricing::price_sheet const& sheet, std::string const& sha256, completion done);

    // The stream of the CSV or the JSON when its layout and first part are cached, else null.
    // Counts a hit or a miss.
    std::shared_ptr<stream> open_cached(pricing::price_sheet const& sheet, render::format f);
    // Reads the layout and the first part (from the cache where they are) and calls `done` with
    // the stream holding that part, or with errc::unavailable within options.timeout at the latest
    // (errc::not_found when nothing is stored for the publication).
    void open(pricing::price_sheet const& sheet, render::format f, open_completion done);

    // Ends the threads; completions still waiting are called with errc::unavailable. Idempotent.
    void stop();

    struct figures {
        std::size_t cached_bytes = 0;
        std::size_t cached_items = 0;  // chunks, parts, layouts and pages
        std::uint64_t hits = 0;
        std::uint64_t misses = 0;
        std::uint64_t reads = 0;        // weeks opened from the source (each begins with its layout)
        std::uint64_t chunk_reads = 0;  // chunks read from the source
        std::uint64_t failed_reads = 0;
        std::size_t streamed_bytes = 0;      // held by streams now (options.stream_bytes)
        std::uint64_t refused_streams = 0;   // streams refused for want of it
    };
    figures measure() const;

private:
    friend class stream;
    using value = std::shared_ptr<const void>;  // a layout, a chunk or part (string), or a page (document)
    using value_result = pricing::outcome<value>;
    using value_completion = std::function<void(value_result)>;

    // raw_list: the sheet's raw files (a vector of pricing::raw_input); raw_page and raw_file are
    // documents like a page.
    enum class task { layout, chunk_part, page, raw_list, raw_page, raw_file };
    struct request {
        task what;
        pricing::price_sheet sheet;
        render::format format = render::format::csv;
        render::language lang = render::language::en;
        std::size_t seq = 0;
        std::shared_ptr<const store::input_layout> layout{};  // for a part
        std::string sha256{};                                  // for a raw file
    };
    struct waiter {
        value_completion done;
        std::chrono::steady_clock::time_point deadline;
    };
    struct job {
        request what;
        std::vector<waiter> waiters;
    };
    struct entry {
        value item;
        std::size_t bytes = 0;
        std::list<std::string>::iterator in_order;
    };

    // The value under `key`: from the cache at once, else from a job on the threads (one for
    // every request of the same key), or errc::unavailable within the timeout.
    // `deadline`: the waiter's, when not options.timeout from now.
    void obtain(std::string const& key, request const& what, value_completion done,
                std::optional<std::chrono::steady_clock::time_point> deadline = std::nullopt);
    void read_part(pricing::price_sheet const& sheet, render::format f,
                   std::shared_ptr<const store::input_layout> const& layout, std::size_t seq, part_completion done,
                   std::optional<std::chrono::steady_clock::time_point> deadline = std::nullopt);
    static std::size_t size_of(task what, value const& item);
    bool worth_keeping(request const& what) const;
    void work(std::unique_ptr<source> from);
    void watch();
    value_result produce(source& from, request const& what);
    value_result read_layout(source& from, pricing::price_sheet const& sheet);
    std::shared_ptr<const std::string> csv_chunk(source& from, request const& what, std::size_t seq);
    value_result render_part(source& from, request const& what);
    value_result render_page(source& from, request const& what);
    bool awaited(std::string const& key);  // whether a request still waits for the job of `key`
    std::shared_ptr<const std::vector<pricing::raw_input>> raw_list(source& from, pricing::price_sheet const& sheet);
    value_result render_raw_page(source& from, request const& what);
    value_result read_raw_file(source& from, request const& what);
    std::shared_ptr<const snapshot::document> cached_document(std::string const& key);
    void fetch_document(std::string const& key, request const& what, completion done);
    void remember(std::string const& key, value const& item, std::size_t bytes);
    value recall(std::string const& key);  // under mutex_
    std::vector<waiter> take_waiters(std::string const& key);

    // A part as a stream holds it: its bytes count in streamed_ until the last holder lets go.
    std::shared_ptr<const std::string> held(std::shared_ptr<const std::string> bytes) const;
    bool streams_full() const;  // whether the streams in flight hold options.stream_bytes

    options options_;
    std::shared_ptr<std::atomic<std::size_t>> streamed_ = std::make_shared<std::atomic<std::size_t>>(0);
    mutable std::mutex mutex_;
    std::condition_variable work_ready_;
    std::condition_variable deadlines_changed_;
    std::unordered_map<std::string, entry> cache_;
    std::list<std::string> order_;  // most recently used first
    std::size_t cached_bytes_ = 0;
    std::map<std::string, job> pending_;  // by key: queued or being read
    std::deque<std::string> queue_;       // keys of pending_ not yet taken by a thread
    std::size_t waiting_ = 0;
    std::chrono::steady_clock::time_point failing_until_{};
    figures figures_;
    bool stopping_ = false;
    std::vector<std::thread> threads_;
    std::thread watcher_;
};

// A week's inputs in CSV or JSON as one client reads them, a part at a time: it holds the first
// part until asked for it, and reads each next one (from the cache, or as a short job on the
// archive's threads) one part ahead of the client: when a part is handed over, the one after it is
// read while the client takes it, so a fast client never waits on the database between parts and
// a slow one holds three parts at most (the one being sent, the one it asked for, the one read
// ahead), all counted in the archive's options.stream_bytes until they are let go. next() is
// called once at a time, each call after the one before was answered. The archive outlives its
// streams.
class stream : public std::enable_shared_from_this<stream> {
public:
    stream(archive& from, pricing::price_sheet sheet, render::format f, std::shared_ptr<const store::input_layout> layout,
           std::shared_ptr<const std::string> first);

    // The body's size when known before it is read: the CSV's, the sum of its stored chunks.
    std::optional<std::size_t> size() const;
    void next(part_completion done);

private:
    archive& archive_;
    pricing::price_sheet sheet_;
    render::format format_;
    std::shared_ptr<const store::input_layout> layout_;
    // Starts reading part `seq` ahead of the client's asking, when the week has one.
    void read_ahead(std::size_t seq);
    // The part read ahead has arrived: to the client if it asked already, else kept for it.
    void arrived(part read, std::size_t seq);

    std::shared_ptr<const std::string> first_;
    std::size_t next_ = 0;  // the part the next call gives
    std::mutex mutex_;      // what follows: the read ahead completes on an archive thread
    std::optional<part> ahead_;        // read ahead, not yet asked for
    part_completion asked_;            // the client's call waiting for the part read ahead
    bool reading_ahead_ = false;
};

// Sources of the inputs stored in PostgreSQL (table sheet_input_chunk), each over a connection of
// its own, opened when first needed and again after a failure, with `timeout` on connecting and on
// each query.
source_factory database_sources(std::string database_url, std::chrono::milliseconds timeout);

}
