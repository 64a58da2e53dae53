#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <ostream>
#include <streambuf>
#include <string>
#include <string_view>

namespace lcg::ops {

// The process's log: JSON lines written to a descriptor by a thread of its own, so that a reader
// that stops reading (a full pipe, a stalled log collector) never stalls serving (issue 29, H3).
// Lines wait in a queue bounded in bytes; lines that do not fit are dropped and counted
// (lowcostgpu_log_lines_dropped_total), never waited for. Thread-safe.
class log_writer {
public:
    explicit log_writer(int descriptor, std::size_t max_queued_bytes = default_queue_bytes);
    // Writes what is queued for `drain_on_exit` at most, then lets the thread go: a reader that
    // never reads does not hold the process either.
    ~log_writer();
    log_writer(log_writer const&) = delete;
    log_writer& operator=(log_writer const&) = delete;

    // Whole lines, each ending in '\n'; queued at once, or dropped when the queue is full.
    void write(std::string_view lines);
    // Waits until everything queued so far is written, or `within` has passed; true when written.
    bool drain(std::chrono::milliseconds within);
    std::uint64_t dropped_lines() const;

    static constexpr std::size_t default_queue_bytes = 4 * 1024 * 1024;
    static constexpr std::chrono::milliseconds drain_on_exit{2000};

private:
    struct state;
    static void run(std::shared_ptr<state> const& s);  // the writing thread
    std::shared_ptr<state> state_;  // shared with the writing thread, which may outlive this
};

// A std::ostream whose lines go to a log writer as they end ('\n'), for what logs to a stream
// (serve's own lines, the snapshot refresher, a mirror's follower). Used by one thread at a time;
// each thread that logs has its own.
class log_stream : public std::ostream {
public:
    explicit log_stream(log_writer& to);
    ~log_stream() override;  // an unfinished last line is written, ended

private:
    class line_buffer : public std::streambuf {
    public:
        explicit line_buffer(log_writer& to) : to_(to) {}
        void finish();

    protected:
        int_type overflow(int_type c) override;
        std::streamsize xsputn(char const* s, std::streamsize n) override;

    private:
        void pass_whole_lines();
        log_writer& to_;
        std::string pending_;
    };
    line_buffer buffer_;
};

}
