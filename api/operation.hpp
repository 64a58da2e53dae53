#pragma once

#include "api/arguments.hpp"
#include "api/data_view.hpp"
#include "api/decoder.hpp"
#include "api/failure.hpp"
#include "api/input.hpp"

#include "render/views.hpp"

#include "locale/language.hpp"
#include "pricing/outcome.hpp"

#include <boost/json/object.hpp>

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

// The operation registry: every question the service answers, written once. Each entry names its
// HTTP route and its MCP tool, declares its typed parameters, and points to the one function that
// answers it; both faces parse the same parameters, call that function and return the document it
// gives, so the tool's structuredContent is the HTTP JSON body.
namespace lcg::api {

// What an operation answers with: a document the snapshot pre-rendered (its path and query, served
// as stored in every format) or one computed for this request, as a JSON object or as JSON text
// already written (the estimate, whose speed matters). Exactly one of the three is set.
struct answer {
    std::string published_path;   // "/v1/prices"
    std::string published_query;  // "?lang=fr" or empty
    boost::json::object document;
    std::string json_text;
    std::optional<locale::language> lang;  // the language of the document, when it has one

    bool is_published() const { return !published_path.empty(); }
};

using result = pricing::outcome<answer, failure>;

// One call: the service's state, the arguments as given, and the language the client prefers
// (over HTTP, negotiated from its Accept-Language header; English otherwise), which answers when
// `lang` is not given. `lang` is the language call() settled on, before the operation runs.
struct request {
    data_view const& data;
    arguments& args;
    locale::language preferred_language = locale::language::en;
    locale::language lang = locale::language::en;
    // The parameters given in this call that the operation did not read (a refusal may come before
    // it reads them all; a test catches a parameter that is never read).
    std::vector<std::string_view> unread{};
};

// How an operation answers: its parameters (those of its input, then lang) and the function that
// decodes its input from the arguments and answers.
struct answering {
    std::span<const parameter> parameters;
    result (*run)(request& r);
};

// The decoder of both faces: each argument of `In` takes its value by its parameter's name, once
// its declaration's presence, type and bounds are checked (misfit, api/decoder.hpp), then `Answer`
// runs on the filled input.
template <class In, result (*Answer)(request&, In const&)>
result run_typed(request& r)
{
    In in;
    for (auto* a : in.arguments()) {
        auto value = r.args.take(a->spec().name);
        if (auto refusal = misfit(a->spec(), value))
            return *refusal;
        a->give(std::move(value));
    }
    auto out = Answer(r, in);
    for (auto const* a : in.arguments())
        if (a->unread())
            r.unread.push_back(a->spec().name);
    return out;
}

template <class In, result (*Answer)(request&, In const&)>
answering answered_by()
{
    return {parameters_of<In>(), &run_typed<In, Answer>};
}

struct operation {
    std::string_view tool;         // MCP tool name: "estimate_job_cost"
    std::string_view route;        // HTTP route: "/v1/estimate", "/v1/gpus/{gpu}" ({name}: a path parameter)
    std::string_view title;
    std::string_view description;  // for the tool list, the server card and OpenAPI
    answering answer;
    render::view const* view;      // how the document is written as Markdown, HTML, CSV: its formats
    std::string_view output_schema;  // name of the JSON Schema file in api/schemas/
    // A call that answers on the sample data, as a query string (path parameters included by name):
    // documentation, and the case the parity tests run through both faces.
    std::string_view example;
    // Its HTML page is a calculator: a form of its parameters above the result (api/calculator.hpp).
    bool calculator = false;

    std::span<const parameter> parameters() const { return answer.parameters; }
};

// Runs `op` the way both faces do: its `lang` argument (every operation takes one) or else the
// Accept-Language header settles the language, then the operation answers in it. The answer says
// its language; a published one names its document in that language. An unknown language is
// refused (400 naming en and fr).
result call(operation const& op, request& r);

// The language a `lang` value names, or the client's preferred one when there is none; refused
// (parameter "lang") when the value is neither en nor fr.
pricing::outcome<locale::language, failure> language_of(std::optional<std::string> const& text,
                                                      locale::language preferred);

// Every operation, in the order tools/list shows them.
std::span<const operation> operations();
operation const* find_tool(std::string_view name);

// The operation's example as name and value pairs, in order ("gpu=h100-sxm&hours=2" → two pairs).
std::vector<std::pair<std::string_view, std::string_view>> example_arguments(operation const& op);

// The operation's example as an HTTP request: the route with its {name} segments filled in, and
// the rest of the example as a query string ("?a=1&b=2", or empty).
struct example_request {
    std::string path;
    std::string query;
};
example_request example_target(operation const& op);

// The JSON Schema a tool's result validates against (outputSchema), by the operation's name for it.
boost::json::object const& output_schema(operation const& op);
// The members an item of the array `list` of the operation's document may hold that make a column
// of its compact form (`fields`): scalars and figures ({"value": …}), not objects or arrays, as its
// output schema states them, so that a name is accepted whatever rows a call selected.
std::vector<std::string> item_columns(operation const& op, std::string_view list);
// The inputSchema generated from the parameters: types, bounds, enums, required.
boost::json::object input_schema(operation const& op);

}
