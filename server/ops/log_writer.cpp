#include "server/ops/log_writer.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

#include <unistd.h>

namespace lcg::ops {

struct log_writer::state {
    std::mutex mutex;
    std::condition_variable changed;
    std::string queued;
    std::size_t max_bytes = 0;
    std::uint64_t written_upto = 0;  // bytes handed to write(2) since the start, all told
    std::uint64_t queued_upto = 0;   // bytes accepted into the queue since the start, all told
    std::atomic<std::uint64_t> dropped{0};
    std::atomic<int> descriptor{1};
    bool stopping = false;
};

namespace {

// Blocks, on the writer's thread only, until the bytes are out or the descriptor fails (a closed
// pipe: the bytes are let go, as a log nobody can read).
void write_all(int descriptor, std::string_view bytes)
{
    while (!bytes.empty()) {
        ssize_t const n = ::write(descriptor, bytes.data(), bytes.size());
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return;
        bytes.remove_prefix(static_cast<std::size_t>(n));
    }
}

}

log_writer::log_writer(int descriptor, std::size_t max_queued_bytes) : state_(std::make_shared<state>())
{
    state_->max_bytes = max_queued_bytes;
    state_->descriptor = descriptor;
    std::thread([s = state_] { run(s); }).detach();
}

log_writer::~log_writer()
{
    drain(drain_on_exit);
    {
        std::lock_guard lock(state_->mutex);
        state_->stopping = true;
    }
    state_->changed.notify_all();
}

void log_writer::write(std::string_view lines)
{
    if (lines.empty())
        return;
    {
        std::lock_guard lock(state_->mutex);
        if (state_->queued.size() + lines.size() > state_->max_bytes) {
            state_->dropped.fetch_add(static_cast<std::uint64_t>(std::count(lines.begin(), lines.end(), '\n')),
                                      std::memory_order_relaxed);
            return;
        }
        state_->queued.append(lines);
        state_->queued_upto += lines.size();
    }
    state_->changed.notify_all();
}

bool log_writer::drain(std::chrono::milliseconds within)
{
    std::unique_lock lock(state_->mutex);
    std::uint64_t const target = state_->queued_upto;
    return state_->changed.wait_for(lock, within, [&] { return state_->written_upto >= target; });
}


std::uint64_t log_writer::dropped_lines() const { return state_->dropped.load(std::memory_order_relaxed); }

void log_writer::run(std::shared_ptr<state> const& s)
{
    std::string batch;
    std::unique_lock lock(s->mutex);
    while (true) {
        s->changed.wait(lock, [&] { return s->stopping || !s->queued.empty(); });
        if (s->queued.empty())
            return;  // stopping, and everything was written
        batch.swap(s->queued);
        lock.unlock();
        write_all(s->descriptor.load(), batch);
        lock.lock();
        s->written_upto += batch.size();
        batch.clear();
        s->changed.notify_all();
    }
}

log_stream::log_stream(log_writer& to) : std::ostream(nullptr), buffer_(to) { rdbuf(&buffer_); }

log_stream::~log_stream() { buffer_.finish(); }

void log_stream::line_buffer::finish()
{
    if (!pending_.empty()) {
        pending_ += '\n';
        pass_whole_lines();
    }
}

log_stream::line_buffer::int_type log_stream::line_buffer::overflow(int_type c)
{
    if (traits_type::eq_int_type(c, traits_type::eof()))
        return traits_type::not_eof(c);
    pending_ += traits_type::to_char_type(c);
    if (pending_.back() == '\n')
        pass_whole_lines();
    return c;
}

std::streamsize log_stream::line_buffer::xsputn(char const* s, std::streamsize n)
{
    pending_.append(s, static_cast<std::size_t>(n));
    pass_whole_lines();
    return n;
}

void log_stream::line_buffer::pass_whole_lines()
{
    auto const end = pending_.rfind('\n');
    if (end == std::string::npos)
        return;
    to_.write(std::string_view(pending_).substr(0, end + 1));
    pending_.erase(0, end + 1);
}

}
