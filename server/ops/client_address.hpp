#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace lcg::ops {

// An IP address as one text: canonical, an IPv4-mapped IPv6 address written as the IPv4 one (a
// dual-stack listener sees 10.0.0.5 as ::ffff:10.0.0.5); nothing when `text` is not an address.
// Every comparison of client addresses (trusted proxies, loopback, shares) goes through it.
std::optional<std::string> canonical_address(std::string_view text);

// What an address is held to its share as: an IPv4 address itself (an IPv4-mapped IPv6 one too),
// an IPv6 address its /64. A subscriber is handed at least a /64 and picks the low 64 bits at will
// (RFC 4291 §2.5.1; privacy addresses rotate them), so counting per address would give one client
// 2^64 shares. Text that is not an address is its own key.
std::string client_key(std::string const& address);

// Whether a textual IP address is loopback (127.0.0.0/8, ::1, or 127/8 mapped into IPv6); text that
// is not an address never is.
bool is_loopback(std::string const& address);

}
