// The least a server can do per answer on this machine, as a yardstick for /v1/prices: one thread,
// epoll, one receive per request and one sendfile of a fixed answer (head and body in a memory
// file), no parsing past finding where a request ends, no log, no headers read. What it costs per
// answer is the kernel's share that every server pays; what ours costs above it is our own.
//
//   floor_server PORT BODY_FILE
//
// Listens on 127.0.0.1:PORT and answers every request (a head ending in an empty line, no body) with
// 200, Content-Type application/json and BODY_FILE's bytes, keep-alive, until it is killed.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <unordered_map>

namespace {

// One client: how much of a request's end ("\r\n\r\n") its last bytes matched, and the answers owed.
struct client {
    int matched = 0;
    int owed = 0;      // requests whose end was read and whose answer is not out yet
    off_t sent = 0;    // of the answer being sent
    bool writing = false;
};

struct server {
    int epoll = -1, listener = -1, answer = -1;
    off_t answer_size = 0;
    std::unordered_map<int, client> clients;
};

bool watch(server& s, int fd, std::uint32_t events, int op)
{
    epoll_event ev{events, {.fd = fd}};
    return ::epoll_ctl(s.epoll, op, fd, &ev) == 0;
}

void drop(server& s, int fd)
{
    ::close(fd);  // also leaves the epoll set
    s.clients.erase(fd);
}

// Sends what is owed; waits for room (EPOLLOUT) when the socket's buffer is full.
void send_owed(server& s, int fd, client& c)
{
    while (c.owed > 0) {
        auto const n = ::sendfile(fd, s.answer, &c.sent, static_cast<std::size_t>(s.answer_size - c.sent));
        if (n < 0 && errno == EAGAIN)
            break;
        if (n <= 0)
            return drop(s, fd);
        if (c.sent == s.answer_size) {
            c.sent = 0;
            --c.owed;
        }
    }
    bool const full = c.owed > 0;
    if (full != c.writing && !watch(s, fd, full ? EPOLLIN | EPOLLOUT : EPOLLIN, EPOLL_CTL_MOD))
        return drop(s, fd);
    c.writing = full;
}

// Counts the request ends in what arrived, across receives.
void receive(server& s, int fd, client& c)
{
    static constexpr std::string_view end = "\r\n\r\n";
    std::array<char, 16 * 1024> buffer;
    auto const got = ::recv(fd, buffer.data(), buffer.size(), MSG_DONTWAIT);
    if (got < 0 && errno == EAGAIN)
        return;
    if (got <= 0)
        return drop(s, fd);
    for (char const ch : std::string_view(buffer.data(), static_cast<std::size_t>(got))) {
        c.matched = ch == end[static_cast<std::size_t>(c.matched)] ? c.matched + 1 : ch == '\r' ? 1 : 0;
        if (c.matched == 4) {
            ++c.owed;
            c.matched = 0;
        }
    }
    send_owed(s, fd, c);
}

void accept_all(server& s)
{
    for (int fd; (fd = ::accept4(s.listener, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC)) >= 0;) {
        int on = 1;
        ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
        if (!watch(s, fd, EPOLLIN, EPOLL_CTL_ADD)) {
            ::close(fd);
            continue;
        }
        s.clients.emplace(fd, client{});
    }
}

// The head and body in one memory file, as our server sends a stored answer.
int answer_file(std::string const& body, off_t& size)
{
    std::string bytes = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ";
    bytes += std::to_string(body.size()) + "\r\n\r\n" + body;
    int const fd = ::memfd_create("floor-answer", MFD_CLOEXEC);
    if (fd < 0 || ::write(fd, bytes.data(), bytes.size()) != static_cast<ssize_t>(bytes.size()))
        return -1;
    size = static_cast<off_t>(bytes.size());
    return fd;
}

int listen_on(int port)
{
    int const fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    int on = 1;
    sockaddr_in at{};
    at.sin_family = AF_INET;
    at.sin_port = htons(static_cast<std::uint16_t>(port));
    at.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd < 0 || ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on) != 0 ||
        ::bind(fd, reinterpret_cast<sockaddr const*>(&at), sizeof at) != 0 || ::listen(fd, 4096) != 0)
        return -1;
    return fd;
}

}  // namespace

int main(int argc, char** argv)
{
    int port = 0;
    std::string_view const port_text = argc == 3 ? argv[1] : "";
    auto const parsed = std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
    std::ifstream file(argc == 3 ? argv[2] : "", std::ios::binary);
    if (argc != 3 || parsed.ec != std::errc{} || port < 1 || port > 65535 || !file) {
        std::fputs("usage: floor_server PORT BODY_FILE\n", stderr);
        return 2;
    }
    server s;
    std::string const body{std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
    s.answer = answer_file(body, s.answer_size);
    s.listener = listen_on(port);
    s.epoll = ::epoll_create1(EPOLL_CLOEXEC);
    if (s.answer < 0 || s.listener < 0 || s.epoll < 0 || !watch(s, s.listener, EPOLLIN, EPOLL_CTL_ADD)) {
        std::perror("floor_server");
        return 1;
    }
    std::array<epoll_event, 256> ready{};
    for (;;) {
        int const n = ::epoll_wait(s.epoll, ready.data(), static_cast<int>(ready.size()), -1);
        for (int k = 0; k < n; ++k) {
            int const fd = ready[static_cast<std::size_t>(k)].data.fd;
            if (fd == s.listener) {
                accept_all(s);
                continue;
            }
            auto const it = s.clients.find(fd);
            if (it == s.clients.end())
                continue;  // dropped earlier in this batch
            if (ready[static_cast<std::size_t>(k)].events & EPOLLOUT)
                send_owed(s, fd, it->second);
            else
                receive(s, fd, it->second);
        }
    }
}
