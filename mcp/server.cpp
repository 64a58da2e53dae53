#include "mcp/server.hpp"

#include "mcp/failure.hpp"
#include "mcp/prompts.hpp"
#include "mcp/resources.hpp"
#include "mcp/tool_calls.hpp"

#include "pricing/outcome.hpp"

#include <boost/json/monotonic_resource.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <array>
#include <exception>
#include <string>

namespace lcg::mcp {

namespace {

namespace json = boost::json;

constexpr std::string_view version_key = "io.modelcontextprotocol/protocolVersion";
constexpr std::string_view capabilities_key = "io.modelcontextprotocol/clientCapabilities";
constexpr std::string_view server_info_key = "io.modelcontextprotocol/serverInfo";
constexpr std::string_view latest_legacy = legacy_versions[0];

constexpr std::array<std::string_view, 8> log_levels{"debug", "info",     "notice", "warning",
                                                     "error", "critical", "alert",  "emergency"};

constexpr char const* instructions =
    "LowCostGPU publishes a weekly GPU price sheet: per-GPU hourly rates (on-demand at most 70 % of the public "
    "market median, spot 50 % and reserved 65 % of on-demand), the GPU catalog and a bilingual glossary. Every "
    "figure comes from the tools, computed exactly by the server: quote them as given and never compute prices "
    "yourself. Start with get_prices, find_cheapest, size_model or estimate_job_cost; explain_term explains the "
    "vocabulary in English or French.";

bool is_known(std::string_view v)
{
    return std::find(supported_versions.begin(), supported_versions.end(), v) != supported_versions.end();
}

bool is_legacy(std::string_view v)
{
    return std::find(legacy_versions.begin(), legacy_versions.end(), v) != legacy_versions.end();
}

// What can go wrong before a method runs, or in it: a JSON-RPC error plus the HTTP status to send.
struct rejection {
    failure error;
    int http_status = 200;
};

int status_of(error_code code, bool modern)
{
    switch (code) {
    case error_code::parse_error:
    case error_code::invalid_request:
    case error_code::header_mismatch:
    case error_code::unsupported_protocol_version:
        return 400;
    case error_code::method_not_found:
        return modern ? 404 : 200;
    case error_code::internal_error:
        return 500;
    case error_code::invalid_params:
    case error_code::resource_not_found:
        return 200;
    }
    return 500;
}

std::string error_body(json::value const& id, failure const& f)
{
    json::object error{{"code", static_cast<int>(f.code)}, {"message", f.message}};
    if (!f.data.is_null())
        error["data"] = f.data;
    return json::serialize(json::object{{"jsonrpc", "2.0"}, {"id", id}, {"error", std::move(error)}});
}

reply error_reply(json::value const& id, failure const& f, bool modern)
{
    return {status_of(f.code, modern), error_body(id, f)};
}

std::string result_body(json::value const& id, std::string_view result)
{
    std::string out = R"({"jsonrpc":"2.0","id":)";
    out += json::serialize(id);
    out += R"(,"result":)";
    out += result;
    out += '}';
    return out;
}

std::string limited(std::string_view text) { return std::string(text.substr(0, 64)); }

unsigned base64_value(char c)
{
    if (c >= 'A' && c <= 'Z')
        return static_cast<unsigned>(c - 'A');
    if (c >= 'a' && c <= 'z')
        return static_cast<unsigned>(c - 'a' + 26);
    if (c >= '0' && c <= '9')
        return static_cast<unsigned>(c - '0' + 52);
    if (c == '+')
        return 62;
    if (c == '/')
        return 63;
    return 64;
}

// The request as the dispatcher sees it once the envelope is valid.
struct request {
    json::value const& id;
    std::string_view method;
    json::object const* params;  // null when absent
    bool modern;
    std::string_view legacy_version;  // the version a legacy request is served in
};

}

std::optional<std::string> decode_header_value(std::string_view value)
{
    constexpr std::string_view prefix = "=?base64?", suffix = "?=";
    if (value.size() < prefix.size() + suffix.size() || !value.starts_with(prefix) || !value.ends_with(suffix))
        return std::string(value);
    auto const encoded = value.substr(prefix.size(), value.size() - prefix.size() - suffix.size());
    std::string out;
    unsigned buffer = 0;
    int bits = 0;
    std::size_t i = 0;
    for (; i < encoded.size() && encoded[i] != '='; ++i) {
        unsigned const v = base64_value(encoded[i]);
        if (v == 64)
            return std::nullopt;
        buffer = (buffer << 6) | v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out += static_cast<char>((buffer >> bits) & 0xff);
        }
    }
    for (; i < encoded.size(); ++i)
        if (encoded[i] != '=')
            return std::nullopt;
    if (encoded.size() % 4 != 0)
        return std::nullopt;
    return out;
}

