#include "mcp/resources.hpp"

#include "mcp/markdown.hpp"
#include "mcp/tools.hpp"

#include "glossary/language.hpp"

#include "pricing/power_score.hpp"

#include <boost/json/parse.hpp>

#include <optional>
#include <string>

namespace lcg::mcp {

namespace {

namespace json = boost::json;

constexpr std::string_view scheme = "lowcostgpu://";
constexpr char const* markdown_type = "text/markdown";

json::object content(std::string_view uri, std::string_view mime_type, std::string_view text)
{
    return {{"uri", uri}, {"mimeType", mime_type}, {"text", text}};
}

failure not_found(std::string_view uri, std::string message, bool modern)
{
    return {modern ? error_code::invalid_params : error_code::resource_not_found, std::move(message),
            json::object{{"uri", uri.substr(0, 200)}}};
}

std::string tool_text(std::string_view tool, json::object const& args, data_view const& data)
{
    auto const r = call_tool(tool, args.empty() ? nullptr : &args, data);
    return r ? r->text : std::string();
}

std::string catalog_markdown(data_view const& data)
{
    auto const* sheet = data.current_sheet();
    markdown::table table{"GPU", "Name", "Vendor", "Architecture", "VRAM", "GB/s", "PowerScore", "On-demand"};
    for (auto const& m : data.catalog().gpus) {
        auto const score = pricing::compute_power_score(m.fp16_dense_tflops);
        auto const* row = sheet ? sheet->find(m.id) : nullptr;
        table.add({m.id, m.name, m.vendor, m.architecture, std::to_string(m.vram_gb) + " GB",
                   std::to_string(m.memory_bandwidth_gbs), score ? pricing::to_string(*score) : "-",
                   row && row->available() ? markdown::rate(row->rates->on_demand) : "not priced"});
    }
    return "# GPU catalog\n\n" + std::to_string(data.catalog().gpus.size()) +
           " models; PowerScore = 100 × dense FP16 TFLOPS / the RTX 3090's; on-demand in USD per GPU-hour" +
           (sheet ? " for " + pricing::to_string(sheet->week) : std::string()) + ".\n\n" + table.str();
}

std::string glossary_markdown(glossary::document const& doc, glossary::language lang)
{
    std::string out = lang == glossary::language::fr ? "# Glossaire LowCostGPU\n" : "# LowCostGPU glossary\n";
    for (auto const& c : doc.categories) {
        out += "\n## " + c.name + "\n\n";
        for (auto const& t : c.terms)
            out += "- **" + t.name + "** (`" + t.slug + "`): " + t.text + "\n";
    }
    out += "\n## " + doc.questions_name + "\n\n";
    for (auto const& q : doc.questions)
        out += "- **" + q.name + "** (`" + q.slug + "`): " + q.text + "\n";
    return out;
}

std::string sheet_markdown(pricing::price_sheet const& sheet)
{
    markdown::table table{"GPU", "Observations", "Median", "On-demand", "Spot", "Reserved"};
    for (auto const& row : sheet.rows) {
        auto const f = pricing::published_figures(row);
        table.add({row.gpu, std::to_string(row.observations), f.median.empty() ? "-" : "$" + f.median,
                   row.available() ? "$" + f.on_demand : "not priced", row.available() ? "$" + f.spot : "-",
                   row.available() ? "$" + f.reserved : "-"});
    }
    return "# Price sheet " + pricing::to_string(sheet.week) + "\n\nIn effect from " +
           pricing::to_rfc3339(sheet.effective_from) + " to " + pricing::to_rfc3339(sheet.effective_until) +
           "; USD per GPU-hour; " + std::to_string(sheet.observations) +
           " observations, inputs SHA-256 " + sheet.inputs_sha256 + ".\n\n" + table.str();
}

// "lowcostgpu://glossary/gpu-hour?lang=fr" → path "glossary/gpu-hour", language fr.
struct parsed_uri {
    std::string_view path;
    std::optional<glossary::language> lang;
    bool bad_query = false;
};

parsed_uri split(std::string_view rest)
{
    parsed_uri out;
    auto const q = rest.find('?');
    out.path = rest.substr(0, q);
    if (q != std::string_view::npos) {
        auto const query = rest.substr(q + 1);
        if (query.starts_with("lang="))
            out.lang = glossary::parse_language(query.substr(5));
        if (!out.lang)
            out.bad_query = true;
    }
    return out;
}

}

json::array const& resource_list()
{
    static json::array const list = json::parse(R"json([
{"uri":"lowcostgpu://prices","name":"prices","title":"Price sheet in effect","description":"This week's per-GPU hourly rates of every priced model (on-demand, spot, reserved). Markdown, then the JSON of GET /v1/prices.","mimeType":"text/markdown"},
{"uri":"lowcostgpu://gpus","name":"gpus","title":"GPU catalog","description":"Every GPU model with its memory, bandwidth, PowerScore and on-demand rate. Markdown, then the JSON of GET /v1/gpus.","mimeType":"text/markdown"},
{"uri":"lowcostgpu://methodology","name":"methodology","title":"Pricing methodology","description":"How prices are set, rounded and audited. Markdown, then the JSON of GET /v1/methodology.","mimeType":"text/markdown"},
{"uri":"lowcostgpu://glossary","name":"glossary","title":"Glossary","description":"The 85 terms and 3 questions with this week's figures; add ?lang=fr for French. Markdown, then the JSON of GET /v1/glossary.","mimeType":"text/markdown"}
])json").as_array();
    return list;
}

