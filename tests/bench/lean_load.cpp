// A load generator that costs its core as little as a client can: one receive per answer into a
// buffer large enough to hold it, no per-request allocation, no scripting. wrk reads 8 KiB at a time
// and fills its core before either server fills its own with answers of 20 to 40 KB, so its
// requests per second measure wrk; this one leaves the server's core the full one.
//
//   lean_load ADDRESS PORT SECONDS CONNECTIONS REQUEST_FILE
//
// REQUEST_FILE holds one HTTP/1.1 request, byte for byte; each connection sends it again as soon as
// the answer before is whole (keep-alive, no pipelining). An answer must carry a Content-Length.
// Only 127.0.0.0/8 is accepted, and the run ends after SECONDS. Prints one line:
//   LOAD_RESULT requests=… seconds=… rps=… p50_us=… p99_us=… max_us=… status_errors=… socket_errors=…
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
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

namespace {

using steady = std::chrono::steady_clock;

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
    std::uint64_t percentile(double p, std::uint64_t total) const
    {
        auto const wanted = static_cast<std::uint64_t>(p / 100.0 * static_cast<double>(total));
        std::uint64_t seen = 0;
        for (std::uint64_t slot = 0; slot < count.size(); ++slot)
            if ((seen += count[slot]) > wanted)
                return std::min(slot < fine ? slot : fine + (slot - fine) * coarse, max_us);
        return max_us;
    }
};

// One keep-alive connection: where it is in the answer it is reading.
struct connection {
    int fd = -1;
    std::string head;            // the answer's head so far, until its blank line
    std::size_t body_left = 0;   // bytes of the body still to come
    bool in_body = false;
    steady::time_point sent_at;
};

struct totals {
    std::uint64_t requests = 0, status_errors = 0, socket_errors = 0;
    latencies latency;
};

std::size_t content_length(std::string_view head, bool& found)
{
    found = false;
    for (std::size_t at = head.find("\r\n"); at != std::string_view::npos; at = head.find("\r\n", at + 2)) {
        auto const line = head.substr(at + 2, head.find("\r\n", at + 2) - at - 2);
        constexpr std::string_view name = "content-length:";
        if (line.size() <= name.size() ||
            !std::equal(name.begin(), name.end(), line.begin(), [](char a, char b) { return a == (b | 0x20); }))
            continue;
        auto value = line.substr(name.size());
        value.remove_prefix(std::min(value.find_first_not_of(' '), value.size()));
        std::size_t n = 0;
        found = std::from_chars(value.data(), value.data() + value.size(), n).ec == std::errc{};
        return n;
    }
    return 0;
}

bool send_request(connection& c, std::string const& request)
{
    c.sent_at = steady::now();
    return ::send(c.fd, request.data(), request.size(), MSG_NOSIGNAL | MSG_DONTWAIT) == static_cast<ssize_t>(request.size());
}

// Takes `bytes` of the answer; false when the connection cannot go on. An answer made whole is
// counted and the request sent again.
bool take(connection& c, std::string_view bytes, std::string const& request, totals& t)
{
    while (!bytes.empty()) {
        if (!c.in_body) {
            auto const before = c.head.size();
            c.head.append(bytes.substr(0, std::min<std::size_t>(bytes.size(), 16 * 1024)));
            auto const end = c.head.find("\r\n\r\n", before >= 3 ? before - 3 : 0);
            if (end == std::string::npos) {
                if (c.head.size() >= 16 * 1024)
                    return false;
                bytes = {};
                continue;
            }
            bool found = false;
            c.body_left = content_length(std::string_view(c.head).substr(0, end + 2), found);
            if (!found)
                return false;
            if (c.head.compare(0, 12, "HTTP/1.1 200") != 0)
                ++t.status_errors;
            bytes.remove_prefix(end + 4 - before);
            c.head.clear();
            c.in_body = true;
        }
        auto const used = std::min(bytes.size(), c.body_left);
        c.body_left -= used;
        bytes.remove_prefix(used);
        if (c.body_left == 0) {
            c.in_body = false;
            t.latency.add(steady::now() - c.sent_at);
            ++t.requests;
            if (!bytes.empty())  // more than was asked: the server is not answering this request
                return false;
            if (!send_request(c, request))
                return false;
        }
    }
    return true;
}

