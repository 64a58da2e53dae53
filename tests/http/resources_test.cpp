// The table of published documents (render/resources.hpp) is complete and is the one the snapshot,
// the router and the operations follow: every document the fixture's snapshot holds is of a kind
// of the table, every kind the snapshot publishes has exactly one builder, and every route of a
// kind is its template.
#include "fixture.hpp"

#include "server/http/router.hpp"
#include "server/snapshot/builder.hpp"

#include "api/operation.hpp"
#include "render/resources.hpp"

#include <doctest/doctest.h>

#include <map>
#include <stdexcept>
#include <string>

using namespace lcg;
using render::resource;

namespace {

// Whether `path` is one of the paths `pattern` describes: {x} is one segment, but the log's {tile}
// takes the rest of the path.
bool fits(std::string_view pattern, std::string_view path)
{
    while (!pattern.empty() && !path.empty()) {
        auto const p = pattern.substr(0, pattern.find('/', 1));
        auto const s = path.substr(0, path.find('/', 1));
        if (p == "/{tile}")
            return s.size() > 1;
        if (p.starts_with("/{") ? s.size() < 2 : p != s)
            return false;
        pattern.remove_prefix(p.size());
        path.remove_prefix(s.size());
    }
    return pattern.empty() && path.empty();
}

// The kind of a document key of the snapshot ("/v1/gpus/h100-sxm.md?lang=fr"), or null.
render::resource_kind const* kind_of_key(std::string_view key)
{
    std::string const path(key.substr(0, key.find('?')));
    for (auto const& k : render::resource_kinds())
        if (fits(k.path_template, path))
            return &k;
    if (auto split = render::split_suffix(path))
        for (auto const& k : render::resource_kinds())
            if (k.has_view() && fits(k.path_template, split->first) && k.formats().contains(split->second))
                return &k;
    return nullptr;
}

}

TEST_CASE("path_of fills a kind's template and refuses names that do not fit it")
{
    CHECK(render::path_of(resource::prices) == "/v1/prices");
    CHECK(render::path_of(resource::gpu, "h100-sxm") == "/v1/gpus/h100-sxm");
    CHECK(render::path_of(resource::price_history, "h100-sxm") == "/v1/prices/h100-sxm/history");
    CHECK(render::path_of(resource::raw_file, "2026-W49", "ab12") == "/v1/sheets/2026-W49/sources/ab12");
    CHECK(render::folder_of(resource::log_tile) == "/v1/log/tile/");
    CHECK_THROWS_AS(render::path_of(resource::gpu), std::logic_error);
    CHECK_THROWS_AS(render::path_of(resource::prices, "h100-sxm"), std::logic_error);
    CHECK_THROWS_AS(render::path_of(resource::raw_file, "2026-W49"), std::logic_error);
    CHECK(render::find_kind("/v1/glossary/{term}") == &render::kind_of(resource::glossary_entry));
    CHECK(render::find_kind("/v1/estimate") == nullptr);
}

TEST_CASE("every document of the snapshot is of a kind of the table, in its media type")
{
    auto const snap = testing::fixture_snapshot();
    std::map<resource, int> seen;
    for (auto const& entry : snap->documents) {
        std::string const& key = entry.first;
        auto const& doc = entry.second;
        CAPTURE(key);
        auto const* kind = kind_of_key(key);
        REQUIRE(kind != nullptr);
        CHECK(kind->from == render::source::snapshot);
        if (!kind->has_view())
            CHECK(doc->content_type == kind->media_type);
        ++seen[kind->key];
    }
    // The fixture publishes every kind the snapshot builds.
    for (auto const& k : render::resource_kinds()) {
        CAPTURE(k.path_template);
        CHECK((seen.contains(k.key) || k.from == render::source::archive));
    }
}

TEST_CASE("each kind the snapshot publishes has exactly one builder, and the archive's none")
{
    std::map<resource, int> builders;
    for (auto const& p : snapshot::publishers())
        for (auto const k : p.kinds)
            ++builders[k];
    for (auto const& k : render::resource_kinds()) {
        CAPTURE(k.path_template);
        CHECK(builders[k.key] == (k.from == render::source::snapshot ? 1 : 0));
    }
}

TEST_CASE("every kind is served by a route of its template in its formats, and an operation's document by its route")
{
    std::map<std::string_view, render::format_set> routes;
    for (auto const& r : http::route_list())
        routes.emplace(r.pattern, r.formats);
    for (auto const& k : render::resource_kinds()) {
        CAPTURE(k.path_template);
        REQUIRE(routes.contains(k.path_template));
        CHECK(routes.at(k.path_template) == k.formats());
    }
    for (auto const& op : api::operations())
        if (auto const* k = render::find_kind(op.route)) {
            CAPTURE(op.tool);
            CHECK(op.view == k->written_by);
        }
}
