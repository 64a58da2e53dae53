#include "mcp/tool_calls.hpp"

#include "api/operation.hpp"

#include "render/format.hpp"
#include "render/json_writer.hpp"
#include "locale/words.hpp"

#include "pricing/rules.hpp"

#include <boost/json/serialize.hpp>

namespace lcg::mcp {

namespace {

namespace json = boost::json;

// A result is written as text once: the document goes into it as it was serialized (or published),
// as structuredContent and, escaped, as the text block, with no parse and no second serialization.
constexpr std::string_view content_open = R"({"content":[{"type":"text","text":)";

std::string error_result(std::string_view message)
{
    std::string out(content_open);
    render::append_json_string(out, message);
    out += R"(}],"isError":true})";
    return out;
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
std::string document_result(std::string_view document, api::operation const& op, locale::language lang)
{
    std::string out;
    out.reserve(2 * document.size() + 256);
    out += content_open;
    render::append_json_string(out, document);
    out += '}';
    if (auto const filters = narrowing_arguments(op); document.size() > pricing::rules::assistant_result_bytes && !filters.empty()) {
        out += R"(,{"type":"text","text":)";
        render::append_json_string(
            out, locale::say(lang, "mcp.large_result", {{"tokens", std::to_string(document.size() / pricing::rules::bytes_per_token)},
                                                        {"filters", filters}}));
        out += '}';
    }
    out += R"(],"structuredContent":)";
    out += document;
    out += R"(,"isError":false})";
    return out;
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

// A document as the result holds it: an HTTP body ends its last line, a JSON value in a result does not.
std::string_view without_final_newlines(std::string_view text)
{
    while (!text.empty() && text.back() == '\n')
        text.remove_suffix(1);
    return text;
}

// A computed document as JSON text: as written, or serialized once.
std::string document_of(api::answer&& a)
{
    if (a.json_text.empty())
        return json::serialize(a.document);
    a.json_text.resize(without_final_newlines(a.json_text).size());
    return std::move(a.json_text);
}

tool_result not_published_yet(locale::language lang)
{
    return {error_result(lang == locale::language::fr
                             ? "ce document n’est pas encore publié\u202F; réessayez après la prochaine publication"
                             : "this document is not published yet; try again after the next publication"),
            true};
}

// The result of a published document: the one written before, or written now and kept.
tool_result published_result(api::answer const& a, api::operation const& op, locale::language lang,
                             api::data_view const& data, published_results& published)
{
    auto const url = render::url_in(a.published_path, render::format::json, a.published_query);
    std::string const key = std::string(op.tool) + ' ' + url + ' ' + std::string(locale::to_string(lang));
    if (auto const kept = published.find(key))
        return {*kept, false};
    auto const doc = data.document(url);
    if (!doc)
        return not_published_yet(lang);
    return {*published.keep(key, document_result(without_final_newlines(doc->text), op, lang)), false};
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

std::shared_ptr<const std::string> published_results::find(std::string const& key) const
{
    std::shared_lock lock(mutex_);
    auto const it = results_.find(key);
    return it == results_.end() ? nullptr : it->second;
}

std::shared_ptr<const std::string> published_results::keep(std::string const& key, std::string result)
{
    std::unique_lock lock(mutex_);
    auto const [it, added] = results_.try_emplace(key, nullptr);
    if (added)
        it->second = std::make_shared<const std::string>(std::move(result));
    return it->second;
}

std::optional<tool_result> call_tool(std::string_view name, json::object const* arguments, api::data_view const& data,
                                     published_results& published)
{
    auto const* op = api::find_tool(name);
    if (!op)
        return std::nullopt;
    auto const lang = asked_language(arguments);
    auto args = api::arguments::from_json(op->parameters(), arguments);
    if (!args)
        return tool_result{error_result(args.err().in(lang)), true};
    api::request request{data, args.value()};
    auto result = api::call(*op, request);
    if (!result)
        return tool_result{error_result(result.err().in(lang)), true};
    if (result->is_published())
        return published_result(*result, *op, lang, data, published);
    return tool_result{document_result(document_of(std::move(result).value()), *op, lang), false};
}

}
