// A load generator that costs its core as little as a client can: one receive per answer into a
// buffer large enough to hold it, no per-request allocation, no scripting. wrk reads 8 KiB at a time
// and fills its core before either server fills its own with answers of 20 to 40 KB, so its
// requests per second measure wrk; this one leaves the server's core the full one.
//
//   lean_load ADDRESS PORT SECONDS CONNECTIONS REQUEST_FILE
//
// REQUEST_FILE holds one HTTP/1.1 request of at most 16 KiB, byte for byte; each connection sends
// it again as soon as the answer before is whole (keep-alive, no pipelining); where it holds
// `#ID#####`, each request has there its own number (numbered_request.hpp). An answer must carry
// a Content-Length (answer_reader.hpp). Only 127.0.0.0/8 is accepted; connecting may take at most
// 5 s, and the run ends after SECONDS. A connection that breaks is counted and not replaced.
// Prints one line, with answers outside 2xx as status errors:
//   LOAD_RESULT requests=… seconds=… rps=… p50_us=… p99_us=… max_us=… status_errors=… socket_errors=…
#include "tests/bench/answer_reader.hpp"
#include "tests/bench/numbered_request.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace {

using steady = std::chrono::steady_clock;
using lcg::bench::answer_reader;
using lcg::bench::numbered_request;
using lcg::bench::reading;

// Latencies by whole microsecond up to 100 ms, then by millisecond up to 10 s, longer ones in the
// last slot (a slow baseline such as the SDK answers in seconds at 64 connections).
struct latencies {
    static constexpr std::uint64_t fine = 100'000, coarse = 1'000, slots = fine + 9'900;
    std::vector<std::uint64_t> count = std::vector<std::uint64_t>(slots + 1);
    std::uint64_t max_us = 0;

    void add(steady::duration took)
    {
        auto const us = static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::microseconds>(took).count());
        ++count[us < fine ? us : std::min(fine + (us - fine) / coarse, slots)];
        max_us = std::max(max_us, us);
    }
    // The smallest latency that p percent of the answers do not exceed (a slot's upper edge).
    std::uint64_t percentile(double p, std::uint64_t total) const
    {
        auto const wanted = static_cast<std::uint64_t>(std::ceil(p / 100.0 * static_cast<double>(total)));
        std::uint64_t seen = 0;
        for (std::uint64_t slot = 0; slot < count.size(); ++slot)
            if ((seen += count[slot]) >= std::max<std::uint64_t>(wanted, 1))
                return std::min(slot < fine ? slot : fine + (slot - fine + 1) * coarse, max_us);
        return max_us;
    }
};

struct totals {
    std::uint64_t requests = 0, status_errors = 0, socket_errors = 0;
    latencies latency;
};

// One keep-alive connection and the answer it is reading.
struct connection {
    int fd = -1;
    answer_reader reader;
    steady::time_point sent_at;
};

struct settings {
    sockaddr_in to{};
    int seconds = 0, connections = 0;
    numbered_request request{""};
};

