#pragma once

#include "server/client/url.hpp"

#include "pricing/outcome.hpp"
#include "pricing/rules.hpp"

#include <chrono>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>

// The one HTTP client of the project: reads another instance's public documents (`lowcostgpu audit
// --url`, a mirror's `serve --upstream`, both plain http:// only: put a mirror next to its
// upstream, or behind a TLS-terminating proxy that reaches it over a private network) and the
// market's offer files (`lowcostgpu collect`, http:// or https://). Over https the server's
// certificate must chain to the system's trust store (OpenSSL's default paths, which honour
// SSL_CERT_FILE and SSL_CERT_DIR) and name the URL's host; the host is sent as SNI; TLS 1.2 at least.
namespace lcg::client {

// What one request may cost: a server silent for `timeout` (while connecting, in the TLS handshake,
// sending or between two parts of its answer) is given up, the whole answer, redirects included,
// must arrive within `total` (name resolution, left to the system's resolver and its own timeouts,
// comes before both), and a body above `max_body_bytes` is refused as soon as it is announced or
// reached. Up to `max_redirects` redirects (301, 302, 303, 307, 308 with a Location) are followed,
// never from https to http; with 0 a redirect is returned like any other status. With
// `min_bytes_per_second`, an answer that arrives slower than that on average, once `slow_grace`
// has passed since the request was sent, is given up too: a server that drips a byte now and then
// never stays silent for `timeout`, and would otherwise hold the request for `total`.
struct limits {
    std::chrono::seconds timeout{pricing::rules::fetch_timeout_seconds};
    std::chrono::seconds total{pricing::rules::fetch_total_seconds};
    std::uint64_t max_body_bytes = pricing::rules::max_fetched_bytes;
    int max_redirects = 0;
    std::uint64_t min_bytes_per_second = 0;  // 0: no minimum
    std::chrono::seconds slow_grace{10};
};

struct reply {
    int status = 0;
    std::string etag;  // as sent, quotes included; empty when absent
    std::string body;
};

// No complete answer: the server cannot be reached, stalled, sent too much, closed the connection
// before the end of the body, sent garbage or a certificate that does not verify. The message
// names the URL and what went wrong.
class fetch_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// GET base.prefix + target ("/" when both are empty), asking for `accept`, with If-None-Match when
// `if_none_match` is given. Returns whatever status the server answers (304, 404, …); throws
// fetch_error as above.
reply get(base_url const& base, std::string const& target, std::string_view accept, limits const& l,
          std::string_view if_none_match = {});

// The body of a 200 answer; any other status throws fetch_error naming it.
std::string get_body(base_url const& base, std::string const& target, std::string_view accept, limits const& l);

// `l` for a body streamed to a sink whose length a signature gives (a week's inputs): no more than
// `bytes`, past the cap on documents held whole, and the longer of the total and the time `bytes`
// take at rules::upstream_inputs_bytes_per_second.
limits streamed_limits(limits l, std::uint64_t bytes);

// `l` for a body held whole that cannot be longer than `bytes` (a signed document, a signature, a
// keys document, a catalog whose length is signed): the smaller of the two caps.
limits at_most(limits l, std::uint64_t bytes);

// Receives the bytes of a body in order, as they arrive (any split); may throw to give up.
using body_sink = std::function<void(std::string_view bytes)>;

// As get_body, but the body of the 200 answer goes to `sink` piece by piece and is never held
// whole: `l.max_body_bytes` bounds what the sink can be given. A failure after some bytes were
// given throws fetch_error as above; the sink has then seen part of the body.
void get_stream(base_url const& base, std::string const& target, std::string_view accept, limits const& l,
                body_sink const& sink);

}