json::array const& resource_templates()
{
    static json::array const list = json::parse(R"json([
{"uriTemplate":"lowcostgpu://gpus/{id}","name":"gpu","title":"One GPU model","description":"A catalog model by id (h100-sxm): specs, limits, regions and price. Markdown, then the JSON of GET /v1/gpus/{id}.","mimeType":"text/markdown"},
{"uriTemplate":"lowcostgpu://glossary/{slug}","name":"glossary-term","title":"One glossary entry","description":"A term or question by slug; add ?lang=fr for French. Markdown, then the JSON of GET /v1/glossary/{slug}.","mimeType":"text/markdown"},
{"uriTemplate":"lowcostgpu://sheets/{week}","name":"sheet","title":"One weekly sheet","description":"A published sheet by ISO week (2026-W49) with medians and rates. Markdown, then the JSON of GET /v1/sheets/{week}.","mimeType":"text/markdown"}
])json").as_array();
    return list;
}

std::vector<std::string> published_weeks(data_view const& data)
{
    std::vector<std::string> weeks;
    auto const sheets = data.sheets();
    for (auto it = sheets.rbegin(); it != sheets.rend(); ++it)
        weeks.push_back(pricing::to_string(it->week));
    return weeks;
}

result_or_failure<json::array> read_resource(std::string_view uri, data_view const& data, bool modern)
{
    if (!uri.starts_with(scheme))
        return not_found(uri, "no resource at that URI; resources/list and resources/templates/list name them", modern);
    auto const parsed = split(uri.substr(scheme.size()));
    auto const path = parsed.path;
    bool const glossary_path = path == "glossary" || path.starts_with("glossary/");
    if (parsed.bad_query || (parsed.lang && !glossary_path))
        return not_found(uri, "only glossary URIs take a query, and only ?lang=en or ?lang=fr", modern);
    auto const lang = parsed.lang.value_or(glossary::language::en);
    std::string const suffix = "?lang=" + std::string(glossary::to_string(lang));

    std::string markdown;
    std::string json_path;
    if (path == "prices") {
        if (!data.current_sheet())
            return not_found(uri, "no price sheet is in effect yet", modern);
        markdown = "# LowCostGPU prices\n\n" + tool_text("get_prices", {}, data);
        json_path = "/v1/prices";
    } else if (path == "gpus") {
        markdown = catalog_markdown(data);
        json_path = "/v1/gpus";
    } else if (path == "methodology") {
        markdown = tool_text("get_methodology", {}, data);
        json_path = "/v1/methodology";
    } else if (path == "glossary") {
        auto const* doc = data.glossary(lang);
        if (!doc)
            return not_found(uri, "the glossary is unavailable: " + std::string(data.glossary_problem()), modern);
        markdown = glossary_markdown(*doc, lang);
        json_path = "/v1/glossary" + suffix;
    } else if (path.starts_with("gpus/")) {
        auto const id = path.substr(5);
        if (!data.catalog().find(id))
            return not_found(uri, "no GPU model has that id; lowcostgpu://gpus lists them", modern);
        markdown = tool_text("get_gpu", {{"gpu", id}}, data);
        json_path = "/v1/gpus/" + std::string(id);
    } else if (path.starts_with("glossary/")) {
        auto const slug = path.substr(9);
        auto const* doc = data.glossary(lang);
        if (!doc)
            return not_found(uri, "the glossary is unavailable: " + std::string(data.glossary_problem()), modern);
        if (!doc->find_term(slug) && !doc->find_question(slug))
            return not_found(uri, "no glossary entry has that slug; lowcostgpu://glossary lists them", modern);
        markdown = tool_text("explain_term", {{"term", slug}, {"lang", glossary::to_string(lang)}}, data);
        json_path = "/v1/glossary/" + std::string(slug) + suffix;
    } else if (path.starts_with("sheets/")) {
        auto const week = pricing::parse_week(path.substr(7));
        pricing::price_sheet const* sheet = nullptr;
        if (week)
            for (auto const& s : data.sheets())
                if (s.week == *week)
                    sheet = &s;
        if (!sheet)
            return not_found(uri, "no sheet was published for that week; completion lists the weeks", modern);
        markdown = sheet_markdown(*sheet);
        json_path = "/v1/sheets/" + pricing::to_string(*week);
    } else {
        return not_found(uri, "no resource at that URI; resources/list and resources/templates/list name them", modern);
    }
    json::array contents{content(uri, markdown_type, markdown)};
    if (auto const doc = data.document(json_path))
        contents.push_back(content(uri, doc->mime_type, doc->text));
    return contents;
}

}
