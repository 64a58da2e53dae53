#include "server/http/forwarded.hpp"

#include "server/ops/client_address.hpp"

#include <algorithm>
#include <optional>

namespace lcg::http {

bool is_trusted_proxy(std::string const& address, std::vector<std::string> const& trusted_proxies)
{
    if (trusted_proxies.empty())
        return false;  // parsed only when there are proxies to compare with
    auto const canonical = ops::canonical_address(address);
    return canonical && std::find(trusted_proxies.begin(), trusted_proxies.end(), *canonical) != trusted_proxies.end();
}

std::string forwarded_client(std::string const& peer, std::vector<std::string_view> const& hops,
                             std::vector<std::string> const& trusted_proxies)
{
    auto const trusted = [&](std::string const& address) { return is_trusted_proxy(address, trusted_proxies); };
    if (!trusted(peer))
        return peer;
    std::string client = peer;
    for (auto hop = hops.rbegin(); hop != hops.rend(); ++hop) {
        auto const address = ops::canonical_address(*hop);
        if (!address)
            break;
        client = *address;
        if (!trusted(client))
            break;
    }
    return client;
}

}
