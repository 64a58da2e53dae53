#pragma once

#include "server/http/router.hpp"

#include <chrono>
#include <string>
#include <string_view>

namespace lcg::http {

// The status line and header block of `res` as they go on the wire, into `out` (cleared first).
// The server writes this and the body in one gathered write instead of running Beast's
// serializer per response. A body without Content-Length gets one: every response is framed.
// `date` (date_field::now()) is its Date field, right after the status line; none when empty.
void write_head(response const& res, std::string& out, std::string_view date);

// One request's log line (JSON, newline-terminated), appended to `out`.
struct request_log_entry {
    std::string_view method;
    std::string_view target;  // cut to 256 bytes
    unsigned status;
    std::size_t bytes;
    std::string_view client;
    std::chrono::microseconds took;
};
void append_log_line(request_log_entry const& e, std::string& out);

}
