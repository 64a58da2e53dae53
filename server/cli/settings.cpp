#include "server/cli/settings.hpp"

#include "server/cli/files.hpp"
#include "server/cli/keys.hpp"
#include "server/client/http_client.hpp"
#include "server/http/headers.hpp"
#include "server/http/mcp_access.hpp"
#include "server/mirror/key_pin.hpp"
#include "server/ops/client_address.hpp"
#include "server/ops/rate_limiter.hpp"

#include "pricing/rules.hpp"

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>

namespace lcg::cli {

namespace {

// The keys every sheet of a mirror must verify with (without them it could not tell the origin's
// sheets from altered ones): those of --upstream-keys (UPSTREAM_KEYS), kept from a download the
// operator trusts; else those pinned on the first use of this upstream (mirror::key_pin), narrowed
// to --upstream-key-id (UPSTREAM_KEY_ID: ids given out of band, comma-separated) when given.
pricing::key_ring upstream_keys(arguments const& args, mirror::upstream_options const& o)
{
    std::string const ids = setting(args, "upstream-key-id", "UPSTREAM_KEY_ID");
    if (std::string const keys = setting(args, "upstream-keys", "UPSTREAM_KEYS"); !keys.empty()) {
        if (!ids.empty())
            throw usage_error("--upstream-key-id pins keys on first use; with --upstream-keys the keys are given whole");
        return read_key_ring(keys);
    }
    std::filesystem::path state;
    if (char const* xdg = std::getenv("XDG_STATE_HOME"); xdg && *xdg)
        state = xdg;
    else if (char const* home = std::getenv("HOME"); home && *home)
        state = std::filesystem::path(home) / ".local" / "state";
    else
        throw usage_error("--upstream without --upstream-keys pins the origin's keys under XDG_STATE_HOME or "
                          "HOME/.local/state, and neither is set");
    mirror::key_pin pin{mirror::pin_file_for(o.origin, state), {}};
    for (auto id : http::list_items(ids))
        pin.expected_ids.emplace_back(id);
    return mirror::pinned_keys(o.origin, o.limits, pin, std::cerr);
}

// How a mirror witnesses its upstream's log: where it keeps the checkpoint it accepted last
// (--witness-checkpoint, WITNESS_CHECKPOINT) and the key it cosigns with (--witness-key FILE, an
// Ed25519 PEM, named by --witness-name, WITNESS_NAME).
mirror::witness_options witness_settings(arguments const& args)
{
    mirror::witness_options w;
    if (auto const file = setting(args, "witness-checkpoint", "WITNESS_CHECKPOINT"); !file.empty())
        w.checkpoint_file = file;
    std::string const key_file = setting(args, "witness-key", "WITNESS_KEY_FILE");
    std::string const name = setting(args, "witness-name", "WITNESS_NAME");
    if (key_file.empty() != name.empty())
        throw usage_error("--witness-key and --witness-name go together: the cosignature names its key");
    if (key_file.empty())
        return w;
    w.cosigner = note_signer_of(name, signing_key_from_pem(read_whole_file(key_file), "--witness-key " + key_file));
    return w;
}

}

// The public keys serve and mcp publish: --public-keys FILE or LCG_PUBLIC_KEYS_FILE (none: an
// empty list, and the server says so on standard error, whose first line of standard output
// scripts read for the bound port).
pricing::key_ring public_keys_setting(arguments const& args)
{
    auto& log = std::cerr;
    auto const path = setting(args, "public-keys", "LCG_PUBLIC_KEYS_FILE");
    if (path.empty()) {
        log << R"({"event":"no_public_keys","detail":"no --public-keys FILE (LCG_PUBLIC_KEYS_FILE): )"
            << R"(/.well-known/lowcostgpu-keys.json lists no key, so nobody can verify the sheets"})" << std::endl;
        return {};
    }
    return read_key_ring(path);
}

// Where clients reach this instance: --public-url URL (PUBLIC_URL), an http:// or https:// base
// URL, which the home page and llms.txt write into their client configurations. Empty when not
// given: they show a placeholder.
std::string public_url_setting(arguments const& args)
{
    std::string const url = setting(args, "public-url", "PUBLIC_URL");
    if (url.empty())
        return url;
    auto const parsed = client::parse_base_url(url);
    if (!parsed)
        throw usage_error("--public-url: " + parsed.err().message);
    return parsed->to_string();
}

snapshot::instance_facts database_instance(arguments const& args)
{
    return {public_keys_setting(args), public_url_setting(args)};
}

