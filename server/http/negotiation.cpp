#include "server/http/negotiation.hpp"

#include "glossary/text.hpp"

#include <cctype>
#include <vector>

namespace lcg::http {

namespace {

bool iequals(std::string_view a, std::string_view b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i])))
            return false;
    return true;
}

// One element of a comma-separated header: its value before any ';', and its q (1000 by default).
struct weighted {
    std::string_view value;
    int q = 1000;
};

std::vector<weighted> parse_weighted(std::string_view header)
{
    std::vector<weighted> out;
    while (!header.empty()) {
        auto const comma = header.find(',');
        auto item = header.substr(0, comma);
        header = comma == std::string_view::npos ? std::string_view{} : header.substr(comma + 1);
        auto const semi = item.find(';');
        weighted w{glossary::trim(item.substr(0, semi))};
        bool valid = !w.value.empty();
        auto params = semi == std::string_view::npos ? std::string_view{} : item.substr(semi + 1);
        while (valid && !params.empty()) {
            auto const next = params.find(';');
            auto const param = glossary::trim(params.substr(0, next));
            params = next == std::string_view::npos ? std::string_view{} : params.substr(next + 1);
            auto const eq = param.find('=');
            if (eq != std::string_view::npos && iequals(glossary::trim(param.substr(0, eq)), "q")) {
                auto const q = glossary::parse_qvalue(glossary::trim(param.substr(eq + 1)));
                valid = q.has_value();
                w.q = q.value_or(0);
            }
        }
        if (valid)
            out.push_back(w);
    }
    return out;
}

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
    auto ranges = parse_weighted(accept);
    std::erase_if(ranges, [](weighted const& r) { return r.value.find('/') == std::string_view::npos; });
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

bool accepts_gzip(std::string_view accept_encoding)
{
    std::optional<int> gzip_q, any_q;
    for (auto const& c : parse_weighted(accept_encoding)) {
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
