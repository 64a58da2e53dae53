#pragma once

#include "pricing/calendar.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace lcg::http {

// An HTTP-date (RFC 9110 §5.6.7) in the preferred IMF-fixdate form: "Sun, 06 Nov 1994 08:49:37 GMT".
std::string http_date(pricing::instant t);

// The Date field of this moment's answers (RFC 9110 §6.6.1: an origin server with a clock sends it
// in every 2xx, 3xx and 4xx answer), formatted once a second from the coarse real-time clock, which
// costs a read of memory the kernel maps in. One per event loop, touched by its thread only.
class date_field {
public:
    using clock = std::int64_t (*)();  // seconds since the epoch
    static std::int64_t coarse_seconds();
    explicit date_field(clock read = coarse_seconds) : read_(read) {}  // the tests' clock stands still

    std::string_view now();  // formatted again when the second has changed
    std::int64_t second() const { return second_; }  // the second the last now() named

private:
    clock read_;
    std::int64_t second_ = -1;
    std::string value_;
};

// Parses the three forms a recipient must accept: IMF-fixdate, RFC 850 ("Sunday, 06-Nov-94
// 08:49:37 GMT", a two-digit year read as 1970–2069) and asctime ("Sun Nov  6 08:49:37 1994").
// Nothing for anything else, which the caller then ignores (as If-Modified-Since must be).
std::optional<pricing::instant> parse_http_date(std::string_view text);

}
