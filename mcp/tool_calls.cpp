#include "mcp/tool_calls.hpp"

#include "api/operation.hpp"

#include "render/format.hpp"
#include "locale/words.hpp"

#include "pricing/rules.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

namespace lcg::mcp {

namespace {

namespace json = boost::json;

json::object error_result(std::string const& message)
{
    return {{"content", json::array{json::object{{"type", "text"}, {"text", message}}}}, {"isError", true}};
}

// The arguments that can make an operation's answer shorter: its optional ones but the language.
std::string narrowing_arguments(api::operation const& op)
{
    std::string filters;
    for (auto const& p : op.parameters())
        if (!p.required && p.name != "lang")
            filters += (filters.empty() ? "" : ", ") + std::string(p.name);
    return filters;
}

// A result past what an assistant reads comfortably (about 4,000 tokens) says so and how to ask for
// less, when the operation has a way (a document with no filter, the methodology, is what it is).
json::object document_result(json::object document, api::operation const& op, locale::language lang)
{
    std::string text = json::serialize(document);
    json::array content{json::object{{"type", "text"}, {"text", text}}};
    if (auto const filters = narrowing_arguments(op); text.size() > pricing::rules::assistant_result_bytes && !filters.empty())
        content.push_back(json::object{
            {"type", "text"},
            {"text", locale::say(lang, "mcp.large_result", {{"tokens", std::to_string(text.size() / pricing::rules::bytes_per_token)},
                                                            {"filters", filters}})}});
    return {{"content", std::move(content)}, {"structuredContent", std::move(document)}, {"isError", false}};
}

// The language a tool's refusal is written in: its `lang` argument when that names one, else
// English (MCP has no Accept-Language; a refused `lang` is itself refused in English).
locale::language asked_language(json::object const* arguments)
{
    if (!arguments)
        return locale::language::en;
    auto const* lang = arguments->if_contains("lang");
    if (!lang || !lang->is_string())
        return locale::language::en;
    return locale::parse_language(lang->get_string()).value_or(locale::language::en);
}

// The operation's document as an object, whichever way it was answered.
std::optional<json::object> document_of(api::answer&& a, api::data_view const& data)
{
    if (!a.json_text.empty())
        return json::parse(a.json_text).as_object();
    if (!a.is_published())
        return std::move(a.document);
    auto const doc = data.document(render::url_in(a.published_path, render::format::json, a.published_query));
    if (!doc)
        return std::nullopt;
    return json::parse(doc->text).as_object();
}

}

json::array const& tool_definitions()
{
    static json::array const list = [] {
        json::array out;
        for (auto const& op : api::operations())
            out.push_back(json::object{{"name", op.tool},
                                       {"title", op.title},
                                       {"description", op.description},
                                       {"inputSchema", api::input_schema(op)},
                                       {"outputSchema", api::output_schema(op)},
                                       {"annotations",
                                        {{"title", op.title},
                                         {"readOnlyHint", true},
                                         {"destructiveHint", false},
                                         {"idempotentHint", true},
                                         {"openWorldHint", false}}}});
        return out;
    }();
    return list;
}

std::optional<json::object> call_tool(std::string_view name, json::object const* arguments, api::data_view const& data)
{
    auto const* op = api::find_tool(name);
    if (!op)
        return std::nullopt;
    auto const lang = asked_language(arguments);
    auto args = api::arguments::from_json(op->parameters(), arguments);
    if (!args)
        return error_result(args.err().in(lang));
    api::request request{data, args.value()};
    auto result = api::call(*op, request);
    if (!result)
        return error_result(result.err().in(lang));
    auto document = document_of(std::move(result).value(), data);
    if (!document)
        return error_result(lang == locale::language::fr
                                ? "ce document n’est pas encore publié\u202F; réessayez après la prochaine publication"
                                : "this document is not published yet; try again after the next publication");
    return document_result(std::move(*document), *op, lang);
}

}
