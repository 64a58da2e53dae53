#include "server/http/mcp_access.hpp"

#include "server/http/headers.hpp"

#include <algorithm>
#include <array>
#include <optional>

namespace lcg::http {

namespace {

std::string lower(std::string_view s)
{
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c); });
    return out;
}

struct authority {
    std::string host;  // lower case; an IPv6 literal keeps its brackets
    std::optional<std::string> port;
};

// "Example.com:80" → {"example.com", "80"}; "[::1]:9" → {"[::1]", "9"}. Nothing when malformed.
std::optional<authority> split_authority(std::string_view text)
{
    if (text.empty())
        return std::nullopt;
    authority a;
    std::string_view rest;
    if (text.front() == '[') {
        auto const close = text.find(']');
        if (close == std::string_view::npos)
            return std::nullopt;
        a.host = lower(text.substr(0, close + 1));
        rest = text.substr(close + 1);
    } else {
        auto const colon = text.find(':');
        a.host = lower(text.substr(0, colon));
        rest = colon == std::string_view::npos ? std::string_view{} : text.substr(colon);
    }
    if (!rest.empty()) {
        if (rest.front() != ':' || rest.size() == 1)
            return std::nullopt;
        rest.remove_prefix(1);
        if (!std::all_of(rest.begin(), rest.end(), [](char c) { return c >= '0' && c <= '9'; }))
            return std::nullopt;
        a.port = std::string(rest);
    }
    if (a.host.empty())
        return std::nullopt;
    return a;
}

constexpr std::array<std::string_view, 3> loopback_hosts{"localhost", "127.0.0.1", "[::1]"};

bool matches(std::string_view entry, authority const& a)
{
    if (entry == "*")
        return true;
    auto const e = split_authority(entry);
    return e && e->host == a.host && (!e->port || e->port == a.port);
}

}

bool mcp_access::host_allowed(std::string_view host) const
{
    auto const a = split_authority(host);
    if (!a)
        return false;
    if (allowed_hosts.empty())
        return std::find(loopback_hosts.begin(), loopback_hosts.end(), a->host) != loopback_hosts.end();
    return std::any_of(allowed_hosts.begin(), allowed_hosts.end(), [&](std::string const& e) { return matches(e, *a); });
}

bool mcp_access::is_loopback(std::string_view host)
{
    auto const a = split_authority(host);
    return a && std::find(loopback_hosts.begin(), loopback_hosts.end(), a->host) != loopback_hosts.end();
}

bool mcp_access::origin_allowed(std::string_view origin) const
{
    auto const scheme_end = origin.find("://");
    if (scheme_end == std::string_view::npos)
        return allowed_origins.size() == 1 && allowed_origins.front() == "*";
    std::string const scheme = lower(origin.substr(0, scheme_end));
    auto const a = split_authority(origin.substr(scheme_end + 3));
    if (!a)
        return false;
    if (allowed_origins.empty())
        return (scheme == "http" || scheme == "https") &&
               std::find(loopback_hosts.begin(), loopback_hosts.end(), a->host) != loopback_hosts.end();
    return std::any_of(allowed_origins.begin(), allowed_origins.end(), [&](std::string const& e) {
        if (e == "*")
            return true;
        auto const sep = e.find("://");
        return sep != std::string::npos && lower(std::string_view(e).substr(0, sep)) == scheme &&
               matches(std::string_view(e).substr(sep + 3), *a);
    });
}

std::vector<std::string> mcp_access::parse_list(std::string_view text)
{
    auto const items = list_items(text);
    return {items.begin(), items.end()};
}

}
