#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lcg::http {

// Whether `address` is one of the proxies whose X-Forwarded-For is believed: compared in canonical
// form with `trusted_proxies`, which are canonical (the settings make them so).
bool is_trusted_proxy(std::string const& address, std::vector<std::string> const& trusted_proxies);

// The address a request is accounted to (rate limit, request log). A peer that is not one of
// `trusted_proxies` is the client itself. Behind trusted proxies the X-Forwarded-For chain (the
// elements of every field of the header, in order: headers.hpp list_items) is read from the right, skipping the hops that are trusted proxies
// too, as nginx's real_ip_recursive does: a proxy that appends vouches only for the hop it added,
// so the first untrusted hop from the right is the client, whatever the client wrote further left.
// The walk stops at a hop that is not an IP address, and the last trusted address is then the
// client. Addresses come back in canonical form.
std::string forwarded_client(std::string const& peer, std::vector<std::string_view> const& hops,
                             std::vector<std::string> const& trusted_proxies);

}