json::object server_capabilities(bool modern)
{
    json::object c{{"tools", {{"listChanged", false}}},
                   {"resources", {{"subscribe", false}, {"listChanged", false}}},
                   {"prompts", {{"listChanged", false}}},
                   {"completions", json::object{}}};
    if (!modern)
        c["logging"] = json::object{};
    return c;
}

struct server::impl {
    std::shared_ptr<const data_view> data;
    implementation info;
    json::object server_info;
    // Answers that depend only on the data, serialized once: the tool list and the default prices
    // (the most common call), in each era.
    std::string tools_legacy, tools_modern;
    std::string prices_legacy, prices_modern;

    impl(std::shared_ptr<const data_view> d, implementation i) : data(std::move(d)), info(std::move(i))
    {
        server_info = {{"name", info.name}, {"title", info.title}, {"version", info.version}};
        json::object tools{{"tools", tool_definitions()}};
        tools_legacy = json::serialize(tools);
        tools_modern = json::serialize(decorate(std::move(tools), true));
        json::object result = *call_tool("get_prices", nullptr, *data);
        prices_legacy = json::serialize(result);
        prices_modern = json::serialize(decorate(std::move(result), false));
    }

    // A modern result carries resultType and serverInfo; lists and reads also say how long to cache.
    json::object decorate(json::object result, bool cacheable) const
    {
        result["resultType"] = "complete";
        if (cacheable) {
            result["ttlMs"] = cache_ttl_ms;
            result["cacheScope"] = "public";
        }
        result["_meta"] = json::object{{server_info_key, server_info}};
        return result;
    }


    reply answer(request const& r, json::object result, bool cacheable) const
    {
        if (r.modern)
            result = decorate(std::move(result), cacheable);
        return {200, result_body(r.id, json::serialize(result))};
    }

    reply fail(request const& r, failure f) const { return error_reply(r.id, f, r.modern); }

    reply handle(std::string_view message, message_context const& context, json::value& id_out) const;
    std::optional<rejection> check_version(std::string_view method, json::object const* params,
                                           message_context const& context, bool& modern,
                                           std::string_view& legacy_version) const;
    reply run(request const& r) const;
    reply call_tool_method(request const& r) const;
};

std::optional<rejection> server::impl::check_version(std::string_view method, json::object const* params,
                                                     message_context const& context, bool& modern,
                                                     std::string_view& legacy_version) const
{
    bool const http = context.via == transport::http;
    auto unsupported = [](std::string_view requested) {
        json::array supported;
        for (auto v : supported_versions)
            supported.emplace_back(v);
        return rejection{{error_code::unsupported_protocol_version,
                          "unsupported protocol version " + pricing::quote(limited(requested)),
                          json::object{{"requested", requested.substr(0, 64)}, {"supported", std::move(supported)}}},
                         400};
    };
    auto mismatch = [](std::string message) {
        return rejection{{error_code::header_mismatch, std::move(message)}, 400};
    };

    json::object const* meta = nullptr;
    if (auto const* m = params ? params->if_contains("_meta") : nullptr) {
        if (!m->is_object())
            return rejection{invalid_params("params._meta must be an object"), 200};
        meta = &m->get_object();
    }
    std::optional<std::string_view> body_version;
    if (meta) {
        if (auto const* v = meta->if_contains(version_key)) {
            if (!v->is_string())
                return rejection{invalid_params("_meta " + std::string(version_key) + " must be a string"), 200};
            body_version = v->get_string();
        }
    }
    auto const header = http ? context.protocol_version_header : std::nullopt;
    if (header && !is_known(*header))
        return unsupported(*header);
    if (body_version && !is_known(*body_version))
        return unsupported(*body_version);
    if (header && body_version && *header != *body_version)
        return mismatch("header mismatch: MCP-Protocol-Version " + pricing::quote(limited(*header)) +
                        " does not match params._meta " + std::string(version_key) + " " +
                        pricing::quote(limited(*body_version)));
    modern = (body_version && *body_version == modern_version) || (header && *header == modern_version);
    if (!modern) {
        legacy_version = header ? *header : (body_version ? *body_version : legacy_versions.back());
        return std::nullopt;
    }
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
        return rejection{invalid_params("modern requests carry params._meta " + std::string(version_key)), 200};
    auto const* caps = meta->if_contains(capabilities_key);
    if (!caps || !caps->is_object())
        return rejection{invalid_params("params._meta " + std::string(capabilities_key) + " is required (an object)"),
                         200};
    return std::nullopt;
}

