#pragma once

#include "api/data_view.hpp"

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include <optional>
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

// The tools/call result of the tool `name` with `arguments` (null: none): the operation's document
// as structuredContent and, as it was serialized, as the text block (many clients show the model
// only the text); or isError with the message saying what to fix. Nothing when no tool has that name.
std::optional<tool_result> call_tool(std::string_view name, boost::json::object const* arguments,
                                     api::data_view const& data);

}
