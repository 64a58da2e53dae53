// The operations' part of the OpenAPI description, generated from the registry: the same parameter
// names, types and bounds as the MCP input schemas, and the same document schemas as the output
// schemas, so the two descriptions cannot drift apart.
#include "api/openapi.hpp"

#include <cctype>
#include <map>
#include <set>
#include <stdexcept>
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

// "#/$defs/NAME" → "#/components/schemas/COMPONENT", in every $ref of a schema, at any depth.
void point_refs(json::value& v, std::map<std::string, std::string, std::less<>> const& components)
{
    if (auto* o = v.if_object()) {
        if (auto* ref = o->if_contains("$ref"); ref && ref->is_string()) {
            std::string_view const target = ref->get_string();
            if (target.starts_with("#/$defs/")) {
                auto const it = components.find(target.substr(8));
                if (it == components.end())
                    throw std::logic_error("an output schema refers to an undefined " + std::string(target));
                *ref = "#/components/schemas/" + it->second;
            }
        }
        for (auto& [key, sub] : *o)
            point_refs(sub, components);
    } else if (auto* a = v.if_array()) {
        for (auto& sub : *a)
            point_refs(sub, components);
    }
}

// The output schemas' $defs become components of their own, and their references point there:
// generators resolve "#/components/schemas/X" but not always a $defs nested in a component
// (@hey-api/openapi-ts fails on them). A definition keeps its name in CamelCase ("source_price" →
// "SourcePrice"), shared by every document that has it, as the files define a name once (the same
// schema in each); where that name is taken by another schema (a component of
// server/http/openapi.json, or a document), it gets the name of the first document that has it
// before its own ("gpu" of the catalog → "CatalogGpu").
void hoist_definitions(json::object& schemas)
{
    struct definition {
        json::value schema;
        std::string owner;
    };
    std::map<std::string, definition, std::less<>> definitions;
    std::set<std::string, std::less<>> documents;
    for (auto const& op : operations()) {
        auto const owner = component_name(op.output_schema);
        documents.insert(owner);
        if (auto const* defs = output_schema(op).if_contains("$defs"))
            for (auto const& [name, schema] : defs->as_object()) {
                auto const [it, added] = definitions.try_emplace(std::string(name), definition{schema, owner});
                if (!added && it->second.schema != schema)
                    throw std::logic_error("two output schemas define $defs/" + std::string(name) + " differently");
            }
    }
    auto const taken = [&](std::string const& component, json::value const& schema) {
        auto const* there = schemas.if_contains(component);
        return documents.contains(component) || (there && *there != schema);
    };
    std::map<std::string, std::string, std::less<>> components;
    for (auto const& [name, def] : definitions) {
        std::string component = component_name(name);
        if (taken(component, def.schema))
            component = def.owner + component;
        if (taken(component, def.schema))
            throw std::logic_error("no free component name for $defs/" + name);
        components.emplace(name, std::move(component));
    }
    for (auto const& [name, def] : definitions) {
        json::value schema = def.schema;
        point_refs(schema, components);
        schemas[components.find(name)->second] = std::move(schema);
    }
    for (auto const& op : operations()) {
        json::value schema = output_schema(op);
        schema.as_object().erase("$defs");
        point_refs(schema, components);
        schemas[component_name(op.output_schema)] = std::move(schema);
    }
}

json::array parameters(operation const& op)
{
    auto const inputs = input_schema(op).at("properties").as_object();
    json::array out;
    for (auto const& p : op.parameters()) {
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
    for (auto const& op : operations()) {
        auto& get = paths[op.route].as_object()["get"].as_object();
        get["operationId"] = op.tool;
        get["summary"] = op.title;
        get["description"] = std::string(op.description) +
                             " The same operation is the MCP tool `" + std::string(op.tool) +
                             "`, whose structuredContent is this JSON document.";
        if (!op.parameters().empty())
            get["parameters"] = parameters(op);
        // Every operation refuses a parameter it does not take, with or without parameters of its own.
        auto& responses = get["responses"].as_object();
        if (!responses.contains("400"))
            responses["400"] = json::object{{"$ref", "#/components/responses/BadRequest"}};
    }
    hoist_definitions(spec["components"].as_object()["schemas"].as_object());
}

}
