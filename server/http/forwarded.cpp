#include "server/http/forwarded.hpp"

#include <boost/asio/ip/address.hpp>

#include <algorithm>
#include <optional>

namespace lcg::http {

namespace {

std::optional<std::string> canonical_address(std::string_view text)
{
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
        text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t'))
        text.remove_suffix(1);
    boost::system::error_code ec;
    auto const address = boost::asio::ip::make_address(std::string(text), ec);
    if (ec)
        return std::nullopt;
    return address.to_string();
}

}

bool is_trusted_proxy(std::string const& address, std::vector<std::string> const& trusted_proxies)
{
    return std::find(trusted_proxies.begin(), trusted_proxies.end(), address) != trusted_proxies.end();
}

std::string forwarded_client(std::string const& peer, std::vector<std::string_view> const& forwarded_for,
                             std::vector<std::string> const& trusted_proxies)
{
    auto const trusted = [&](std::string const& address) { return is_trusted_proxy(address, trusted_proxies); };
    if (!trusted(peer))
        return peer;
    // The hops, leftmost first, over every X-Forwarded-For field in order.
    std::vector<std::string_view> hops;
    for (std::string_view field : forwarded_for)
        while (true) {
            auto const comma = field.find(',');
            hops.push_back(field.substr(0, comma));
            if (comma == std::string_view::npos)
                break;
            field.remove_prefix(comma + 1);
        }
    std::string client = peer;
    for (auto hop = hops.rbegin(); hop != hops.rend(); ++hop) {
        auto const address = canonical_address(*hop);
        if (!address)
            break;
        client = *address;
        if (!trusted(client))
            break;
    }
    return client;
}

}