int usage()
{
    std::fputs("usage: lean_load ADDRESS PORT SECONDS CONNECTIONS REQUEST_FILE (ADDRESS in 127.0.0.0/8)\n", stderr);
    return 2;
}

}  // namespace

int main(int argc, char** argv)
{
    if (argc != 6)
        return usage();
    sockaddr_in to{};
    to.sin_family = AF_INET;
    if (::inet_pton(AF_INET, argv[1], &to.sin_addr) != 1 || (ntohl(to.sin_addr.s_addr) >> 24) != 127)
        return usage();
    to.sin_port = htons(static_cast<std::uint16_t>(std::atoi(argv[2])));
    int const seconds = std::atoi(argv[3]), conns = std::atoi(argv[4]);
    if (seconds < 1 || seconds > 600 || conns < 1 || conns > 10'000)
        return usage();
    std::ifstream file(argv[5], std::ios::binary);
    std::string const request((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    if (request.empty())
        return usage();

    int const poll = ::epoll_create1(EPOLL_CLOEXEC);
    std::vector<connection> all(static_cast<std::size_t>(conns));
    totals t;
    for (std::size_t i = 0; i < all.size(); ++i) {
        auto& c = all[i];
        c.fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        int on = 1;
        ::setsockopt(c.fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
        if (::connect(c.fd, reinterpret_cast<sockaddr*>(&to), sizeof to) != 0) {
            std::perror("connect");
            return 1;
        }
        epoll_event ev{EPOLLIN, {.u64 = i}};
        ::epoll_ctl(poll, EPOLL_CTL_ADD, c.fd, &ev);
    }
    auto const started = steady::now();
    auto const until = started + std::chrono::seconds(seconds);
    int open = conns;
    for (auto& c : all)
        if (!send_request(c, request)) {
            ++t.socket_errors;
            ::close(c.fd);
            --open;
        }
    // Level-triggered: one receive per readiness; what a receive leaves is reported again.
    std::vector<char> buffer(1 << 20);
    std::array<epoll_event, 256> ready{};
    while (open > 0 && steady::now() < until) {
        int const n = ::epoll_wait(poll, ready.data(), static_cast<int>(ready.size()), 100);
        for (int k = 0; k < n; ++k) {
            auto& c = all[ready[k].data.u64];
            auto const got = ::recv(c.fd, buffer.data(), buffer.size(), MSG_DONTWAIT);
            if (got < 0 && (errno == EAGAIN || errno == EINTR))
                continue;
            if (got <= 0 || !take(c, std::string_view(buffer.data(), static_cast<std::size_t>(got)), request, t)) {
                ++t.socket_errors;
                ::epoll_ctl(poll, EPOLL_CTL_DEL, c.fd, nullptr);
                ::close(c.fd);
                --open;
            }
        }
    }
    double const took = std::chrono::duration<double>(steady::now() - started).count();
    std::printf("LOAD_RESULT requests=%llu seconds=%.3f rps=%.1f p50_us=%llu p99_us=%llu max_us=%llu "
                "status_errors=%llu socket_errors=%llu\n",
                static_cast<unsigned long long>(t.requests), took, static_cast<double>(t.requests) / took,
                static_cast<unsigned long long>(t.latency.percentile(50, t.requests)),
                static_cast<unsigned long long>(t.latency.percentile(99, t.requests)),
                static_cast<unsigned long long>(t.latency.max_us), static_cast<unsigned long long>(t.status_errors),
                static_cast<unsigned long long>(t.socket_errors));
    return 0;
}
