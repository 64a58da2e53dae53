#pragma once

#include "api/data_view.hpp"

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include <memory>
#include <optional>
#include <shared_mutex>
#include <unordered_map>
#include <string>
#include <string_view>

// The tools are the api/ operations: the list tools/list answers and the result of tools/call.
namespace lcg::mcp {

// Every operation as a tool (name, title, description, inputSchema, outputSchema, annotations), in
// registry order.
boost::json::array const& tool_definitions();

// A tools/call result, serialized (a JSON object), and whether it is an error.
struct tool_result {
    std::string json;
    bool is_error = false;
};

// The results of the calls answered with a published document, each written once: a view's
// documents never change, so neither do they. Keyed by tool, document and language, all taken from
// the view (a catalog id, a glossary slug, a tier), never from the client's spelling: the map holds
// at most one result per published document and language. Safe from many threads.
class published_results {
public:
    std::shared_ptr<const std::string> find(std::string const& key) const;
    // Keeps `result` under `key` unless another thread kept one first; gives the one kept.
    std::shared_ptr<const std::string> keep(std::string const& key, std::string result);

private:
    mutable std::shared_mutex mutex_;
    std::unordered_map<std::string, std::shared_ptr<const std::string>> results_;
};

// The tools/call result of the tool `name` with `arguments` (null: none): the operation's document
// as structuredContent and, as it was serialized, as the text block (many clients show the model
// only the text); or isError with the message saying what to fix. Nothing when no tool has that name.
// A result made of a published document is taken from `published`, or written there once.
std::optional<tool_result> call_tool(std::string_view name, boost::json::object const* arguments,
                                     api::data_view const& data, published_results& published);

}
