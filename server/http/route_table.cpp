// The route table: one route per operation of the registry, then the site, the probes, the
// published documents (by kind, render/resources.hpp) and /mcp; and how a path finds its route.
#include "server/http/route_table.hpp"

#include "server/http/negotiation.hpp"

#include <algorithm>
#include <string>
#include <unordered_map>

namespace lcg::http {

namespace {

using render::document_formats;
using render::json_only;
using render::text_only;

// The Link to the document that describes a resource, beside its alternates: the API catalog
// (RFC 9727) from "/", and the CSVW metadata of a week's CSVs, which CSVW reads before its default
// locations.
std::string description_link(std::string_view pattern, std::string_view path, render::format f)
{
    if (pattern == render::template_of(render::resource::index))
        return "<" + render::path_of(render::resource::api_catalog) + ">; rel=\"api-catalog\"";
    if (f != render::format::csv || (pattern != render::template_of(render::resource::sheet) &&
                                     pattern != render::template_of(render::resource::observations)))
        return {};
    auto const after = path.substr(render::folder_of(render::resource::sheet).size());
    auto const week = after.substr(0, after.find('/'));
    return "<" + render::path_of(render::resource::csv_metadata, week) + ">; rel=\"describedby\"; type=\"" +
           std::string(render::kind_of(render::resource::csv_metadata).media_type) + "\"";
}


// The kind of document published at an operation's route, if any (get_prices: /v1/prices).
std::optional<render::resource> published_kind(std::string_view route)
{
    auto const* kind = render::find_kind(route);
    return kind ? std::optional(kind->key) : std::nullopt;
}

// Every route of the API: one per operation of the registry (api/operations.cpp), whose parameters
// and answers the MCP tools share, then the site, the probes, the published documents and /mcp.
std::vector<route> make_routes()
{
    // The operations first: they carry nearly all the traffic (/v1/prices above all), and the
    // table is matched in order.
    std::vector<route> all;
    for (auto const& op : api::operations())
        all.push_back({op.route, nullptr, true, op.view->formats(), "GET, HEAD", &op, false, read_api_request_headers,
                       false, published_kind(op.route)});
    using enum render::resource;
    auto const published = [](render::resource r, handler fn, bool tail = false) {
        return route{render::template_of(r), fn, true, render::kind_of(r).formats(), "GET, HEAD", nullptr, false,
                     read_api_request_headers, tail, r};
    };
    all.insert(all.end(), {
        published(index, handle_index),
        published(llms_txt, handle_llms_txt),
        published(llms_full_txt, handle_llms_full_txt),
        {"/.well-known/llms.txt", handle_llms_txt, true, text_only},
        {"/.well-known/llms-full.txt", handle_llms_full_txt, true, text_only},
        // The server card where the SEP-2127 draft reserves it, <streamable-http-url>/server-card,
        // negotiating its own media type; the earlier drafts' document stays at its two URLs.
        {"/mcp/server-card", handle_server_card, true, {}, "GET, HEAD", nullptr, false, server_card_request_headers},
        {"/.well-known/mcp/server-card.json", handle_legacy_server_card, true, json_only},
        {"/.well-known/mcp.json", handle_legacy_server_card, true, json_only},
        published(openapi, handle_openapi),
        published(api_catalog, handle_api_catalog),
        {"/healthz", handle_healthz, false, {}},
        {"/readyz", handle_readyz, false, {}},
        {"/metrics", handle_metrics, false, {}},
        published(price, handle_price_of),
        published(history_chart, handle_history_chart),
        published(sparkline, handle_history_chart),
        published(sheets, handle_sheets),
        published(sheets_feed, handle_sheets_feed),
        published(sheet, handle_sheet),
        published(observations, handle_observations),
        published(raw_inputs, handle_raw_inputs),
        published(raw_file, handle_raw_file),
        published(signed_bytes, handle_signed_bytes),
        published(signature, handle_signature),
        published(signify_signature, handle_signature),
        published(signed_note, handle_signature),
        published(datapackage, handle_week_description),
        published(csv_metadata, handle_week_description),
        published(catalog, handle_signed_catalog),
        published(catalog_signature, handle_catalog_signature),
        published(keys, handle_keys),
        published(key_file, handle_key_file),
        published(log, handle_log),
        published(log_checkpoint, handle_log_checkpoint),
        published(log_signed_bytes, handle_log_version),
        published(log_signature, handle_log_version),
        published(log_tile, handle_log_tile, true),
        published(regions, handle_regions),
        published(sources, handle_sources),
        {"/mcp", handle_mcp, true, {}, "POST, OPTIONS", nullptr, true},
    });
    for (auto& r : all)
        if (r.pattern.find('{') == std::string_view::npos)
            r.formats.for_each([&](render::format f) {
                r.links_without_query[static_cast<std::size_t>(f)] =
                    with_description(alternate_links(r.pattern, "", r.formats, f), r.pattern, r.pattern, f);
            });
    return all;
}

}

std::vector<route> const& routes()
{
    static std::vector<route> const all = make_routes();
    return all;
}

bool match(std::string_view pattern, std::string_view path, std::vector<std::string_view>& out, bool tail)
{
    out.clear();
    if (pattern.find('{') == std::string_view::npos)
        return pattern == path;  // what the walk below finds, segment by segment, without the walk
    while (!pattern.empty() && !path.empty()) {
        if (pattern.front() != '/' || path.front() != '/')
            return false;
        pattern.remove_prefix(1);
        path.remove_prefix(1);
        auto const p = pattern.substr(0, pattern.find('/'));
        auto const s = path.substr(0, path.find('/'));
        if (tail && p.starts_with('{') && p.size() == pattern.size()) {
            if (path.empty())
                return false;
            out.push_back(path);
            return true;
        }
        if (p.starts_with('{')) {
            if (s.empty())
                return false;
            out.push_back(s);
        } else if (p != s) {
            return false;
        }
        pattern.remove_prefix(p.size());
        path.remove_prefix(s.size());
    }
    return pattern.empty() && path.empty();
}

namespace {

// The routes without a placeholder, by path, that no route before them in the table also matches:
// for such a path, the walk below would stop at that route, so a lookup finds it without the walk
// (POST /mcp, the tail of the table, asks twice per request).
std::unordered_map<std::string_view, route const*> const& literal_routes()
{
    static auto const by_path = [] {
        std::unordered_map<std::string_view, route const*> out;
        std::vector<std::string_view> captures;
        auto const& all = routes();
        for (auto r = all.begin(); r != all.end(); ++r) {
            auto const path = r->pattern;
            if (path.find('{') != std::string_view::npos)
                continue;
            auto const earlier = [&](route const& before) { return match(before.pattern, path, captures, before.tail); };
            if (std::none_of(all.begin(), r, earlier))
                out.emplace(path, &*r);
        }
        return out;
    }();
    return by_path;
}

}

found_route find_route(std::string_view path)
{
    std::vector<std::string_view> captures;
    // The suffix first: "/v1/gpus/h100-sxm.md" is not a GPU named "h100-sxm.md" (ids, slugs and
    // weeks have no dots), while "/openapi.json" names no "/openapi" resource and is its own route.
    if (auto split = render::split_suffix(path)) {
        found_route found{nullptr, std::move(split->first), split->second};
        for (auto const& r : routes())
            if (!r.formats.empty() && match(r.pattern, found.path, captures, r.tail)) {
                found.r = &r;
                return found;
            }
    }
    auto const& literals = literal_routes();
    if (auto const literal = literals.find(path); literal != literals.end())
        return {literal->second, std::string(path), std::nullopt};
    for (auto const& r : routes())
        if (match(r.pattern, path, captures, r.tail))
            return {&r, std::string(path), std::nullopt};
    return {};
}

std::string with_description(std::string links, std::string_view pattern, std::string_view path, render::format f)
{
    auto const described = description_link(pattern, path, f);
    if (described.empty())
        return links;
    return links.empty() ? described : links + ", " + described;
}

}
