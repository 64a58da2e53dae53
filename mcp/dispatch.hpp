#pragma once

#include "mcp/server.hpp"
#include "mcp/tool_calls.hpp"

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <memory>
#include <optional>
#include <string>
#include <string_view>

// The methods of the MCP core: one table of {method, eras, handler} rows (mcp/dispatch.cpp) that
// every request whose envelope and era are settled goes through, and what their handlers share.
namespace lcg::mcp {

// What the methods answer from: one data view, and what is rendered of it once per server.
struct server_state {
    server_state(std::shared_ptr<const data_view> data, implementation const& info);

    std::shared_ptr<const data_view> data;
    boost::json::object server_info;
    // Answers that depend only on the data, serialized once: the tool list and the default prices
    // (the most common call), in each era, each followed by the closing brace of the reply that
    // carries it, so that every such reply ends with these very bytes (answer_lasting).
    std::string tools_legacy, tools_modern;
    std::string prices_legacy, prices_modern;
    // Every other result made of a published document, written once, on its first call.
    mutable published_results published;

    // A modern result carries resultType and serverInfo; lists and reads also say how long to cache.
    // `result` is a serialized JSON object; the members are written in before its closing brace.
    std::string decorated(std::string result, bool cacheable) const;

private:
    // The members decorated() adds, serialized once: without and with the cache's.
    std::string decoration_, cacheable_decoration_;
};

// A request as the methods see it: its envelope is valid and its era settled (mcp/lifecycle.hpp).
struct request {
    boost::json::value const& id;
    std::string_view method;
    boost::json::object const* params;  // null when absent
    bool modern;
    transport via;
};

// The result of `r`, decorated in the modern era.
reply answer(server_state const& state, request const& r, boost::json::object const& result, bool cacheable);
// The same, for a result already serialized (a JSON object).
reply answer_text(server_state const& state, request const& r, std::string result, bool cacheable);
// The result of `r`, already serialized, as it stands.
reply answer_serialized(request const& r, std::string_view result);
// The same, for a result the server keeps with the reply's closing brace after it (server_state):
// the reply ends with those very bytes, not copied (reply::lasting_end).
reply answer_lasting(request const& r, std::string const& result_and_brace);
// The error that answers `r`.
reply fail(request const& r, failure f);

// The string params.KEY of `r`, if it has one.
std::optional<std::string_view> string_param(request const& r, std::string_view key);

// Runs the method `r` names, or answers -32601 when it has none in this era and transport.
reply dispatch(server_state const& state, request const& r);

}
