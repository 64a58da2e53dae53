#include "mcp/dispatch.hpp"

#include "mcp/lifecycle.hpp"
#include "mcp/prompts.hpp"
#include "mcp/resources.hpp"
#include "mcp/tool_calls.hpp"

#include "pricing/outcome.hpp"

#include <boost/json/serialize.hpp>

#include <algorithm>
#include <iterator>
#include <optional>
#include <string>
#include <variant>

namespace lcg::mcp {

namespace {

namespace json = boost::json;

constexpr std::string_view server_info_key = "io.modelcontextprotocol/serverInfo";

// Every list fits in one page, so a list takes no cursor.
std::optional<reply> no_cursor(request const& r)
{
    if (r.params && r.params->contains("cursor") && !r.params->at("cursor").is_null())
        return fail(r, invalid_params("unknown cursor: every list fits in one page"));
    return std::nullopt;
}

// A list that fits in one page, as {"KEY": items}.
reply whole_list(server_state const& s, request const& r, std::string_view key, json::array const& items)
{
    if (auto bad = no_cursor(r))
        return std::move(*bad);
    return answer(s, r, {{key, items}}, true);
}

reply tools_list(server_state const& s, request const& r)
{
    if (auto bad = no_cursor(r))
        return std::move(*bad);
    return answer_lasting(r, r.modern ? s.tools_modern : s.tools_legacy);
}

reply tools_call(server_state const& s, request const& r)
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
    if (tool == "get_prices" && (!arguments || arguments->empty())) {
        auto prices = answer_lasting(r, r.modern ? s.prices_modern : s.prices_legacy);
        prices.tool_calls.push_back({"get_prices", "ok"});
        return prices;
    }
    auto result = call_tool(tool, arguments, *s.data, s.published);
    if (!result) {
        auto refused = fail(r, invalid_params("unknown tool " + pricing::quote(limited(tool)) + "; tools/list names them"));
        refused.tool_calls.push_back({"(unknown)", "rpc_error"});
        return refused;
    }
    auto answered = answer_text(s, r, std::move(result->json), false);
    answered.tool_calls.push_back({std::string(tool), result->is_error ? "tool_error" : "ok"});
    return answered;
}

reply resources_list(server_state const& s, request const& r)
{
    auto const* cursor = r.params ? r.params->if_contains("cursor") : nullptr;
    if (cursor && !cursor->is_null() && !cursor->is_string())
        return fail(r, invalid_params("resources/list params.cursor must be a string, a previous page's nextCursor"));
    auto page = resources_page(*s.data, cursor && cursor->is_string() ? std::optional<std::string_view>(cursor->get_string())
                                                                      : std::nullopt);
    if (!page)
        return fail(r, page.err());
    return answer(s, r, page.value(), true);
}

reply resources_templates_list(server_state const& s, request const& r)
{
    return whole_list(s, r, "resourceTemplates", resource_templates());
}

reply resources_read(server_state const& s, request const& r)
{
    auto const uri = string_param(r, "uri");
    if (!uri)
        return fail(r, invalid_params("resources/read needs params.uri, a lowcostgpu:// URI"));
    auto contents = read_resource(*uri, *s.data, r.modern);
    if (!contents)
        return fail(r, contents.err());
    return answer(s, r, {{"contents", std::move(contents.value())}}, true);
}

// resources/subscribe and resources/unsubscribe. Subscriptions live in the stdio session
// (mcp/stdio.cpp), which sends the updates; here a URI is checked, so a subscription names
// something that can be read.
reply resources_subscription(server_state const& s, request const& r)
{
    auto const uri = string_param(r, "uri");
    if (!uri)
        return fail(r, invalid_params(std::string(r.method) + " needs params.uri, a lowcostgpu:// URI"));
    bool const subscribe = r.method == "resources/subscribe";
    if (subscribe)
        if (auto contents = read_resource(*uri, *s.data, r.modern); !contents)
            return fail(r, contents.err());
    // Leaving a resource that no longer resolves (a model dropped from the catalog) goes by its
    // spelling, which is the key it was kept under if it was canonical then.
    auto canonical = canonical_uri(*uri, *s.data).value_or(std::string(*uri));
    auto done = answer(s, r, {}, false);
    done.subscriptions.push_back({std::move(canonical), std::string(*uri), subscribe});
    return done;
}

reply prompts_list(server_state const& s, request const& r) { return whole_list(s, r, "prompts", prompt_list()); }

reply prompts_get(server_state const& s, request const& r)
{
    auto const name = string_param(r, "name");
    if (!name)
        return fail(r, invalid_params("prompts/get needs params.name, the name of a prompt"));
    json::object const* arguments = nullptr;
    if (auto const* a = r.params->if_contains("arguments"); a && !a->is_null()) {
        if (!a->is_object())
            return fail(r, invalid_params("prompts/get params.arguments must be an object of strings"));
        arguments = &a->get_object();
    }
    auto result = get_prompt(*name, arguments, *s.data);
    if (!result)
        return fail(r, result.err());
    return answer(s, r, result.value(), false);
}

reply completion_complete(server_state const& s, request const& r)
{
    if (!r.params)
        return fail(r, invalid_params("completion/complete needs params.ref and params.argument"));
    auto result = complete(*r.params, *s.data);
    if (!result)
        return fail(r, result.err());
    return answer(s, r, {{"completion", std::move(result.value())}}, false);
}

// The eras a method is served in: both, or the legacy revisions alone (their lifecycle methods,
// which 2026-07-28 replaced with server/discover and a version in every request, and their
// subscriptions, which it replaced with subscriptions/listen).
enum class eras { both, legacy };

struct method_row {
    std::string_view method;
    eras served_in;
    reply (*handler)(server_state const&, request const&);
    bool stdio_only = false;  // a subscription needs a session, and only stdio is one
};

constexpr method_row methods[] = {
    {"tools/list", eras::both, tools_list},
    {"tools/call", eras::both, tools_call},
    {"resources/list", eras::both, resources_list},
    {"resources/templates/list", eras::both, resources_templates_list},
    {"resources/read", eras::both, resources_read},
    {"resources/subscribe", eras::legacy, resources_subscription, true},
    {"resources/unsubscribe", eras::legacy, resources_subscription, true},
    {"prompts/list", eras::both, prompts_list},
    {"prompts/get", eras::both, prompts_get},
    {"completion/complete", eras::both, completion_complete},
    {"server/discover", eras::both, server_discover},
    {"initialize", eras::legacy, initialize},
    {"ping", eras::legacy, ping},
    {"logging/setLevel", eras::legacy, logging_set_level},
};

}

