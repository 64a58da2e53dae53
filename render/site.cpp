#include "render/site.hpp"

#include "render/json.hpp"
#include "render/markdown_text.hpp"
#include "render/resources.hpp"

#include "pricing/rules.hpp"

#include <boost/json/array.hpp>
#include <boost/json/serialize.hpp>

namespace lcg::render {

namespace {

namespace json = boost::json;
namespace rules = pricing::rules;
using md::text;

// A document the index lists: where it is and in which formats.
struct listed {
    std::string title;
    std::string path;
    std::string query;
    std::string description;
    format_set formats;
};

// A published document of kind `r` (named `name`), as the index lists it.
listed listing(resource r, std::string_view name, std::string title, std::string query, std::string description)
{
    return {std::move(title), path_of(r, name), std::move(query), std::move(description), kind_of(r).formats()};
}

json::object resource_json(listed const& r)
{
    json::object urls;
    r.formats.for_each([&](format f) {
        urls[media_type(f)] = f == format::text || r.formats == json_only ? r.path + r.query : suffixed_url(r.path, f, r.query);
    });
    return {{"title", r.title},     {"path", r.path}, {"query", r.query}, {"description", r.description},
            {"formats", std::move(urls)}};
}

json::object section(std::string name, bool optional, std::vector<listed> const& resources)
{
    json::array list;
    for (auto const& r : resources)
        list.push_back(resource_json(r));
    return {{"name", std::move(name)}, {"optional", optional}, {"resources", std::move(list)}};
}

// The URL an agent should read for a resource: its Markdown when it has one.
std::string reading_url(json::object const& r)
{
    auto const& formats = md::object_at(r, "formats");
    for (auto type : {"text/markdown", "text/plain", "application/json"})
        if (auto const* url = formats.if_contains(type))
            return std::string(url->get_string());
    return text(r, "path");
}

// The four clients people use most, each with one line to paste: `local` starts a mirror of this
// instance on the user's machine (`lowcostgpu mcp --upstream URL`: the Debian package, the keys
// pinned on first use), `remote` talks to its /mcp over Streamable HTTP (Claude Desktop's
// configuration file starts commands only, so it goes through mcp-remote). Every JSON one is
// serialised from a tree, so it parses.
json::array client_configurations(std::string const& url)
{
    auto const server = [](json::object o) { return json::object{{"lowcostgpu", std::move(o)}}; };
    json::object const local_command = local_mirror_command(url);
    json::object vscode_local{{"type", "stdio"}};
    for (auto const& member : local_command)
        vscode_local.emplace(member.key(), member.value());
    std::string const endpoint = url + "/mcp";
    std::string const command = "lowcostgpu mcp --upstream " + url;
    auto const entry = [](char const* client, char const* file, std::string local, std::string remote) {
        return json::object{{"client", client}, {"file", file}, {"local", std::move(local)}, {"remote", std::move(remote)}};
    };
    return {
        entry("Claude Desktop", "claude_desktop_config.json", json::serialize(json::object{{"mcpServers", server(local_command)}}),
              json::serialize(json::object{{"mcpServers", server({{"command", "npx"},
                                                          {"args", json::array{"-y", "mcp-remote", json::string(endpoint)}}})}})),
        entry("Claude Code", "", "claude mcp add lowcostgpu -- " + command,
              "claude mcp add --transport http lowcostgpu " + endpoint),
        entry("Cursor", "~/.cursor/mcp.json", json::serialize(json::object{{"mcpServers", server(local_command)}}),
              json::serialize(json::object{{"mcpServers", server({{"url", endpoint}})}})),
        entry("VS Code", ".vscode/mcp.json", json::serialize(json::object{{"servers", server(vscode_local)}}),
              json::serialize(json::object{{"servers", server({{"type", "http"}, {"url", endpoint}})}})),
    };
}

std::string client_lines(json::object const& mcp, char const* which, language l)
{
    std::string out;
    for (auto const& v : md::array_at(mcp, "clients")) {
        auto const& c = v.get_object();
        std::string const file = text(c, "file");
        out += "- " + say(l, "site.mcp_client", {{"client", md::escape(text(c, "client")) +
                                                                (file.empty() ? "" : " (`" + file + "`)")},
                                                     {"config", "`" + text(c, which) + "`"}}) +
               "\n";
    }
    return out;
}

// What an assistant needs to connect: the endpoint, both transports, the server card and a
// configuration for each client.
std::string mcp_markdown(json::object const& mcp, language l)
{
    std::string out = "## " + say(l, "site.mcp_heading") + "\n\n" + md::escape(text(mcp, "summary")) + "\n\n";
    out += "- " + say(l, "site.mcp_endpoint", {{"endpoint", "`" + text(mcp, "endpoint") + "`"}}) + "\n";
    for (auto const& t : md::array_at(mcp, "transports"))
        out += "- " + text(t) + "\n";
    out += "- " +
           say(l, "site.mcp_card",
               {{"card", md::link(text(mcp, "server_card"), text(mcp, "server_card"))},
                {"legacy", md::link(text(mcp, "legacy_server_card"), text(mcp, "legacy_server_card"))}}) +
           "\n\n";
    out += say(l, "site.mcp_local", {{"command", "`lowcostgpu mcp --upstream " + text(mcp, "public_url") + "`"}}) +
           "\n\n" + client_lines(mcp, "local", l) + "\n";
    out += say(l, "site.mcp_remote", {{"endpoint", "`" + text(mcp, "public_url") + "/mcp`"}}) + "\n\n" +
           client_lines(mcp, "remote", l);
    return out;
}

std::string llms_head(json::object const& index, language l)
{
    std::string out = "# " + text(index, "name") + "\n\n> " + text(index, "summary") + "\n\n";
    if (md::is_sample(index))
        out += md::sample_banner(l) + "\n";
    out += say(l, "site.llms_formats") + "\n";
    return out;
}

}

json::object local_mirror_command(std::string_view url)
{
    return {{"command", "lowcostgpu"}, {"args", json::array{"mcp", "--upstream", json::string(url)}}};
}

json::object index_json(pricing::catalog const& catalog, pricing::price_sheet const* current,
                        std::span<const operation_example> operations, std::string_view public_url, language l)
{
    std::string const url = public_url.empty() ? std::string(placeholder_url) : std::string(public_url);
    auto const w = [l](std::string_view key, std::initializer_list<fill> values = {}) { return say(l, key, values); };
    std::string const in_language = language_query("", l);
    // Examples use the worked example of the methodology when the catalog has it.
    std::string gpu = catalog.find("h100-sxm") ? "h100-sxm" : (catalog.gpus.empty() ? "" : catalog.gpus.front().id);
    pricing::gpu_model const* model = catalog.find(gpu);
    std::string const week = current ? pricing::to_string(current->week) : "";

    std::vector<listed> prices{listing(resource::prices, "", w("site.prices"), in_language, w("site.prices_about")),
                               listing(resource::prices, "", w("site.spot_first"), language_query("?tier=spot&sort=price", l),
                                       w("site.spot_first_about"))};
    if (model && current)
        prices.push_back(listing(resource::price, gpu, w("site.model_price", {{"model", model->name}}), in_language,
                                 w("site.model_price_about")));
    std::vector<listed> catalog_section{listing(resource::gpus, "", w("site.catalog"), in_language,
                                                w("site.catalog_about", {{"count", std::to_string(catalog.gpus.size())}}))};
    if (model)
        catalog_section.push_back(listing(resource::gpu, gpu, model->name, in_language, w("site.model_about")));
    // The glossary in the page's language first, then in the other one.
    auto const other = l == language::fr ? language::en : language::fr;
    std::vector<listed> glossary{
        listing(resource::glossary, "", w("site.glossary"), in_language, w("site.glossary_about")),
        listing(resource::glossary, "", say(other, "site.glossary_other"), language_query("", other, true),
                w("site.glossary_other_about")),
        listing(resource::glossary_entry, "interruptible-instance", w("site.glossary_term"), in_language,
                w("site.glossary_term_about"))};
    std::vector<listed> audit{listing(resource::methodology, "", w("site.methodology"), in_language, w("site.methodology_about")),
                              listing(resource::sheets, "", w("site.sheets"), in_language, w("site.sheets_about"))};
    if (current)
        audit.push_back(listing(resource::observations, week, w("site.inputs", {{"week", week}}), "", w("site.inputs_about")));

    std::vector<listed> tools;
    for (auto const& op : operations)
        tools.push_back({op.title, op.path, op.query, op.description, op.formats});
    std::vector<listed> optional{
        listing(resource::regions, "", w("site.regions"), in_language,
                w("site.regions_about", {{"count", std::to_string(catalog.regions.size())}})),
        listing(resource::sources, "", w("site.sources"), in_language,
                w("site.sources_about", {{"count", std::to_string(catalog.sources.size())}})),
        listing(resource::inventory, "", w("site.inventory"), in_language, w("site.inventory_about")),
        listing(resource::openapi, "", w("site.openapi"), "", w("site.openapi_about")),
        listing(resource::llms_full_txt, "", w("site.llms_full"), in_language, w("site.llms_full_about"))};

    json::array sections{section(w("site.section_prices"), false, prices),
                         section(w("site.section_catalog"), false, catalog_section),
                         section(w("site.section_glossary"), false, glossary),
                         section(w("site.section_audit"), false, audit)};
    if (!tools.empty())
        sections.push_back(section(w("site.section_operations"), false, tools));
    sections.push_back(section(w("site.section_more"), true, optional));

    json::array formats;
    for (auto f : {format::json, format::markdown, format::html, format::csv})
        formats.push_back({{"name", display_name(f)},
                           {"media_type", media_type(f)},
                           {"suffix", "." + std::string(extension(f))}});
    json::object o{
        {"name", w("site.name")},
        {"summary", w("site.summary", {{"on_demand", md::percent(l, rules::on_demand_of_median)},
                                       {"spot", md::percent(l, rules::spot_of_on_demand)},
                                       {"reserved", md::percent(l, rules::reserved_of_on_demand)}})},
        {"formats", std::move(formats)},
        {"negotiation", w("site.negotiation")},
        {"sections", std::move(sections)},
        {"openapi", path_of(resource::openapi)},
        {"llms_txt", path_of(resource::llms_txt) + in_language},
        {"mcp",
         {{"endpoint", "/mcp"},
          {"server_card", "/mcp/server-card"},
          {"legacy_server_card", "/.well-known/mcp/server-card.json"},
          {"summary", w("site.mcp_summary")},
          {"transports", json::array{json::string(w("site.mcp_http")),
                                     json::string(w("site.mcp_stdio", {{"url", url}}))}},
          {"public_url", url},
          {"clients", client_configurations(url)}}}};
    o["current_week"] = current ? json::value(week) : json::value(nullptr);
    o["sample"] = is_sample(current);
    return o;
}

std::string index_markdown(json::object const& index, links const& to)
{
    auto const l = to.lang;
    std::string out = "# " + md::escape(text(index, "name")) + "\n\n" + md::escape(text(index, "summary")) + "\n\n";
    if (auto const& week = md::at(index, "current_week"); week.is_string())
        out += say(l, "site.in_effect", {{"week", md::link(text(week), to(path_of(resource::prices)))}}) + "\n\n";
    out += say(l, "site.formats", {{"formats", md::escape(text(index, "negotiation"))}}) + "\n\n";
    for (auto const& sv : md::array_at(index, "sections")) {
        auto const& s = sv.get_object();
        out += "## " + md::escape(text(s, "name")) + "\n\n";
        for (auto const& rv : md::array_at(s, "resources")) {
            auto const& r = rv.get_object();
            auto const& formats = md::object_at(r, "formats");
            std::string const path = text(r, "path");
            std::string const query = text(r, "query");
            // The resource's query already says its language (the other glossary names its own).
            std::string const main = formats.contains("text/markdown")
                                         ? suffixed_url(path, to.target, language_query(query, l, to.target == format::html))
                                         : reading_url(r);
            out += "- " + md::link(text(r, "title"), main) + ": " + md::escape(text(r, "description"));
            std::string alternates;
            for (auto const& [type, url] : formats) {
                if (type == "text/markdown" || type == "text/html")
                    continue;
                alternates += alternates.empty() ? "" : " · ";
                alternates += md::link(type == "application/json" ? "JSON" : (type == "text/csv" ? "CSV" : "text"),
                                       std::string(url.get_string()));
            }
            if (formats.contains("text/markdown") && !alternates.empty())
                out += " (" + alternates + ")";
            out += "\n";
        }
        out += "\n";
    }
    out += mcp_markdown(md::object_at(index, "mcp"), l);
    out += "\n" + say(l, "site.machine_readable") + " " + md::link("OpenAPI 3.1", path_of(resource::openapi)) + " · " +
           md::link("llms.txt", text(index, "llms_txt")) + " · " +
           md::link(say(l, "site.server_card"), text(md::object_at(index, "mcp"), "server_card")) + "\n";
    return out;
}

std::string llms_txt(json::object const& index, language l)
{
    std::string out = llms_head(index, l) + "\n" + mcp_markdown(md::object_at(index, "mcp"), l);
    std::string optional;
    for (auto const& sv : md::array_at(index, "sections")) {
        auto const& s = sv.get_object();
        std::string lines;
        for (auto const& rv : md::array_at(s, "resources")) {
            auto const& r = rv.get_object();
            lines += "- " + md::link(text(r, "title"), reading_url(r)) + ": " + md::escape(text(r, "description")) + "\n";
        }
        if (md::at(s, "optional").is_bool() && md::at(s, "optional").get_bool())
            optional += lines;
        else
            out += "\n## " + text(s, "name") + "\n\n" + lines;
    }
    if (!optional.empty())
        out += "\n## Optional\n\n" + optional;  // the heading llmstxt.org defines, in every language
    return out;
}

std::string llms_full_txt(json::object const& index, std::vector<std::pair<std::string, std::string>> const& pages,
                          language l)
{
    std::string out = llms_head(index, l);
    for (auto const& [url, markdown] : pages)
        out += "\n---\n\n" + say(l, "site.source", {{"url", url}}) + "\n\n" + markdown;
    return out;
}

}
