#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace lcg::http {

// Who may call POST /mcp: the DNS-rebinding protection of the MCP transport. A request whose Host,
// or whose Origin when it has one, is not allowed gets 403.
//
// Host entries: "example.com" (any port), "example.com:8443" (that port), "[::1]" or "*" (any
// host). Origin entries: "https://app.example.com" (any port), "https://app.example.com:8443" or
// "*". Comparisons ignore letter case. An empty list means the default: localhost, 127.0.0.1 and
// [::1] on any port (with http or https for origins).
struct mcp_access {
    std::vector<std::string> allowed_hosts;
    std::vector<std::string> allowed_origins;

    bool host_allowed(std::string_view host) const;
    bool origin_allowed(std::string_view origin) const;

    // Whether a Host value names this machine's loopback (localhost, 127.0.0.1 or [::1], any port).
    static bool is_loopback(std::string_view host);

    // "a, b,c" → {"a", "b", "c"}
    static std::vector<std::string> parse_list(std::string_view text);
};

}
