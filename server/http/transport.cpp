#include "server/http/transport.hpp"

#include <linux/sockios.h>
#include <sys/ioctl.h>
#include <sys/sendfile.h>
#include <sys/socket.h>

#include <cerrno>

namespace lcg::http {

std::string transport<tcp_socket>::peer(tcp_socket const& s)
{
    beast::error_code ec;
    auto const endpoint = s.remote_endpoint(ec);
    return ec ? "unknown" : endpoint.address().to_string();
}

void transport<tcp_socket>::tune(tcp_socket& s)
{
    beast::error_code ec;
    s.set_option(asio::ip::tcp::no_delay(true), ec);
    s.native_non_blocking(true, ec);  // sendfile must return rather than wait for room
}

std::optional<std::size_t> transport<tcp_socket>::unsent(tcp_socket& s)
{
    int unsent = 0;
    if (ioctl(s.native_handle(), SIOCOUTQ, &unsent) != 0 || unsent < 0)
        return std::nullopt;
    return static_cast<std::size_t>(unsent);
}

std::optional<std::size_t> transport<tcp_socket>::send_file_some(tcp_socket& s, int fd, std::uint64_t offset,
                                                                 std::size_t count)
{
    auto at = static_cast<off_t>(offset);
    auto const n = ::sendfile(s.native_handle(), fd, &at, count);
    if (n > 0)
        return static_cast<std::size_t>(n);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
        return 0;
    return std::nullopt;  // an error, or the file ended early: either way the answer cannot go on
}

std::optional<std::size_t> transport<tcp_socket>::send_more(tcp_socket& s, std::string_view bytes)
{
    auto const n = ::send(s.native_handle(), bytes.data(), bytes.size(), MSG_MORE | MSG_NOSIGNAL);
    if (n >= 0)
        return static_cast<std::size_t>(n);
    if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
        return 0;
    return std::nullopt;
}

void transport<tcp_socket>::shutdown_send(tcp_socket& s)
{
    beast::error_code ec;
    s.shutdown(asio::ip::tcp::socket::shutdown_send, ec);
}

void transport<tcp_socket>::close(tcp_socket& s)
{
    beast::error_code ec;
    s.close(ec);
}

void transport<tcp_socket>::reset(tcp_socket& s)
{
    beast::error_code ec;
    s.set_option(asio::socket_base::linger(true, 0), ec);
    s.close(ec);
}

}
