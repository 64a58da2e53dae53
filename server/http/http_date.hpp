#pragma once

#include "pricing/calendar.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace lcg::http {

// An HTTP-date (RFC 9110 §5.6.7) in the preferred IMF-fixdate form: "Sun, 06 Nov 1994 08:49:37 GMT".
std::string http_date(pricing::instant t);

// Parses the three forms a recipient must accept: IMF-fixdate, RFC 850 ("Sunday, 06-Nov-94
// 08:49:37 GMT", a two-digit year read as 1970–2069) and asctime ("Sun Nov  6 08:49:37 1994").
// Nothing for anything else, which the caller then ignores (as If-Modified-Since must be).
std::optional<pricing::instant> parse_http_date(std::string_view text);

}
