#include "server/http/headers.hpp"

#include "glossary/text.hpp"

#include <boost/range/iterator_range.hpp>

namespace lcg::http {

namespace {

template <class Fields>
std::vector<std::string_view> items_of(Fields const& fields)
{
    std::vector<std::string_view> out;
    for (auto const& field : fields)
        for (auto item : list_items(field.value()))
            out.push_back(item);
    return out;
}

}

std::string_view trim_whitespace(std::string_view text) { return glossary::trim(text); }

namespace {

// Calls `f` with each element of `list` until it returns true; whether one did.
template <class F>
bool any_item(std::string_view list, F&& f)
{
    while (!list.empty()) {
        auto const comma = list.find(',');
        if (auto const item = trim_whitespace(list.substr(0, comma)); !item.empty() && f(item))
            return true;
        list = comma == std::string_view::npos ? std::string_view{} : list.substr(comma + 1);
    }
    return false;
}

}

std::vector<std::string_view> list_items(std::string_view list)
{
    std::vector<std::string_view> out;
    any_item(list, [&](std::string_view item) {
        out.push_back(item);
        return false;
    });
    return out;
}

bool list_has(std::string_view list, std::string_view item)
{
    return any_item(list, [&](std::string_view each) { return each == item; });
}

std::vector<std::string_view> list_items(request const& req, beast_http::field name)
{
    return items_of(boost::make_iterator_range(req.equal_range(name)));
}

std::vector<std::string_view> list_items(request const& req, std::string_view name)
{
    return items_of(boost::make_iterator_range(req.equal_range(name)));
}

std::optional<int> parse_qvalue(std::string_view text)
{
    if (text.empty() || (text[0] != '0' && text[0] != '1'))
        return std::nullopt;
    int value = (text[0] - '0') * 1000;
    if (text.size() == 1)
        return value;
    if (text[1] != '.' || text.size() > 5)
        return std::nullopt;
    int scale = 100;
    for (char c : text.substr(2)) {
        if (c < '0' || c > '9')
            return std::nullopt;
        value += (c - '0') * scale;
        scale /= 10;
    }
    return value <= 1000 ? std::optional<int>(value) : std::nullopt;
}

std::vector<weighted_item> weighted_items(std::string_view list)
{
    std::vector<weighted_item> out;
    for (auto item : list_items(list)) {
        auto const semi = item.find(';');
        weighted_item w{trim_whitespace(item.substr(0, semi))};
        bool valid = !w.value.empty();
        auto params = semi == std::string_view::npos ? std::string_view{} : item.substr(semi + 1);
        while (valid && !params.empty()) {
            auto const next = params.find(';');
            auto const param = trim_whitespace(params.substr(0, next));
            params = next == std::string_view::npos ? std::string_view{} : params.substr(next + 1);
            auto const eq = param.find('=');
            if (eq != std::string_view::npos && iequals(trim_whitespace(param.substr(0, eq)), "q")) {
                auto const q = parse_qvalue(trim_whitespace(param.substr(eq + 1)));
                valid = q.has_value();
                w.q = q.value_or(0);
            }
        }
        if (valid)
            out.push_back(w);
    }
    return out;
}

locale::language negotiate_language(std::string_view accept_language)
{
    locale::language best = locale::language::en;
    int best_q = 0;
    for (auto const& item : weighted_items(accept_language)) {
        if (item.q == 0)
            continue;
        auto const lang = item.value == "*" ? std::optional(locale::language::en)
                                            : locale::parse_language(item.value.substr(0, item.value.find('-')));
        if (lang && item.q > best_q) {
            best = *lang;
            best_q = item.q;
        }
    }
    return best;
}

void join_negotiation_lines(request& req)
{
    auto const& joined = negotiation_fields;
    // One pass over the fields in the common case, where each is sent once or not at all.
    int seen[std::size(joined)] = {};
    bool repeated = false;
    for (auto const& field : req)
        for (std::size_t i = 0; i < std::size(joined); ++i)
            if (field.name() == joined[i])
                repeated = ++seen[i] > 1 || repeated;
    if (!repeated)
        return;
    for (std::size_t i = 0; i < std::size(joined); ++i) {
        if (seen[i] < 2)
            continue;
        std::string value;
        for (auto const& field : boost::make_iterator_range(req.equal_range(joined[i])))
            value.append(value.empty() ? "" : ", ").append(field.value());
        req.set(joined[i], value);
    }
}

void to_origin_form(request& req)
{
    std::string_view const target = req.target();
    auto const scheme_end = target.find("://");
    if (scheme_end == std::string_view::npos ||
        !(iequals(target.substr(0, scheme_end), "http") || iequals(target.substr(0, scheme_end), "https")))
        return;
    auto const rest = target.substr(scheme_end + 3);
    auto const path_at = rest.find_first_of("/?");
    auto authority = rest.substr(0, path_at);
    if (auto const at = authority.rfind('@'); at != std::string_view::npos)
        authority.remove_prefix(at + 1);
    if (authority.empty())
        return;  // no host to name: left to be refused as the path it is not
    std::string origin = path_at == std::string_view::npos ? "/" : std::string(rest.substr(path_at));
    if (origin.starts_with('?'))
        origin.insert(0, "/");
    std::string const host(authority);
    req.target(origin);
    req.set(beast_http::field::host, host);
}

}
