#pragma once

#include "mcp/data_view.hpp"

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include <optional>
#include <string>
#include <string_view>

// The tools: read-only, each with an input and an output schema, computed by the same pricing/ and
// glossary/ functions as the HTTP endpoints so that both give the same numbers.
namespace lcg::mcp {

// A tool's answer: structured content (which validates against the tool's outputSchema) and a short
// Markdown text; or, when is_error, only the text, which says what is wrong and what is accepted.
struct tool_result {
    boost::json::object structured;
    std::string text;
    bool is_error = false;
};

// The tool definitions, as tools/list lists them (name, title, description, inputSchema,
// outputSchema, annotations).
boost::json::array const& tool_definitions();

// Runs the tool `name` with `arguments` (null: none). Nothing when no tool has that name.
std::optional<tool_result> call_tool(std::string_view name, boost::json::object const* arguments,
                                     data_view const& data);

// The JSON-RPC result of tools/call for a tool result (content, structuredContent, isError).
boost::json::object tool_result_json(tool_result const& r);

}