reply server::impl::handle(std::string_view message, message_context const& context, json::value& id_out) const
{
    json::value const null_id = nullptr;
    if (message.size() > max_message_bytes)
        return {413, error_body(null_id, {error_code::invalid_request, "the message is larger than 1 MiB"})};

    // The message and everything parsed from it live in this buffer (and, past it, in blocks from the
    // heap bounded by the message size); the parser stops at the nesting limit.
    unsigned char buffer[8192];
    json::monotonic_resource resource(buffer, sizeof buffer);
    json::parse_options options;
    options.max_depth = max_nesting_depth;
    boost::system::error_code ec;
    json::value const parsed = json::parse(message, ec, &resource, options);
    if (ec == json::error::too_deep)
        return {400, error_body(null_id, {error_code::invalid_request, "the message nests deeper than 64 levels"})};
    if (ec)
        return {400, error_body(null_id, {error_code::parse_error, "parse error: the message is not valid JSON"})};
    if (parsed.is_array())
        return {400, error_body(null_id, {error_code::invalid_request, "batches (JSON arrays) are not supported"})};
    if (!parsed.is_object())
        return {400, error_body(null_id, {error_code::invalid_request, "a message is a JSON object"})};
    auto const& object = parsed.get_object();

    // The id first, so that every later error can echo it.
    auto const* id = object.if_contains("id");
    if (id) {
        if (!id->is_string() && !id->is_int64() && !id->is_uint64())
            return {400, error_body(null_id, {error_code::invalid_request,
                                              "invalid request: id must be a string or an integer (a notification "
                                              "has no id)"})};
        id_out = json::value(*id, json::storage_ptr());
    }
    json::value const& rid = id ? id_out : null_id;
    auto invalid = [&](std::string why) {
        return reply{400, error_body(rid, {error_code::invalid_request, std::move(why)})};
    };
    auto const* jsonrpc = object.if_contains("jsonrpc");
    if (!jsonrpc || !jsonrpc->is_string() || jsonrpc->get_string() != "2.0")
        return invalid("invalid request: jsonrpc must be \"2.0\"");
    auto const* method_value = object.if_contains("method");
    if (!method_value || !method_value->is_string()) {
        if (object.contains("result") || object.contains("error"))
            return invalid("invalid request: this server sends no requests, so it takes no responses");
        return invalid("invalid request: method must be a string");
    }
    std::string_view const method = method_value->get_string();
    json::object const* params = nullptr;
    if (auto const* p = object.if_contains("params")) {
        if (p->is_array())
            return {200, error_body(rid, invalid_params("params must be an object"))};
        if (!p->is_object())
            return invalid("invalid request: params must be an object");
        params = &p->get_object();
    }

    if (!id)
        return {202, {}};  // a notification: accepted, never answered
    if (method.starts_with("notifications/"))
        return invalid("invalid request: " + limited(method) + " is a notification and takes no id");

    bool modern = false;
    std::string_view legacy_version;
    if (auto const rejected = check_version(method, params, context, modern, legacy_version))
        return {rejected->http_status, error_body(rid, rejected->error)};
    return run({rid, method, params, modern, legacy_version});
}

reply server::impl::call_tool_method(request const& r) const
{
    auto const* name = r.params ? r.params->if_contains("name") : nullptr;
    if (!name || !name->is_string())
        return fail(r, invalid_params("tools/call needs params.name, the name of a tool (tools/list names them)"));
    json::object const* arguments = nullptr;
    if (auto const* a = r.params->if_contains("arguments"); a && !a->is_null()) {
        if (!a->is_object())
            return fail(r, invalid_params("tools/call params.arguments must be an object"));
        arguments = &a->get_object();
    }
    std::string_view const tool = name->get_string();
    if (tool == "get_prices" && (!arguments || arguments->empty()))
        return {200, result_body(r.id, r.modern ? prices_modern : prices_legacy)};
    auto result = call_tool(tool, arguments, *data);
    if (!result)
        return fail(r, invalid_params("unknown tool " + pricing::quote(limited(tool)) + "; tools/list names them"));
    return answer(r, std::move(*result), false);
}