server_state::server_state(std::shared_ptr<const data_view> d, implementation const& info)
    : data(std::move(d)),
      server_info(json::object{{"name", info.name}, {"title", info.title}, {"version", info.version}})
{
    auto const members = [&](bool cacheable) {
        json::object added{{"resultType", "complete"}};
        if (cacheable) {
            added["ttlMs"] = cache_ttl_ms;
            added["cacheScope"] = "public";
        }
        added["_meta"] = json::object{{server_info_key, server_info}};
        auto text = json::serialize(added);
        return text.substr(1, text.size() - 2);  // without the braces
    };
    decoration_ = members(false);
    cacheable_decoration_ = members(true);
    tools_legacy = json::serialize(json::object{{"tools", tool_definitions()}});
    tools_modern = decorated(tools_legacy, true) + '}';
    tools_legacy += '}';
    // Kept here, not among the published results too: the fast path of tools_call answers it.
    published_results not_kept;
    prices_legacy = call_tool("get_prices", nullptr, *data, not_kept)->json;
    prices_modern = decorated(prices_legacy, false) + '}';
    prices_legacy += '}';
}

std::string server_state::decorated(std::string result, bool cacheable) const
{
    result.pop_back();  // the closing brace
    if (result.size() > 1)
        result += ',';
    result += cacheable ? cacheable_decoration_ : decoration_;
    result += '}';
    return result;
}

reply answer(server_state const& state, request const& r, json::object const& result, bool cacheable)
{
    return answer_text(state, r, json::serialize(result), cacheable);
}

reply answer_text(server_state const& state, request const& r, std::string result, bool cacheable)
{
    if (r.modern)
        return answer_serialized(r, state.decorated(std::move(result), cacheable));
    return answer_serialized(r, result);
}

namespace {

// A reply's text up to its result, with room for `more` bytes after.
std::string opening_of(request const& r, std::size_t more)
{
    constexpr std::string_view opening = R"({"jsonrpc":"2.0","id":)", before_result = R"(,"result":)";
    auto const id = json::serialize(r.id);
    std::string body;
    // Sized once: a result runs to tens of KiB (get_prices), and each time the text grew it would
    // be copied whole again.
    body.reserve(opening.size() + id.size() + before_result.size() + more);
    body += opening;
    body += id;
    body += before_result;
    return body;
}

}

reply answer_serialized(request const& r, std::string_view result)
{
    auto body = opening_of(r, result.size() + 1);
    body += result;
    body += '}';
    return {std::move(body), std::nullopt, r.modern};
}

reply answer_lasting(request const& r, std::string const& result_and_brace)
{
    reply answered{opening_of(r, 0), std::nullopt, r.modern};
    answered.lasting_end = result_and_brace;
    return answered;
}

std::optional<std::string_view> string_param(request const& r, std::string_view key)
{
    auto const* v = r.params ? r.params->if_contains(key) : nullptr;
    if (!v || !v->is_string())
        return std::nullopt;
    return std::string_view(v->get_string());
}

reply fail(request const& r, failure f) { return {error_response(r.id, f), f.code, r.modern}; }

reply dispatch(server_state const& state, request const& r)
{
    auto const row = std::find_if(std::begin(methods), std::end(methods),
                                  [&](method_row const& m) { return m.method == r.method; });
    if (row != std::end(methods) && (row->served_in == eras::both || !r.modern) &&
        (!row->stdio_only || r.via == transport::stdio))
        return row->handler(state, r);
    return fail(r, {error_code::method_not_found, "method not found: " + pricing::quote(limited(r.method))});
}

}
