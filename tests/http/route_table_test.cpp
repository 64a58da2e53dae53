// find_route takes a path without placeholders from a lookup instead of walking the table: it must
// still find the route the walk finds, the first of the table that matches, for every route's path.
#include "server/http/route_table.hpp"

#include "render/format.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace lcg::http;

namespace {

// The walk, as the table's order defines it: a path with a format suffix first among the routes
// that take formats, then every route in order.
route const* first_match(std::string_view path)
{
    std::vector<std::string_view> captures;
    if (auto split = lcg::render::split_suffix(path))
        for (auto const& r : routes())
            if (!r.formats.empty() && match(r.pattern, split->first, captures, r.tail))
                return &r;
    for (auto const& r : routes())
        if (match(r.pattern, path, captures, r.tail))
            return &r;
    return nullptr;
}

// A path of `pattern`: each placeholder an ordinary segment.
std::string path_of(std::string_view pattern)
{
    std::string out;
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        if (pattern[i] != '{') {
            out += pattern[i];
            continue;
        }
        i = pattern.find('}', i);
        out += "x1";
    }
    return out;
}

}

TEST_CASE("every route's path, bare and with each suffix, finds the route the table's walk finds")
{
    std::size_t checked = 0;
    for (auto const& r : routes()) {
        auto const path = path_of(r.pattern);
        std::vector<std::string> asked{path, path + ".md", path + ".json", path + ".csv", path + "/more"};
        for (auto const& p : asked) {
            CAPTURE(p);
            CHECK(find_route(p).r == first_match(p));
            ++checked;
        }
    }
    CHECK(find_route("/mcp").r == first_match("/mcp"));
    REQUIRE(find_route("/mcp").r != nullptr);
    CHECK(checked >= 5 * 40);
}
