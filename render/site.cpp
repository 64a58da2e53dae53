#include "render/site.hpp"

#include "render/markdown_text.hpp"

#include "pricing/rules.hpp"

#include <boost/json/array.hpp>

namespace lcg::render {

namespace {

namespace json = boost::json;
namespace rules = pricing::rules;
using md::percent;
using md::text;

struct resource {
    std::string title;
    std::string path;
    std::string query;
    std::string description;
    format_set formats;
};

json::object resource_json(resource const& r)
{
    json::object urls;
    r.formats.for_each([&](format f) {
        urls[media_type(f)] = f == format::text || r.formats == json_only ? r.path + r.query : suffixed_url(r.path, f, r.query);
    });
    return {{"title", r.title},     {"path", r.path}, {"query", r.query}, {"description", r.description},
            {"formats", std::move(urls)}};
}

json::object section(std::string name, bool optional, std::vector<resource> const& resources)
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

// What an assistant needs to connect: the endpoint, both transports, the server card and a
// configuration for clients that only start local commands.
std::string mcp_markdown(json::object const& mcp)
{
    std::string out = "## MCP for AI assistants\n\n" + md::escape(text(mcp, "summary")) + "\n\n";
    out += "- Endpoint: `" + text(mcp, "endpoint") + "`\n";
    for (auto const& t : md::array_at(mcp, "transports"))
        out += "- " + text(t) + "\n";
    out += "- Server card (name, versions, capabilities, tools with their schemas): " +
           md::link(text(mcp, "server_card"), text(mcp, "server_card")) + "\n\n";
    out += "A client that only starts local commands (Claude Desktop's configuration file) reaches it through "
           "`mcp-remote`:\n\n```json\n" + text(mcp, "configuration") + "\n```\n";
    return out;
}

std::string llms_head(json::object const& index)
{
    std::string out = "# " + text(index, "name") + "\n\n> " + text(index, "summary") + "\n\n";
    out += "Every resource is JSON by default and also Markdown (`.md` suffix or `Accept: text/markdown`), HTML for "
           "browsers, and CSV (`.csv`) for tables. Money is exact: decimal strings in USD, per GPU-hour unless said. "
           "The API is described in OpenAPI 3.1 at /openapi.json.\n";
    return out;
}

}

json::object index_json(pricing::catalog const& catalog, pricing::price_sheet const* current,
                        std::span<const operation_example> operations)
{
    // Examples use the worked example of the methodology when the catalog has it.
    std::string gpu = catalog.find("h100-sxm") ? "h100-sxm" : (catalog.gpus.empty() ? "" : catalog.gpus.front().id);
    pricing::gpu_model const* model = catalog.find(gpu);
    std::string const week = current ? pricing::to_string(current->week) : "";

    std::vector<resource> prices{{"Current price sheet", "/v1/prices", "",
                                  "every model's market median, cap, on-demand, spot and reserved rate in USD per "
                                  "GPU-hour, the billing terms and the audit inputs; filters gpu, vendor, "
                                  "architecture, min_vram_gb, max_price, tier and sort (gpu, price, vram)",
                                  table_formats},
                                 {"Cheapest spot rates first", "/v1/prices", "?tier=spot&sort=price",
                                  "the same sheet sorted by the spot rate", table_formats}};
    if (model && current)
        prices.push_back({model->name + " price", "/v1/prices/" + gpu, "", "one model's line of the current sheet",
                          document_formats});
    std::vector<resource> catalog_section{
        {"GPU catalog", "/v1/gpus", "",
         std::to_string(catalog.gpus.size()) +
             " models: VRAM, bandwidth, dense FP16 TFLOPS, PowerScore, NVLink, MIG, instance limits, current price; "
             "filters vendor, architecture, min_vram_gb, mig, nvlink",
         table_formats}};
    if (model)
        catalog_section.push_back({model->name, "/v1/gpus/" + gpu, "", "one model's specifications, limits and prices",
                                   document_formats});
    std::vector<resource> glossary{
        {"Glossary", "/v1/glossary", "", "the terms of GPU cloud pricing, with figures quoted from the current sheet; "
                                         "filters category and q (search)", table_formats},
        {"Glossaire (français)", "/v1/glossary", "?lang=fr", "the same glossary in French", table_formats},
        {"Spot (interruptible) instance", "/v1/glossary/interruptible-instance", "", "one glossary term",
         document_formats}};
    std::vector<resource> audit{
        {"Methodology", "/v1/methodology", "", "every constant, each rule as a sentence and a formula, how to audit",
         document_formats},
        {"Sheets history", "/v1/sheets", "", "every published week with its dates and the SHA-256 of its inputs",
         table_formats}};
    if (current)
        audit.push_back({"Inputs of sheet " + week, "/v1/sheets/" + week + "/observations", "",
                         "the marketplace observations the sheet was computed from; the CSV is the canonical file",
                         table_formats});

    std::vector<resource> tools;
    for (auto const& op : operations)
        tools.push_back({op.title, op.path, op.query, op.description, op.formats});
    std::vector<resource> optional{
        {"Regions", "/v1/regions", "",
         "the " + std::to_string(catalog.regions.size()) + " regions, all at the same prices", table_formats},
        {"Inventory", "/v1/inventory", "", "free GPUs per model and region (sample data); filters gpu and region",
         table_formats},
        {"OpenAPI description", "/openapi.json", "", "every endpoint, parameter, response and error", json_only},
        {"Everything in one file", "/llms-full.txt", "", "the main pages inline, for agents", text_only}};

    json::array sections{section("Prices", false, prices), section("Catalog", false, catalog_section),
                         section("Glossary", false, glossary), section("Methodology and audit", false, audit)};
    if (!tools.empty())
        sections.push_back(section("Operations (each also an MCP tool)", false, tools));
    sections.push_back(section("More", true, optional));

    json::array formats;
    for (auto f : {format::json, format::markdown, format::html, format::csv})
        formats.push_back({{"name", display_name(f)},
                           {"media_type", media_type(f)},
                           {"suffix", "." + std::string(extension(f))}});
    json::object o{
        {"name", "LowCostGPU pricing API"},
        {"summary", "LowCostGPU's weekly GPU price sheet, public and read-only: every on-demand price is at most " +
                        percent(rules::on_demand_of_median) +
                        " of the public GPU marketplace median, re-checked every Monday 00:00 UTC; spot is " +
                        percent(rules::spot_of_on_demand) + " and reserved " + percent(rules::reserved_of_on_demand) +
                        " of on-demand. Every input and rule is published, so anyone can recompute the prices."},
        {"formats", std::move(formats)},
        {"negotiation", "a suffix (.json, .md, .html, .csv; the index is /index.md) or the Accept header chooses the "
                        "format; without either, JSON; browsers get HTML"},
        {"sections", std::move(sections)},
        {"openapi", "/openapi.json"},
        {"llms_txt", "/llms.txt"},
        {"mcp",
         {{"endpoint", "/mcp"},
          {"server_card", "/.well-known/mcp/server-card.json"},
          {"summary", "The same operations as MCP tools for AI assistants (prices with filters, one GPU, the catalog, "
                      "compare, estimate a job, size a model, cheapest configuration, instance check, inventory, "
                      "glossary, methodology): each tool's structuredContent is the JSON document of the matching "
                      "HTTP route, and resources serve these pages' Markdown. Read-only, no account."},
          {"transports",
           json::array{"Streamable HTTP: POST /mcp on this server (JSON responses, stateless; protocol versions "
                       "2026-07-28, 2025-11-25, 2025-06-18 and 2025-03-26)",
                       "stdio: `lowcostgpu mcp --database-url URL`, for clients that start a local command"}},
          {"configuration",
           "{\"mcpServers\": {\"lowcostgpu\": {\"command\": \"npx\", \"args\": [\"-y\", \"mcp-remote\", "
           "\"https://YOUR-HOST/mcp\"]}}}"}}}};
    o["current_week"] = current ? json::value(week) : json::value(nullptr);
    return o;
}

std::string index_markdown(json::object const& index, links const& to)
{
    std::string out = "# " + md::escape(text(index, "name")) + "\n\n" + md::escape(text(index, "summary")) + "\n\n";
    if (auto const& week = md::at(index, "current_week"); week.is_string())
        out += "Sheet in effect: **" + md::link(text(week), to("/v1/prices")) + "**.\n\n";
    out += "Formats: " + md::escape(text(index, "negotiation")) + ".\n\n";
    for (auto const& sv : md::array_at(index, "sections")) {
        auto const& s = sv.get_object();
        out += "## " + md::escape(text(s, "name")) + "\n\n";
        for (auto const& rv : md::array_at(s, "resources")) {
            auto const& r = rv.get_object();
            auto const& formats = md::object_at(r, "formats");
            std::string const path = text(r, "path");
            std::string const query = text(r, "query");
            std::string const main = formats.contains("text/markdown") ? to(path, query) : reading_url(r);
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
    out += mcp_markdown(md::object_at(index, "mcp"));
    out += "\nMachine-readable: " + md::link("OpenAPI 3.1", "/openapi.json") + " · " + md::link("llms.txt", "/llms.txt") +
           " · " + md::link("MCP server card", text(md::object_at(index, "mcp"), "server_card")) + "\n";
    return out;
}

std::string llms_txt(json::object const& index)
{
    std::string out = llms_head(index) + "\n" + mcp_markdown(md::object_at(index, "mcp"));
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
        out += "\n## Optional\n\n" + optional;
    return out;
}

std::string llms_full_txt(json::object const& index, std::vector<std::pair<std::string, std::string>> const& pages)
{
    std::string out = llms_head(index);
    for (auto const& [url, markdown] : pages)
        out += "\n---\n\nSource: " + url + "\n\n" + markdown;
    return out;
}

}
