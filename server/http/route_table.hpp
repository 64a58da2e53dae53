#pragma once

// The route table (route_table.cpp) and how a path finds its route; router.cpp dispatches by it.
// Only server/http includes this.
#include "server/http/handlers.hpp"

#include "render/format.hpp"
#include "render/resources.hpp"

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lcg::http {

// One route: a path pattern, what answers it, and what it offers.
struct route {
    std::string_view pattern;  // "{x}" matches one path segment; see `tail`
    handler fn;                // or, for the routes of the registry, the operation
    bool needs_snapshot;       // only the probes answer before the first snapshot
    render::format_set formats;  // negotiated by suffix or Accept; none: the handler's own (probes, metrics)
    std::string_view methods = "GET, HEAD";  // the Allow header of a 405; only /mcp takes POST
    api::operation const* op = nullptr;
    // The handler answers the methods `methods` does not list itself (/mcp: so that its 405 carries
    // the CORS headers of an allowed origin, as a browser needs to read it), and reads no query
    // string (a malformed one is not a reason to refuse its message in another shape).
    bool refuses_other_methods = false;
    // The request headers its CORS preflight allows, when not the read API's.
    std::string_view preflight_headers = read_api_request_headers;
    // Its last placeholder takes the rest of the path, slashes included (a C2SP tile path).
    bool tail = false;
    // The kind of published document it serves, if it serves one.
    std::optional<render::resource> kind{};
    // The Link header of each format for a request without query string, when the pattern has no
    // placeholder: written once here rather than for every request of the busiest routes.
    std::array<std::string, render::all_formats.size()> links_without_query{};
};

// Every route of the API, in the order they are matched; built on first use, after every table it
// reads (the registry, the published kinds).
std::vector<route> const& routes();

// The label of a request that matched no route.
inline constexpr std::string_view unmatched_route = "(unmatched)";

// Whether `path` matches `pattern` ({x}: one segment; with `tail`, the last one takes the rest),
// with what its placeholders captured in `out`.
bool match(std::string_view pattern, std::string_view path, std::vector<std::string_view>& out, bool tail = false);

// The route of `path`, or of `path` without a format suffix ("/v1/prices.md"): the route, the path
// it matched and the format the suffix named.
struct found_route {
    route const* r = nullptr;
    std::string path;
    std::optional<render::format> suffix;
};
found_route find_route(std::string_view path);

// `links` with the Link to the document that describes the resource at `path` (of route
// `pattern`) in format `f`, if it has one.
std::string with_description(std::string links, std::string_view pattern, std::string_view path, render::format f);

}
