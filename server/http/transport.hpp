#pragma once

// What a connection needs of its stream beyond reading and writing: its peer, its options, the
// kernel's unsent bytes, sendfile, shutdown and close.

#include "server/http/event_loop.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace lcg::http {

// What a connection needs of its stream beyond reading and writing; specialised per stream type
// (the tests specialise it for beast::test::stream).
template <class Stream>
struct transport;

template <>
struct transport<tcp_socket> {
    static std::string peer(tcp_socket const& s);
    static void tune(tcp_socket& s);  // no Nagle delay: a response is written at once
    // The bytes the kernel holds that the reader has not acknowledged, when it can tell.
    static std::optional<std::size_t> unsent(tcp_socket& s);
    static void shutdown_send(tcp_socket& s);
    static void close(tcp_socket& s);
    // Closed with a reset (SO_LINGER of 0): the peer reads an error, not the end of a stream.
    static void reset(tcp_socket& s);
    // sendfile: the bytes of `fd` from `offset` the socket takes now without blocking, 0 when it
    // is full, nothing on an error (the peer is gone).
    static std::optional<std::size_t> send_file_some(tcp_socket& s, int fd, std::uint64_t offset, std::size_t count);
    // send with MSG_MORE (the answer goes on at once, so these bytes wait to share a segment with
    // it): how many of `bytes` the socket takes now, 0 when it is full, nothing on an error.
    static std::optional<std::size_t> send_more(tcp_socket& s, std::string_view bytes);
};

// Whether a stream can send from a file (a socket can; the tests' stream cannot).
template <class Stream>
concept sends_files = requires(Stream& s) { transport<Stream>::send_file_some(s, 0, 0, 0); };
}
