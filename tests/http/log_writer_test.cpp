// The process's log is written by a thread of its own (issue 29, H3): a reader that never reads
// costs dropped lines, counted, and never a wait of whoever logs.
#include "server/ops/log_writer.hpp"

#include <doctest/doctest.h>

#include <cerrno>
#include <chrono>
#include <string>

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

using lcg::ops::log_writer;
using namespace std::chrono_literals;

namespace {

struct pipe_ends {
    int read = -1, write = -1;
    pipe_ends()
    {
        int fds[2];
        REQUIRE(::pipe(fds) == 0);
        read = fds[0];
        write = fds[1];
    }
    ~pipe_ends()
    {
        ::close(read);
        ::close(write);
    }
    std::string take(std::size_t bytes) const
    {
        std::string out(bytes, '\0');
        std::size_t got = 0;
        while (got < bytes) {
            auto const n = ::read(read, out.data() + got, bytes - got);
            REQUIRE(n > 0);
            got += static_cast<std::size_t>(n);
        }
        return out;
    }
    // Fills the pipe, so that the writer's first write waits (however late its thread starts, it
    // never finds room for what it holds): how many bytes that took. Blocks of a page fill a
    // Linux pipe's buffers exactly, so the last write is refused whole.
    std::size_t fill() const
    {
        int const flags = ::fcntl(write, F_GETFL);
        REQUIRE(::fcntl(write, F_SETFL, flags | O_NONBLOCK) == 0);
        std::string const block(4096, 'f');
        std::size_t total = 0;
        for (ssize_t n; (n = ::write(write, block.data(), block.size())) > 0;)
            total += static_cast<std::size_t>(n);
        REQUIRE(errno == EAGAIN);
        REQUIRE(::fcntl(write, F_SETFL, flags) == 0);
        return total;
    }
    // Reads until nothing more comes for a moment: what a writer still held is out, and its
    // thread has ended, before the descriptors close.
    std::size_t take_the_rest() const
    {
        std::size_t total = 0;
        char buffer[65536];
        pollfd waiting{read, POLLIN, 0};
        while (::poll(&waiting, 1, 300) == 1) {
            auto const n = ::read(read, buffer, sizeof buffer);
            if (n <= 0)
                break;
            total += static_cast<std::size_t>(n);
        }
        return total;
    }
};

}

TEST_CASE("lines reach the descriptor whole and in order")
{
    pipe_ends p;
    log_writer log(p.write);
    std::string const lines = "{\"a\":1}\n{\"b\":2}\n";
    log.write(lines);
    log.write("{\"c\":3}\n");
    CHECK(log.drain(5s));
    CHECK(p.take(lines.size() + 8) == lines + "{\"c\":3}\n");
    CHECK(log.dropped_lines() == 0);
}

TEST_CASE("with a reader that never reads, writing never waits: past the queue's bytes lines are dropped and counted")
{
    pipe_ends p;
    std::string const line(99, 'x');
    auto const filled = p.fill();
    {
        log_writer log(p.write, 64 * 1024);
        auto const started = std::chrono::steady_clock::now();
        // 10 MB of lines: far more than the queue (64 KiB) holds, into a pipe already full.
        for (int i = 0; i < 100'000; ++i)
            log.write(line + "\n");
        CHECK(std::chrono::steady_clock::now() - started < 2s);
        CHECK(log.dropped_lines() > 90'000);
        CHECK(log.dropped_lines() < 100'000);
        CHECK_FALSE(log.drain(100ms));
        // Its destructor gives up after drain_on_exit: the test goes on.
    }
    CHECK(p.take(filled) == std::string(filled, 'f'));
    CHECK(p.take(100) == line + "\n");  // what was written came whole
    CHECK(p.take_the_rest() % 100 == 0);
}
