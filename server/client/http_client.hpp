#pragma once

#include "pricing/outcome.hpp"
#include "pricing/rules.hpp"

#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

// The one HTTP client of the project: reads another instance's public documents, for
// `lowcostgpu audit --url` and for a mirror (`serve --upstream`). Plain http:// only: put a mirror
// next to its upstream, or behind a TLS-terminating proxy that reaches it over a private network.
namespace lcg::client {

// Where an instance answers: http://HOST[:PORT][/PREFIX].
struct base_url {
    std::string host;
    std::string port;    // "80" when the URL names none
    std::string prefix;  // "" or a path such as "/lowcostgpu", without a trailing slash

    std::string to_string() const;  // "http://HOST:PORT/PREFIX"
};

// Refuses anything but http:// with a host (and a port from 1 to 65535 when given).
pricing::outcome<base_url> parse_base_url(std::string_view url);

// What one request may cost: a server silent for `timeout` (while connecting, sending or between
// two parts of its answer) is given up, the whole answer must arrive within `total`, and a body
// above `max_body_bytes` is refused as soon as it is announced or reached.
struct limits {
    std::chrono::seconds timeout{pricing::rules::fetch_timeout_seconds};
    std::chrono::seconds total{pricing::rules::fetch_total_seconds};
    std::uint64_t max_body_bytes = pricing::rules::max_fetched_bytes;
};

struct reply {
    int status = 0;
    std::string etag;  // as sent, quotes included; empty when absent
    std::string body;
};

// No complete answer: the server cannot be reached, stalled, sent too much or sent garbage. The
// message names the URL and what went wrong.
class fetch_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// GET base.prefix + target, asking for `accept`, with If-None-Match when `if_none_match` is given.
// Returns whatever status the server answers (304, 404, …); throws fetch_error as above.
reply get(base_url const& base, std::string const& target, std::string_view accept, limits const& l,
          std::string_view if_none_match = {});

// The body of a 200 answer; any other status throws fetch_error naming it.
std::string get_body(base_url const& base, std::string const& target, std::string_view accept, limits const& l);

}
