#include "mcp/lifecycle.hpp"

#include "pricing/base64.hpp"
#include "pricing/outcome.hpp"

#include <boost/json/array.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <array>
#include <optional>
#include <string>

namespace lcg::mcp {

namespace {

namespace json = boost::json;

constexpr std::string_view version_key = "io.modelcontextprotocol/protocolVersion";
constexpr std::string_view capabilities_key = "io.modelcontextprotocol/clientCapabilities";
constexpr std::string_view latest_legacy = legacy_versions[0];

constexpr std::array<std::string_view, 8> log_levels{"debug", "info",     "notice", "warning",
                                                     "error", "critical", "alert",  "emergency"};

constexpr char const* instructions =
    "LowCostGPU publishes a weekly GPU price sheet: per-GPU hourly rates (on-demand at most 70 % of the public "
    "market median, spot 50 % and reserved 65 % of on-demand), the GPU catalog and a bilingual glossary. Every "
    "figure comes from the tools, computed exactly by the server: quote them as given and never compute prices "
    "yourself. Start with get_prices, find_cheapest, size_model or estimate_job_cost; explain_term explains the "
    "vocabulary in English or French.";

bool is_legacy(std::string_view v)
{
    return std::find(legacy_versions.begin(), legacy_versions.end(), v) != legacy_versions.end();
}

}

bool is_known(std::string_view v)
{
    return std::find(supported_versions.begin(), supported_versions.end(), v) != supported_versions.end();
}

// -32022 with the versions this server speaks.
failure unsupported_version(std::string_view requested)
{
    json::array supported;
    for (auto v : supported_versions)
        supported.emplace_back(v);
    return {error_code::unsupported_protocol_version, "unsupported protocol version " + pricing::quote(limited(requested)),
            json::object{{"requested", limited(requested)}, {"supported", std::move(supported)}}};
}

result_or_failure<era> negotiate(std::string_view method, json::object const* params, message_context const& context)
{
    bool const http = context.via == transport::http;
    auto mismatch = [](std::string message) { return failure{error_code::header_mismatch, std::move(message)}; };

    json::object const* meta = nullptr;
    if (auto const* m = params ? params->if_contains("_meta") : nullptr) {
        if (!m->is_object())
            return invalid_params("params._meta must be an object");
        meta = &m->get_object();
    }
    std::optional<std::string_view> body_version;
    if (meta) {
        if (auto const* v = meta->if_contains(version_key)) {
            if (!v->is_string())
                return invalid_params("_meta " + std::string(version_key) + " must be a string");
            body_version = v->get_string();
        }
    }
    auto const header = http ? context.protocol_version_header : std::nullopt;
    if (header && !is_known(*header))
        return unsupported_version(*header);
    if (body_version && !is_known(*body_version))
        return unsupported_version(*body_version);
    if (header && body_version && *header != *body_version)
        return mismatch("header mismatch: MCP-Protocol-Version " + pricing::quote(limited(*header)) +
                        " does not match params._meta " + std::string(version_key) + " " +
                        pricing::quote(limited(*body_version)));
    if ((!body_version || *body_version != modern_version) && (!header || *header != modern_version))
        return era::legacy;
    if (http) {
        if (!header)
            return mismatch("header mismatch: the MCP-Protocol-Version header is required");
        if (!body_version)
            return mismatch("header mismatch: MCP-Protocol-Version is " + std::string(modern_version) +
                            " but params._meta lacks " + std::string(version_key));
        if (!context.method_header)
            return mismatch("header mismatch: the Mcp-Method header is required");
        if (*context.method_header != method)
            return mismatch("header mismatch: Mcp-Method " + pricing::quote(limited(*context.method_header)) +
                            " does not match the body's method " + pricing::quote(limited(method)));
        std::string_view const name_field = method == "resources/read" ? "uri" : "name";
        if (method == "tools/call" || method == "prompts/get" || method == "resources/read") {
            if (!context.name_header)
                return mismatch("header mismatch: the Mcp-Name header is required for " + std::string(method));
            auto const decoded = decode_header_value(*context.name_header);
            if (!decoded)
                return mismatch("header mismatch: Mcp-Name holds invalid Base64");
            auto const* body_name = params ? params->if_contains(name_field) : nullptr;
            if (body_name && body_name->is_string() && *decoded != std::string_view(body_name->get_string()))
                return mismatch("header mismatch: Mcp-Name " + pricing::quote(limited(*decoded)) +
                                " does not match params." + std::string(name_field) + " " +
                                pricing::quote(limited(body_name->get_string())));
        }
    }
    if (!body_version)
        return invalid_params("modern requests carry params._meta " + std::string(version_key));
    auto const* caps = meta->if_contains(capabilities_key);
    if (!caps || !caps->is_object())
        return invalid_params("params._meta " + std::string(capabilities_key) + " is required (an object)");
    return era::modern;
}

std::optional<std::string> decode_header_value(std::string_view value)
{
    constexpr std::string_view prefix = "=?base64?", suffix = "?=";
    if (value.size() < prefix.size() + suffix.size() || !value.starts_with(prefix) || !value.ends_with(suffix))
        return std::string(value);
    return pricing::base64_decode(value.substr(prefix.size(), value.size() - prefix.size() - suffix.size()));
}

json::object server_capabilities(bool modern, transport via)
{
    // Only stdio is a session that can carry notifications: there a new sheet is announced, to the
    // revisions that subscribe with resources/subscribe. 2026-07-28 replaced it with
    // subscriptions/listen, which this server does not offer: that era is promised nothing.
    bool const announces = via == transport::stdio && !modern;
    json::object c{{"tools", {{"listChanged", false}}},
                   {"resources", {{"subscribe", announces}, {"listChanged", announces}}},
                   {"prompts", {{"listChanged", false}}},
                   {"completions", json::object{}}};
    if (!modern)
        c["logging"] = json::object{};
    return c;
}

reply initialize(server_state const& state, request const& r)
{
    auto const version = string_param(r, "protocolVersion");
    if (!version)
        return fail(r, invalid_params("initialize needs params.protocolVersion (a string)"));
    auto const* caps = r.params->if_contains("capabilities");
    auto const* client = r.params->if_contains("clientInfo");
    if (!caps || !caps->is_object() || !client || !client->is_object())
        return fail(r, invalid_params("initialize needs params.capabilities and params.clientInfo (objects)"));
    std::string_view const chosen = is_legacy(*version) ? *version : latest_legacy;
    auto initialized = answer(state, r,
                              {{"protocolVersion", chosen},
                               {"capabilities", server_capabilities(false, r.via)},
                               {"serverInfo", state.server_info},
                               {"instructions", instructions}},
                              false);
    initialized.initialized = true;
    return initialized;
}

reply ping(server_state const& state, request const& r) { return answer(state, r, {}, false); }

reply logging_set_level(server_state const& state, request const& r)
{
    auto const level = string_param(r, "level");
    if (!level || std::find(log_levels.begin(), log_levels.end(), *level) == log_levels.end())
        return fail(r, invalid_params("logging/setLevel needs params.level: debug, info, notice, warning, "
                                      "error, critical, alert or emergency"));
    // Stateless: every message is answered on its own and this server sends no log messages.
    return answer(state, r, {}, false);
}

reply server_discover(server_state const& state, request const& r)
{
    json::array versions;
    for (auto v : supported_versions)
        versions.emplace_back(v);
    json::object result{{"supportedVersions", std::move(versions)},
                        {"capabilities", server_capabilities(true, r.via)},
                        {"instructions", instructions}};
    // Decorated in either era: the method is 2026-07-28's.
    return answer_serialized(r, state.decorated(json::serialize(result), true));
}

}
