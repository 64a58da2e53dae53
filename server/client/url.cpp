#include "server/client/url.hpp"

#include <algorithm>

namespace lcg::client {

std::string base_url::to_string() const { return (tls ? "https://" : "http://") + host_header(*this) + prefix; }

pricing::outcome<base_url> parse_url(std::string_view url)
{
    constexpr std::string_view http = "http://", https = "https://";
    bool const tls = url.starts_with(https);
    if (!tls && !url.starts_with(http))
        return pricing::invalid(pricing::quote(url) + " is not an http:// or https:// URL");
    std::string_view rest = url.substr(tls ? https.size() : http.size());
    rest = rest.substr(0, rest.find('#'));
    auto const end_of_authority = rest.find_first_of("/?");
    std::string_view const authority = rest.substr(0, end_of_authority);
    if (authority.find('@') != std::string_view::npos)
        return pricing::invalid(pricing::quote(url) + " carries credentials (user@host); they are not sent");
    base_url out{std::string(authority), tls ? "443" : "80",
                 end_of_authority == std::string_view::npos ? std::string() : std::string(rest.substr(end_of_authority)),
                 tls};
    if (out.prefix.starts_with('?'))
        out.prefix.insert(0, "/");
    // A bracketed IPv6 address keeps its colons; a port follows the closing bracket.
    auto const colon = authority.rfind(':');
    if (colon != std::string_view::npos && authority.find(']', colon) == std::string_view::npos) {
        out.host = authority.substr(0, colon);
        out.port = authority.substr(colon + 1);
        bool const digits = !out.port.empty() && out.port.size() <= 5 &&
                            std::all_of(out.port.begin(), out.port.end(), [](char c) { return c >= '0' && c <= '9'; });
        if (!digits || std::stoi(out.port) < 1 || std::stoi(out.port) > 65535)
            return pricing::invalid(pricing::quote(url) + " has no valid port (1 to 65535)");
    }
    if (out.host.size() > 2 && out.host.front() == '[' && out.host.back() == ']')
        out.host = out.host.substr(1, out.host.size() - 2);
    if (out.host.empty())
        return pricing::invalid(pricing::quote(url) + " names no host");
    return out;
}

pricing::outcome<base_url> parse_base_url(std::string_view url)
{
    auto out = parse_url(url);
    if (!out)
        return out;
    base_url base = std::move(out).value();
    while (!base.prefix.empty() && base.prefix.back() == '/')
        base.prefix.pop_back();
    return base;
}

std::string host_header(base_url const& at)
{
    std::string const host = at.host.find(':') == std::string::npos ? at.host : "[" + at.host + "]";
    return at.port == (at.tls ? "443" : "80") ? host : host + ":" + at.port;
}

pricing::outcome<base_url> resolve_location(base_url const& from, std::string_view location)
{
    if (location.empty())
        return pricing::invalid("a redirect without a Location");
    if (location.starts_with("http://") || location.starts_with("https://"))
        return parse_url(location);
    if (location.starts_with("//"))
        return parse_url((from.tls ? "https:" : "http:") + std::string(location));
    base_url to = from;
    location = location.substr(0, location.find('#'));
    if (location.starts_with('/')) {
        to.prefix = location;
    } else {
        std::string_view const path = std::string_view(from.prefix).substr(0, from.prefix.find('?'));
        to.prefix = std::string(path.substr(0, path.rfind('/') + 1)) + std::string(location);
        if (!to.prefix.starts_with('/'))
            to.prefix.insert(0, "/");
    }
    return to;
}

}