std::optional<int> number(char const* text, int low, int high)
{
    std::string_view const s(text);
    int n = 0;
    auto const [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
    if (ec != std::errc{} || end != s.data() + s.size() || n < low || n > high)
        return std::nullopt;
    return n;
}

std::optional<settings> read_settings(char** argv)
{
    settings s;
    s.to.sin_family = AF_INET;
    auto const port = number(argv[2], 1, 65535);
    auto const seconds = number(argv[3], 1, 600);
    auto const connections = number(argv[4], 1, 10'000);
    std::ifstream file(argv[5], std::ios::binary);
    s.request = numbered_request(std::string(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()));
    if (::inet_pton(AF_INET, argv[1], &s.to.sin_addr) != 1 || !port || !seconds || !connections ||
        s.request.size() == 0 || s.request.size() > 16 * 1024)
        return std::nullopt;
    s.to.sin_port = htons(static_cast<std::uint16_t>(*port));
    s.seconds = *seconds;
    s.connections = *connections;
    return s;
}

bool send_request(connection& c, numbered_request& request)
{
    auto const bytes = request.next();
    c.sent_at = steady::now();
    return ::send(c.fd, bytes.data(), bytes.size(), MSG_NOSIGNAL | MSG_DONTWAIT) == static_cast<ssize_t>(bytes.size());
}

// Opens every connection (each connect bounded by a send timeout) and registers it with `epoll`.
bool connect_all(settings const& s, int epoll, std::vector<connection>& all)
{
    timeval const limit{5, 0};
    for (std::size_t i = 0; i < all.size(); ++i) {
        auto& c = all[i];
        c.fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        int on = 1;
        epoll_event ev{EPOLLIN, {.u64 = i}};
        if (c.fd < 0 || ::setsockopt(c.fd, SOL_SOCKET, SO_SNDTIMEO, &limit, sizeof limit) != 0 ||
            ::setsockopt(c.fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on) != 0 ||
            ::connect(c.fd, reinterpret_cast<sockaddr const*>(&s.to), sizeof s.to) != 0 ||
            ::epoll_ctl(epoll, EPOLL_CTL_ADD, c.fd, &ev) != 0) {
            std::perror("lean_load: connection");
            return false;
        }
    }
    return true;
}

void drop(connection& c, int epoll, int& open, totals& t)
{
    ++t.socket_errors;
    ::epoll_ctl(epoll, EPOLL_CTL_DEL, c.fd, nullptr);
    ::close(c.fd);
    --open;
}

// Takes what one connection has received; an answer made whole is counted and the request sent again.
bool receive(connection& c, std::vector<char>& buffer, numbered_request& request, totals& t)
{
    auto const got = ::recv(c.fd, buffer.data(), buffer.size(), MSG_DONTWAIT);
    if (got < 0 && (errno == EAGAIN || errno == EINTR))
        return true;
    if (got <= 0)
        return false;
    switch (c.reader.take(std::string_view(buffer.data(), static_cast<std::size_t>(got)))) {
    case reading::incomplete:
        return true;
    case reading::broken:
        return false;
    case reading::answered:
        break;
    }
    t.latency.add(steady::now() - c.sent_at);
    ++t.requests;
    if (c.reader.status() < 200 || c.reader.status() > 299)
        ++t.status_errors;
    return send_request(c, request);
}

// The load itself, until `seconds` have passed or no connection is left.
double run(settings& s, int epoll, std::vector<connection>& all, totals& t)
{
    auto const started = steady::now();
    auto const until = started + std::chrono::seconds(s.seconds);
    int open = s.connections;
    for (auto& c : all)
        if (!send_request(c, s.request))
            drop(c, epoll, open, t);
    // Level-triggered: one receive per readiness; what a receive leaves is reported again.
    std::vector<char> buffer(1 << 20);
    std::array<epoll_event, 256> ready{};
    while (open > 0 && steady::now() < until) {
        int const n = ::epoll_wait(epoll, ready.data(), static_cast<int>(ready.size()), 100);
        for (int k = 0; k < n; ++k) {
            auto& c = all[ready[static_cast<std::size_t>(k)].data.u64];
            if (!receive(c, buffer, s.request, t))
                drop(c, epoll, open, t);
        }
    }
    return std::chrono::duration<double>(steady::now() - started).count();
}

void print(totals const& t, double took)
{
    std::printf("LOAD_RESULT requests=%llu seconds=%.3f rps=%.1f p50_us=%llu p99_us=%llu max_us=%llu "
                "status_errors=%llu socket_errors=%llu\n",
                static_cast<unsigned long long>(t.requests), took, static_cast<double>(t.requests) / took,
                static_cast<unsigned long long>(t.latency.percentile(50, t.requests)),
                static_cast<unsigned long long>(t.latency.percentile(99, t.requests)),
                static_cast<unsigned long long>(t.latency.max_us), static_cast<unsigned long long>(t.status_errors),
                static_cast<unsigned long long>(t.socket_errors));
}

}  // namespace

int main(int argc, char** argv)
{
    auto s = argc == 6 ? read_settings(argv) : std::nullopt;
    if (!s) {
        std::fputs("usage: lean_load ADDRESS PORT SECONDS CONNECTIONS REQUEST_FILE\n"
                   "  PORT 1-65535, SECONDS 1-600, CONNECTIONS 1-10000, REQUEST_FILE 1 byte to 16 KiB\n",
                   stderr);
        return 2;
    }
    if ((ntohl(s->to.sin_addr.s_addr) >> 24) != 127) {
        std::fputs("lean_load: refused: load goes to 127.0.0.0/8 only\n", stderr);
        return 3;
    }
    int const epoll = ::epoll_create1(EPOLL_CLOEXEC);
    if (epoll < 0) {
        std::perror("lean_load: epoll");
        return 1;
    }
    std::vector<connection> all(static_cast<std::size_t>(s->connections));
    if (!connect_all(*s, epoll, all))
        return 1;
    totals t;
    double const took = run(*s, epoll, all, t);
    print(t, took);
    return 0;
}
