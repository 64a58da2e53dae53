#pragma once

#include "server/archive/source.hpp"
#include "server/snapshot/snapshot.hpp"
#include "pricing/input_chunks.hpp"

#include "render/format.hpp"

#include "pricing/outcome.hpp"
#include "pricing/sheet.hpp"

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace lcg::ops {
class metrics;
}

namespace lcg::archive {

struct options {
    std::size_t cache_bytes = 64 * 1024 * 1024;  // chunks, parts and pages kept, all formats together
    int threads = 2;                             // reads in progress at once
    std::chrono::milliseconds timeout{5000};     // the longest a request waits for a read (each part's too)
    std::size_t max_waiting = 256;               // requests waiting at once; beyond, refused at once
    // Of which one reader's (a client as the server names it) at most; beyond, that reader's are
    // refused at once while others still wait their turn. 0: a quarter of max_waiting (at least 1).
    std::size_t max_waiting_per_reader = 0;
    // Bytes of parts held by the CSV and JSON streams in flight (read ahead, or being sent to a
    // client however slow), cached or not; a stream opened past it is refused (errc::unavailable)
    // until some are sent.
    std::size_t stream_bytes = 64 * 1024 * 1024;
    // Of which one reader (a client as the server names it) has this much: once its streams hold
    // it, its next stream is refused (errc::unavailable) while others still open theirs; a stream
    // let in still reads its parts, so a reader may pass it by what its last streams read ahead.
    // 0: a quarter of stream_bytes (at least 1).
    std::size_t stream_bytes_per_reader = 0;
    // After a failed read, requests for what is not cached are refused at once for this long
    // instead of each trying the source again.
    std::chrono::milliseconds retry_after_failure{1000};
    ops::metrics* metrics = nullptr;  // where a failed read is counted; null: logged only
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
                                                     locale::language l = locale::language::en);
    // Reads and renders the page (one read for every request waiting on the same page) and calls
    // `done` with it, or with errc::unavailable within options.timeout at the latest. `reader` names
    // who waits (ops::client_key of the client), held to options.max_waiting_per_reader; empty: a
    // reader not named, held to max_waiting alone.
    void fetch(pricing::price_sheet const& sheet, render::format f, locale::language l, completion done,
               std::string const& reader = {});

    // The page of the sheet's raw market files (/v1/sheets/{week}/sources) in any table format, and
    // one of those files or mappings by its SHA-256 (/v1/sheets/{week}/sources/{sha256}; errc::not_found
    // when the sheet names no such file), as cached() and fetch() give the observations' pages.
    std::shared_ptr<const snapshot::document> cached_raw_inputs(pricing::price_sheet const& sheet, render::format f,
                                                                locale::language l);
    void fetch_raw_inputs(pricing::price_sheet const& sheet, render::format f, locale::language l, completion done,
                          std::string const& reader = {});
    std::shared_ptr<const snapshot::document> cached_raw_file(pricing::price_sheet const& sheet,
                                                              std::string const& sha256);
    void fetch_raw_file(pricing::price_sheet const& sheet, std::string const& sha256, completion done,
                        std::string const& reader = {});

    // The stream of the CSV or the JSON when its layout and first part are cached, else null.
    // Counts a hit or a miss. `reader` names who reads it (ops::client_key of the client), whose
    // streams are let in while they hold less than options.stream_bytes_per_reader; empty: a
    // reader not named, held to the whole budget alone.
    std::shared_ptr<stream> open_cached(pricing::price_sheet const& sheet, render::format f,
                                        std::string const& reader = {});
    // Reads the layout and the first part (from the cache where they are) and calls `done` with
    // the stream holding that part, or with errc::unavailable within options.timeout at the latest
    // (errc::not_found when nothing is stored for the publication). errc::unavailable at once when
    // the streams in flight, or the reader's, hold their budget.
    void open(pricing::price_sheet const& sheet, render::format f, open_completion done,
              std::string const& reader = {});

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
    struct impl;  // the cache, the pool of readers and what they read (server/archive/impl.hpp)
    std::unique_ptr<impl> impl_;
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
    // `share`: what the reader's streams hold (counted in with this one's parts), or null.
    stream(archive& from, pricing::price_sheet sheet, render::format f, std::shared_ptr<const pricing::input_layout> layout,
           std::shared_ptr<const std::string> first, std::shared_ptr<std::atomic<std::size_t>> share);

    // The body's size when known before it is read: the CSV's, the sum of its stored chunks.
    std::optional<std::size_t> size() const;
    void next(part_completion done);

private:
    archive& archive_;
    pricing::price_sheet sheet_;
    render::format format_;
    std::shared_ptr<const pricing::input_layout> layout_;
    std::shared_ptr<std::atomic<std::size_t>> share_;  // the reader's, or null
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

}
