// Every route of the operation registry: the query string and the path segments become the
// operation's arguments, the operation answers, and the answer is served in the negotiated format
// (a pre-rendered document as stored, a computed one written by the operation's view). The MCP
// tools call the same operations (mcp/tool_calls.cpp).
#include "server/http/handlers.hpp"
#include "server/http/headers.hpp"

#include "server/mcp_bridge/snapshot_view.hpp"

#include "api/calculator.hpp"

#include "locale/language.hpp"

#include "pricing/utf8.hpp"

namespace lcg::http {

namespace {

namespace json = boost::json;

// Whether the refused parameter is one of the operation's that names GPUs (a catalog id or a list
// of them, not the integer `gpus` of an instance) or a region: then the refusal lists the valid ones.
bool names(api::operation const& op, api::failure const& f, std::string_view what)
{
    if (f.code == pricing::errc::unavailable || f.code == pricing::errc::unpriced)
        return false;  // the name is valid: listing the valid ones would not help
    for (auto const& p : op.parameters())
        if (p.name == f.parameter)
            return what == "gpu" ? api::names_gpus(p) : p.type != api::value_type::integer && p.name == what;
    return false;  // an unknown parameter
}

// A refusal in the language the request asked for: the status of its condition, the parameter at
// fault and what the client can use instead (valid GPU ids, region codes, the closest glossary slugs).
response refused(route_input& in, api::operation const& op, api::failure const& f, locale::language lang,
                 render::calculator_form const* form = nullptr)
{
    if (form) {
        // The calculator's page says what was wrong under the form, with the problem's status.
        auto const status = status_of(f.code);
        render::form_problem const problem{static_cast<int>(status), std::string(problem_title(status, form->lang)),
                                           f.in(form->lang), f.parameter};
        render::page const where{std::string(in.path), {}, in.formats, form->lang};
        auto page = html_error_page(in.req, status,
                                    render::calculator_page(api::calculator_title(op, form->lang), *form, &problem, where));
        page.set(beast_http::field::content_language, locale::to_string(form->lang));
        return page;
    }
    json::object extra;
    if (names(op, f, "gpu"))
        extra["valid_ids"] = catalog_ids(in);
    if (names(op, f, "region")) {
        json::array codes;
        for (auto const& r : in.snap().catalog.regions)
            codes.push_back(json::value(r.code));
        extra["valid_regions"] = std::move(codes);
    }
    if (!f.suggestions.empty()) {
        json::array list;
        for (auto const& s : f.suggestions)
            list.push_back(json::value(s));
        extra["suggestions"] = std::move(list);
    }
    return from_error(in.req, {f.code, f.message, f.message_fr}, f.parameter, std::move(extra), lang);
}

// The query's parameters plus the values of the route's {name} segments, decoded.
pricing::outcome<std::map<std::string, std::string, std::less<>>, api::failure> values_of(route_input& in,
                                                                                      std::string_view route)
{
    auto values = in.query.release();
    std::size_t capture = 0;
    for (auto open = route.find('{'); open != std::string_view::npos; open = route.find('{', open + 1)) {
        auto const name = route.substr(open + 1, route.find('}', open) - open - 1);
        auto decoded = percent_decode(in.captures.at(capture++), false);
        if (!decoded || !pricing::utf8_length(*decoded))
            return api::invalid_parameter(std::string(name),
                                          std::string(name) + ": the path segment has a malformed %-escape or is not UTF-8",
                                          std::string(name) + "\u202F: le segment du chemin a un échappement % mal formé "
                                                              "ou n’est pas de l’UTF-8");
        if (!values.emplace(std::string(name), std::move(*decoded)).second)
            return api::invalid_parameter(std::string(name),
                                          std::string(name) + ": given in the path; do not repeat it in the query",
                                          std::string(name) + "\u202F: déjà donné dans le chemin\u202F; ne le répétez pas dans "
                                                              "la requête");
    }
    return values;
}

// When a computed body last changed: when the operation's unfiltered document did (the sheet, the
// catalog, the inventory, the glossary in that language). The operations without one (costing,
// comparisons, a week's estimate, log proofs, quote checks) take the newest of what they rest on:
// /v1/gpus (the catalog and the current prices), /v1/sheets (every week, corrections included) and
// /v1/log (proofs and signatures). /v1/gpus alone stays put through a correction or a re-signing,
// and If-Modified-Since then kept a stale proof or signature.
std::optional<pricing::instant> data_time(route_input& in, api::operation const& op, api::answer const& a)
{
    // The glossary's documents name their language, English included; the others name French only.
    bool const named = in.kind && render::kind_of(*in.kind).written_in == render::languages::every_named;
    std::string const query = render::language_query("", a.lang.value_or(locale::language::en), named);
    if (auto const doc = in.snap().find_document(op.route, render::format::json, query))
        return doc->last_modified;
    std::optional<pricing::instant> newest;
    for (auto const rested_on : {render::resource::gpus, render::resource::sheets, render::resource::log})
        if (auto const doc = in.snap().find_document(render::path_of(rested_on)))
            newest = std::max(newest.value_or(doc->last_modified), doc->last_modified);
    return newest;
}

// A query without its blank fields ("a=1&b=&c=2" → "a=1&c=2"), as a calculator reads it.
std::string without_blank_fields(std::string_view query)
{
    std::string out;
    if (query.starts_with('?'))
        query.remove_prefix(1);
    while (!query.empty()) {
        auto const pair = next_query_pair(query);
        if (pair.empty() || pair.back() == '=')
            continue;
        out += (out.empty() ? "?" : "&") + std::string(pair);
    }
    return out;
}

response serve_answer(route_input& in, api::operation const& op, api::answer&& a)
{
    if (a.is_published())
        return document_at(in, a.published_path, a.published_query);
    auto const since = data_time(in, op, a);
    auto res = a.json_text.empty() ? serve_computed(in, *op.view, a.document, since)
                                   : serve_computed(in, *op.view, std::move(a.json_text), since);
    // An operation reads the snapshot and the question, nothing else: asked again on the same
    // snapshot, it would write the same bytes, so the connection may keep them and replay them.
    res.body().mark_computed();
    return res;
}

}

json::array catalog_ids(route_input& in)
{
    json::array ids;
    for (auto const& m : in.snap().catalog.gpus)
        ids.push_back(json::value(m.id));
    return ids;
}

response refuse_unread_query(route_input& in, api::operation const& op, api::failure const& f)
{
    if (in.format != render::format::html || !op.calculator)
        return from_error(in.req, {f.code, f.message, f.message_fr}, f.parameter, {}, in.lang);
    auto const form = api::calculator_of(op, in.snap().catalog, {}, in.lang);
    return refused(in, op, f, in.lang, form ? &*form : nullptr);
}

// The language the request asks for, as the operation will answer: its `lang`, else its
// Accept-Language, which also says how a refused `lang` is refused. A calculator's words and every
// refusal are written in it.
locale::language asked_language(std::map<std::string, std::string, std::less<>> const& given,
                                locale::language preferred)
{
    auto const it = given.find("lang");
    auto const l = api::language_of(it == given.end() ? std::nullopt : std::optional(it->second), preferred);
    return l ? *l : preferred;
}

response handle_operation(route_input& in, api::operation const& op)
{
    auto const preferred = negotiate_language(in.req[beast_http::field::accept_language]);
    auto values = values_of(in, op.route);
    if (!values)
        return refused(in, op, values.err(), preferred);
    auto& given = values.value();
    std::optional<render::calculator_form> form;
    bool const calculator = in.format == render::format::html && op.calculator;
    if (calculator)
        api::drop_blank_fields(given);  // before its language is read: a blank lang is none
    auto const lang = asked_language(given, preferred);
    if (calculator)
        form = api::calculator_of(op, in.snap().catalog, given, lang);
    if (form) {
        // The calculator before its first use, in the language asked for.
        bool const only_language = given.size() == 1 && given.contains("lang") &&
                                   locale::parse_language(given.begin()->second);
        if (given.empty() || only_language) {
            render::page const where{std::string(in.path), {}, in.formats, form->lang};
            return serve_body(in.req, in.format,
                              render::calculator_page(api::calculator_title(op, form->lang), *form, nullptr, where),
                              data_time(in, op, {}));
        }
        in.form = render::form_html(*form);
    }
    auto const* shown = form ? &*form : nullptr;
    std::string const kept_query = form ? without_blank_fields(in.query_string) : std::string();
    if (form)
        in.query_string = kept_query;  // the links to the other formats ask what the form asked
    auto args = api::arguments::from_query(op.parameters(), std::move(given));
    if (!args)
        return refused(in, op, args.err(), lang, shown);
    mcp_bridge::snapshot_view const view(in.snap());
    api::request r{view, args.value(), preferred};
    auto result = api::call(op, r);
    if (!result)
        return refused(in, op, result.err(), lang, shown);
    auto& a = result.value();
    in.lang = r.lang;
    auto res = serve_answer(in, op, std::move(a));
    // Every operation's document is written in both languages (document_at and serve_computed say
    // which was served, except for computed JSON written as text).
    res.set(beast_http::field::content_language, locale::to_string(r.lang));
    return res;
}

}
