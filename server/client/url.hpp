#pragma once

#include "pricing/outcome.hpp"

#include <string>
#include <string_view>

// The URLs the HTTP client (http_client.hpp) fetches: parsed, written back, and followed through a
// redirect's Location.
namespace lcg::client {

// Where an instance or a file answers: http[s]://HOST[:PORT][/PATH].
struct base_url {
    std::string host;
    std::string port;    // "80" (http) or "443" (https) when the URL names none
    std::string prefix;  // "" or a path such as "/lowcostgpu" (a base URL's has no trailing slash)
    bool tls = false;    // https

    std::string to_string() const;  // "http://HOST:PORT/PREFIX", "https://…"; a default port left out
};

// An http:// or https:// URL with a host (and a port from 1 to 65535 when given); its path and
// query, as written, are the prefix; a fragment is dropped. Credentials (user@host) are refused.
pricing::outcome<base_url> parse_url(std::string_view url);

// A base URL for audit and mirrors: parse_url's, with trailing slashes dropped. Over https the
// server's certificate is verified as for every fetch; the signatures carry the trust either way.
pricing::outcome<base_url> parse_base_url(std::string_view url);

// HOST[:PORT] as a URL writes it (and the Host header says it): an IPv6 address in brackets, the
// scheme's default port left out.
std::string host_header(base_url const& at);

// Where a Location (a URI reference, RFC 9110 §10.2.2) sent by `from` points.
pricing::outcome<base_url> resolve_location(base_url const& from, std::string_view location);

}
