#include "server/http/negotiation.hpp"

#include "server/http/headers.hpp"

#include <vector>

namespace lcg::http {

namespace {

// How specifically `range` ("text/*") matches `type` ("text/markdown"): 2 exactly, 1 by type, 0 for
// "*/*", -1 not at all (or a malformed range).
int specificity(std::string_view range, std::string_view type)
{
    auto const slash = range.find('/');
    if (slash == std::string_view::npos)
        return -1;
    auto const r_type = range.substr(0, slash), r_sub = range.substr(slash + 1);
    auto const t_slash = type.find('/');
    auto const t_type = type.substr(0, t_slash), t_sub = type.substr(t_slash + 1);
    if (r_type == "*" && r_sub == "*")
        return 0;
    if (!iequals(r_type, t_type))
        return -1;
    if (r_sub == "*")
        return 1;
    return iequals(r_sub, t_sub) ? 2 : -1;
}

}

std::optional<render::format> negotiate_format(std::string_view accept, render::format_set offered)
{
    auto ranges = weighted_items(accept);
    std::erase_if(ranges, [](weighted_item const& r) { return r.value.find('/') == std::string_view::npos; });
    std::optional<render::format> best;
    int best_q = 0;
    for (auto f : render::all_formats) {
        if (!offered.contains(f))
            continue;
        if (ranges.empty())
            return f;  // no preference stated: the server's first
        int matched = -1, q = 0;
        for (auto const& r : ranges) {
            int const s = specificity(r.value, render::media_type(f));
            if (s > matched)
                matched = s, q = r.q;
        }
        if (matched >= 0 && q > best_q)
            best = f, best_q = q;
    }
    return best;
}

std::optional<std::string_view> negotiate_type(std::string_view accept, std::span<std::string_view const> offered)
{
    auto ranges = weighted_items(accept);
    std::erase_if(ranges, [](weighted_item const& r) { return r.value.find('/') == std::string_view::npos; });
    if (ranges.empty())
        return offered.empty() ? std::nullopt : std::optional<std::string_view>(offered.front());
    std::optional<std::string_view> best;
    int best_q = 0;
    for (auto const type : offered) {
        int matched = -1, q = 0;
        for (auto const& r : ranges)
            if (int const s = specificity(r.value, type); s > matched)
                matched = s, q = r.q;
        if (matched >= 0 && q > best_q)
            best = type, best_q = q;
    }
    return best;
}

bool accepts_gzip(std::string_view accept_encoding)
{
    std::optional<int> gzip_q, any_q;
    for (auto const& c : weighted_items(accept_encoding)) {
        if (iequals(c.value, "gzip") || iequals(c.value, "x-gzip"))
            gzip_q = std::max(gzip_q.value_or(0), c.q);
        else if (c.value == "*")
            any_q = c.q;
    }
    return gzip_q ? *gzip_q > 0 : any_q.value_or(0) > 0;
}

std::string media_types(render::format_set offered)
{
    std::string out;
    offered.for_each([&](render::format f) {
        if (!out.empty())
            out += ", ";
        out += render::media_type(f);
    });
    return out;
}

std::string alternate_links(std::string_view path, std::string_view query, render::format_set offered,
                            render::format served)
{
    std::string out;
    offered.for_each([&](render::format f) {
        if (f == served || f == render::format::text)
            return;
        if (!out.empty())
            out += ", ";
        out += '<';
        out += render::suffixed_url(path, f, query);
        out += ">; rel=\"alternate\"; type=\"";
        out += render::media_type(f);
        out += '"';
    });
    return out;
}

}
