#include "server/ops/client_address.hpp"

#include <boost/asio/ip/address.hpp>

#include <algorithm>

namespace lcg::ops {

namespace {

// Parsed, never matched by prefix ("127.evil" is not an address), and unmapped.
std::optional<boost::asio::ip::address> parsed(std::string_view text)
{
    boost::system::error_code ec;
    auto const address = boost::asio::ip::make_address(std::string(text), ec);
    if (ec)
        return std::nullopt;
    if (address.is_v6() && address.to_v6().is_v4_mapped())
        return boost::asio::ip::address(address.to_v6().to_v4());
    return address;
}

}

std::optional<std::string> canonical_address(std::string_view text)
{
    auto const address = parsed(text);
    return address ? std::optional(address->to_string()) : std::nullopt;
}

std::string client_key(std::string const& address)
{
    auto const ip = parsed(address);
    if (!ip)
        return address;
    if (ip->is_v4())
        return ip->to_string();
    auto bytes = ip->to_v6().to_bytes();
    std::fill(bytes.begin() + 8, bytes.end(), 0);
    return boost::asio::ip::address_v6(bytes).to_string() + "/64";
}

bool is_loopback(std::string const& address)
{
    auto const ip = parsed(address);
    return ip && ip->is_loopback();
}

}