http::server_options listen_options(arguments const& args)
{
    http::server_options o;
    std::string const listen = setting(args, "listen", "LISTEN", "127.0.0.1:8080");
    auto const colon = listen.rfind(':');
    if (colon == std::string::npos)
        throw usage_error("--listen expects ADDRESS:PORT, such as 127.0.0.1:8080");
    o.address = listen.substr(0, colon);
    if (o.address.size() > 2 && o.address.front() == '[')
        o.address = o.address.substr(1, o.address.size() - 2);
    try {
        int const port = std::stoi(listen.substr(colon + 1));
        if (port < 0 || port > 65535)
            throw std::out_of_range("range");
        o.port = static_cast<unsigned short>(port);
    } catch (std::logic_error const&) {
        throw usage_error("--listen needs a port from 0 to 65535");
    }
    o.threads = static_cast<int>(number_setting(args, "threads", "THREADS", 1, 1, 256));
    o.header_timeout = std::chrono::seconds(number_setting(args, "header-timeout", "HEADER_TIMEOUT", 10, 1, 600));
    o.idle_timeout = std::chrono::seconds(number_setting(args, "idle-timeout", "IDLE_TIMEOUT", 60, 1, 3600));
    o.max_connections =
        static_cast<std::size_t>(number_setting(args, "max-connections", "MAX_CONNECTIONS", 10'000, 1, 1'000'000));
    o.max_connections_per_address = static_cast<std::size_t>(
        number_setting(args, "max-connections-per-address", "MAX_CONNECTIONS_PER_ADDRESS", 0, 0, 1'000'000));
    o.max_snapshot_age = std::chrono::seconds(number_setting(args, "ready-max-age", "READY_MAX_AGE", 300, 1, 86'400));
    o.log_every = static_cast<int>(number_setting(args, "log-every", "LOG_EVERY", 1, 0, 1'000'000));
    long const rate = number_setting(args, "rate-limit", "RATE_LIMIT", 0, 0, 1'000'000);
    if (rate > 0) {
        ops::rate_limit_options limit;
        limit.per_second = static_cast<double>(rate);
        limit.burst = static_cast<double>(number_setting(args, "rate-burst", "RATE_BURST", 2 * rate, 1, 10'000'000));
        limit.limit_loopback = setting(args, "rate-limit-loopback", "RATE_LIMIT_LOOPBACK", "false") == "true";
        o.rate_limit = limit;
    }
    std::string const proxies = setting(args, "trusted-proxies", "TRUSTED_PROXIES");
    for (auto proxy : http::list_items(proxies)) {
        auto canonical = ops::canonical_address(proxy);
        if (!canonical)
            throw usage_error("--trusted-proxies: " + pricing::quote(proxy) +
                              " is not an IP address (list each proxy's address, comma-separated)");
        o.trusted_proxies.push_back(std::move(*canonical));
    }
    auto policy = std::make_shared<http::mcp_access>();
    policy->allowed_hosts = http::mcp_access::parse_list(setting(args, "allowed-hosts", "ALLOWED_HOSTS"));
    policy->allowed_origins = http::mcp_access::parse_list(setting(args, "allowed-origins", "ALLOWED_ORIGINS"));
    o.mcp_policy = std::move(policy);
    return o;
}

// A mirror's source: the upstream named by --upstream (UPSTREAM), or nothing when the snapshot comes
// from PostgreSQL. A mirror reads no database, so --database-url with it is a mistake.
std::optional<mirror::upstream_options> upstream_settings(arguments const& args)
{
    std::string const url = setting(args, "upstream", "UPSTREAM");
    if (url.empty()) {
        for (char const* flag : {"upstream-keys", "upstream-key-id", "upstream-interval", "upstream-timeout",
                                 "witness-checkpoint", "witness-key", "witness-name"})
            if (args.flag(flag))
                throw usage_error(std::string("--") + flag + " needs --upstream");
        return std::nullopt;
    }
    if (args.flag("database-url"))
        throw usage_error("--upstream and --database-url exclude each other: a mirror reads no database");
    auto origin = client::parse_base_url(url);
    if (!origin)
        throw usage_error("--upstream: " + origin.err().message);
    mirror::upstream_options o;
    o.origin = *origin;
    if (args.flag("public-keys"))
        throw usage_error("--public-keys and --upstream exclude each other: a mirror publishes the keys it verifies "
                          "with (--upstream-keys)");
    o.limits.timeout = std::chrono::seconds(
        number_setting(args, "upstream-timeout", "UPSTREAM_TIMEOUT", pricing::rules::fetch_timeout_seconds, 1, 3600));
    // An upstream that drips its answers is given up, not waited on for the whole total.
    o.limits.min_bytes_per_second = pricing::rules::upstream_min_bytes_per_second;
    o.pinned_keys = upstream_keys(args, o);
    o.public_url = public_url_setting(args);
    o.witness = witness_settings(args);
    return o;
}

archive::options archive_settings(arguments const& args)
{
    archive::options o;  // its defaults are the settings' defaults
    o.cache_bytes = static_cast<std::size_t>(number_setting(args, "archive-cache-bytes", "LCG_ARCHIVE_CACHE_BYTES",
                                                            static_cast<long>(o.cache_bytes), 0, 1L << 40));
    o.stream_bytes = static_cast<std::size_t>(number_setting(args, "archive-stream-bytes", "LCG_ARCHIVE_STREAM_BYTES",
                                                             static_cast<long>(o.stream_bytes), 1L << 20, 1L << 40));
    o.timeout = archive_timeout;
    return o;
}

std::chrono::seconds upstream_interval(arguments const& args)
{
    return std::chrono::seconds(number_setting(args, "upstream-interval", "UPSTREAM_INTERVAL",
                                               pricing::rules::upstream_interval_seconds, 1, 86'400));
}

}