reply server::impl::run(request const& r) const
{
    auto const& m = r.method;
    auto no_cursor = [&]() -> std::optional<reply> {
        if (r.params && r.params->contains("cursor") && !r.params->at("cursor").is_null())
            return fail(r, invalid_params("unknown cursor: every list fits in one page"));
        return std::nullopt;
    };
    auto string_param = [&](std::string_view key) -> std::optional<std::string_view> {
        auto const* v = r.params ? r.params->if_contains(key) : nullptr;
        if (!v || !v->is_string())
            return std::nullopt;
        return std::string_view(v->get_string());
    };

    if (m == "tools/list") {
        if (auto bad = no_cursor())
            return std::move(*bad);
        return {200, result_body(r.id, r.modern ? tools_modern : tools_legacy)};
    }
    if (m == "tools/call")
        return call_tool_method(r);
    if (m == "resources/list") {
        if (auto bad = no_cursor())
            return std::move(*bad);
        return answer(r, {{"resources", resource_list()}}, true);
    }
    if (m == "resources/templates/list") {
        if (auto bad = no_cursor())
            return std::move(*bad);
        return answer(r, {{"resourceTemplates", resource_templates()}}, true);
    }
    if (m == "resources/read") {
        auto const uri = string_param("uri");
        if (!uri)
            return fail(r, invalid_params("resources/read needs params.uri, a lowcostgpu:// URI"));
        auto contents = read_resource(*uri, *data, r.modern);
        if (auto const* f = std::get_if<failure>(&contents))
            return fail(r, *f);
        return answer(r, {{"contents", std::move(std::get<0>(contents))}}, true);
    }
    if (m == "prompts/list") {
        if (auto bad = no_cursor())
            return std::move(*bad);
        return answer(r, {{"prompts", prompt_list()}}, true);
    }
    if (m == "prompts/get") {
        auto const name = string_param("name");
        if (!name)
            return fail(r, invalid_params("prompts/get needs params.name, the name of a prompt"));
        json::object const* arguments = nullptr;
        if (auto const* a = r.params->if_contains("arguments"); a && !a->is_null()) {
            if (!a->is_object())
                return fail(r, invalid_params("prompts/get params.arguments must be an object of strings"));
            arguments = &a->get_object();
        }
        auto result = get_prompt(*name, arguments, *data);
        if (auto const* f = std::get_if<failure>(&result))
            return fail(r, *f);
        return answer(r, std::move(std::get<0>(result)), false);
    }
    if (m == "completion/complete") {
        if (!r.params)
            return fail(r, invalid_params("completion/complete needs params.ref and params.argument"));
        auto result = complete(*r.params, *data);
        if (auto const* f = std::get_if<failure>(&result))
            return fail(r, *f);
        return answer(r, {{"completion", std::move(std::get<0>(result))}}, false);
    }
    if (m == "server/discover") {
        json::array versions;
        for (auto v : supported_versions)
            versions.emplace_back(v);
        json::object result{{"supportedVersions", std::move(versions)},
                            {"capabilities", server_capabilities(true)},
                            {"instructions", instructions}};
        result = decorate(std::move(result), true);
        return {200, result_body(r.id, json::serialize(result))};
    }
    if (!r.modern) {
        if (m == "initialize") {
            auto const version = string_param("protocolVersion");
            if (!version)
                return fail(r, invalid_params("initialize needs params.protocolVersion (a string)"));
            auto const* caps = r.params->if_contains("capabilities");
            auto const* client = r.params->if_contains("clientInfo");
            if (!caps || !caps->is_object() || !client || !client->is_object())
                return fail(r, invalid_params("initialize needs params.capabilities and params.clientInfo (objects)"));
            std::string_view const chosen = is_legacy(*version) ? *version : latest_legacy;
            return answer(r,
                          {{"protocolVersion", chosen},
                           {"capabilities", server_capabilities(false)},
                           {"serverInfo", server_info},
                           {"instructions", instructions}},
                          false);
        }
        if (m == "ping")
            return answer(r, {}, false);
        if (m == "logging/setLevel") {
            auto const level = string_param("level");
            if (!level || std::find(log_levels.begin(), log_levels.end(), *level) == log_levels.end())
                return fail(r, invalid_params("logging/setLevel needs params.level: debug, info, notice, warning, "
                                              "error, critical, alert or emergency"));
            // Stateless: every message is answered on its own and this server sends no log messages.
            return answer(r, {}, false);
        }
    }
    return fail(r, {error_code::method_not_found, "method not found: " + pricing::quote(limited(m))});
}

server::server(std::shared_ptr<const data_view> data, implementation info)
    : impl_(std::make_unique<impl>(std::move(data), std::move(info)))
{
}

server::~server() = default;

data_view const& server::data() const { return *impl_->data; }

reply server::handle(std::string_view message, message_context const& context) const
{
    json::value id = nullptr;
    try {
        return impl_->handle(message, context, id);
    } catch (std::exception const&) {
        return error_reply(id, {error_code::internal_error, "internal error: the server failed to answer"}, false);
    }
}

}
