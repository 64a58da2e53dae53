#pragma once

#include "render/format.hpp"

#include <optional>
#include <span>
#include <string>
#include <string_view>

// Content negotiation, once for every GET route: the format a request asks for (by URL suffix or
// Accept header), whether it accepts gzip, and the Link header between a resource's formats.
namespace lcg::http {

// The offered format an Accept header prefers (RFC 9110 §12.5.1): each format takes the q-value of
// the most specific media range matching it (type/subtype, then type/*, then */*); the highest q
// wins, the order of render::all_formats breaking ties, so "*/*" gives JSON and a browser's
// "text/html,…,*/*;q=0.8" gives HTML. Media ranges with a malformed q-value are ignored; a header
// that is absent, empty or has no valid range accepts anything. Nothing when every offered format
// has q = 0 or matches no range (the caller answers 406).
std::optional<render::format> negotiate_format(std::string_view accept, render::format_set offered);

// The same rule for a resource whose media types are not render formats (the server card's
// application/mcp-server-card+json): the offered type Accept prefers, the first on a tie or when
// Accept states no preference; nothing when Accept rules out every one.
std::optional<std::string_view> negotiate_type(std::string_view accept, std::span<std::string_view const> offered);

// Whether an Accept-Encoding header (RFC 9110 §12.5.3) allows gzip: "gzip" (or "x-gzip"), else "*",
// with a q-value above 0. Absent or not listed: no.
bool accepts_gzip(std::string_view accept_encoding);

// The media types of `offered`, comma-separated, for a 406's detail.
std::string media_types(render::format_set offered);

// The Link header value naming the other formats of a resource (RFC 8288):
// </v1/prices.md>; rel="alternate"; type="text/markdown", … — empty when there is none.
std::string alternate_links(std::string_view path, std::string_view query, render::format_set offered,
                            render::format served);

}
