// The operations' part of the OpenAPI description, generated from the registry: the same parameter
// names, types and bounds as the MCP input schemas, and the same document schemas as the output
// schemas, so the two descriptions cannot drift apart.
#include "api/openapi.hpp"

#include <boost/json/serialize.hpp>
#include <boost/json/parse.hpp>

#include <cctype>
#include <string>

namespace lcg::api {

namespace {

namespace json = boost::json;

// "instance_check" → "InstanceCheck": the component name of a document schema.
std::string component_name(std::string_view schema)
{
    std::string out;
    bool upper = true;
    for (char c : schema) {
        if (c == '_') {
            upper = true;
            continue;
        }
        out += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
        upper = false;
    }
    return out;
}

// The output schema as a component: its local references ("#/$defs/x") point into the component.
json::value component_schema(operation const& op)
{
    std::string text = json::serialize(output_schema(op));
    std::string const from = "\"#/$defs/", to = "\"#/components/schemas/" + component_name(op.output_schema) + "/$defs/";
    for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
    return json::parse(text);
}

json::array parameters(operation const& op)
{
    auto const inputs = input_schema(op).at("properties").as_object();
    json::array out;
    for (auto const& p : op.parameters) {
        bool const in_path = op.route.find("{" + std::string(p.name) + "}") != std::string_view::npos;
        json::object schema = inputs.at(p.name).as_object();
        auto description = schema.at("description");
        schema.erase("description");
        json::object param{{"name", p.name},
                           {"in", in_path ? "path" : "query"},
                           {"description", std::move(description)},
                           {"required", in_path || p.required},
                           {"schema", std::move(schema)}};
        if (p.type == value_type::string_list) {  // "a,b,c" over HTTP
            param["style"] = "form";
            param["explode"] = false;
        }
        out.push_back(std::move(param));
    }
    return out;
}

}

void describe_operations(json::object& spec)
{
    auto& paths = spec["paths"].as_object();
    auto& schemas = spec["components"].as_object()["schemas"].as_object();
    for (auto const& op : operations()) {
        auto& get = paths[op.route].as_object()["get"].as_object();
        get["operationId"] = op.tool;
        get["summary"] = op.title;
        get["description"] = std::string(op.description) +
                             " The same operation is the MCP tool `" + std::string(op.tool) +
                             "`, whose structuredContent is this JSON document.";
        if (!op.parameters.empty())
            get["parameters"] = parameters(op);
        // Every operation refuses a parameter it does not take, with or without parameters of its own.
        auto& responses = get["responses"].as_object();
        if (!responses.contains("400"))
            responses["400"] = json::object{{"$ref", "#/components/responses/BadRequest"}};
        schemas[component_name(op.output_schema)] = component_schema(op);
    }
}

}
