#include "render/dataset.hpp"
#include "render/resources.hpp"

#include "render/language.hpp"

#include "pricing/calendar.hpp"
#include "pricing/observation.hpp"

#include <boost/json/array.hpp>

#include <vector>

namespace lcg::render {

namespace {

namespace json = boost::json;

constexpr std::string_view usd_per_gpu_hour = "USD per GPU-hour";

// A column's type where it is not text, in the two vocabularies (Table Schema, CSVW's XML Schema
// names), and its unit where it is money. Every column's description is the catalog's
// "column.NAME", so a column added to a CSV without one fails the build of every snapshot.
struct column_type {
    std::string_view name;
    std::string_view table_schema;
    std::string_view csvw;
    bool money = false;
};
constexpr column_type typed_columns[] = {
    {"available", "boolean", "boolean"},         {"observations", "integer", "integer"},
    {"median", "number", "decimal", true},        {"cap", "number", "decimal", true},
    {"on_demand", "number", "decimal", true},     {"spot", "number", "decimal", true},
    {"reserved", "number", "decimal", true},      {"headroom", "number", "decimal", true},
    {"sources", "integer", "integer"},            {"listings", "integer", "integer"},
    {"market_min", "number", "decimal", true},    {"market_p25", "number", "decimal", true},
    {"market_median", "number", "decimal", true}, {"market_p75", "number", "decimal", true},
    {"market_max", "number", "decimal", true},    {"sample", "boolean", "boolean"},
    {"observed_at", "datetime", "dateTime"},      {"price_per_gpu_hour", "number", "decimal", true},
};
constexpr column_type text_column{"", "string", "string"};

column_type const& type_of(std::string_view name)
{
    for (auto const& c : typed_columns)
        if (c.name == name)
            return c;
    return text_column;
}

std::vector<std::string> split_header(std::string_view header)
{
    std::vector<std::string> names;
    for (std::size_t i = 0; i <= header.size();) {
        auto const comma = std::min(header.find(',', i), header.size());
        names.emplace_back(header.substr(i, comma - i));
        i = comma + 1;
    }
    return names;
}

std::string description(std::string_view column) { return say(language::en, "column." + std::string(column)); }

json::object table_schema(std::string_view header, std::vector<std::string_view> primary_key)
{
    json::array fields;
    for (auto const& name : split_header(header)) {
        auto const& t = type_of(name);
        json::object f{{"name", name}, {"type", t.table_schema}, {"description", description(name)}};
        if (t.money)
            f["unit"] = usd_per_gpu_hour;  // cells are exact decimal strings, never rounded floats
        fields.push_back(std::move(f));
    }
    json::array key;
    for (auto k : primary_key)
        key.emplace_back(k);
    json::object schema{{"fields", std::move(fields)}, {"missingValues", json::array{""}}};
    if (!key.empty())
        schema["primaryKey"] = std::move(key);
    return schema;
}

json::object csvw_table(std::string url, std::string_view header, std::string_view description_text)
{
    json::array columns;
    for (auto const& name : split_header(header)) {
        auto const& t = type_of(name);
        json::object c{{"name", name}, {"titles", name}, {"datatype", t.csvw}, {"dc:description", description(name)}};
        if (t.money)
            c["dc:description"] = description(name) + " (" + std::string(usd_per_gpu_hour) + ")";
        columns.push_back(std::move(c));
    }
    return {{"url", std::move(url)},
            {"dc:description", description_text},
            {"tableSchema", {{"columns", std::move(columns)}}}};
}

json::object csv_resource(std::string_view name, std::string path, std::string title, std::string_view sha256,
                          json::object schema)
{
    return {{"profile", "tabular-data-resource"}, {"name", name}, {"path", std::move(path)}, {"title", std::move(title)},
            {"format", "csv"},    {"mediatype", "text/csv"}, {"encoding", "utf-8"},
            {"hash", "sha256:" + std::string(sha256)}, {"schema", std::move(schema)}};
}

std::string lowercase(std::string s)
{
    for (char& c : s)
        if (c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
    return s;
}

std::string sheet_csv_path(pricing::price_sheet const& sheet)
{
    return path_of(resource::sheet, pricing::to_string(sheet.week)) + ".csv";
}
std::string inputs_csv_path(pricing::price_sheet const& sheet)
{
    return path_of(resource::observations, pricing::to_string(sheet.week)) + ".csv";
}

}

json::object license_json() { return {{"id", data_license_id}, {"url", data_license_url}}; }

json::object datapackage_json(pricing::price_sheet const& sheet, week_files const& files, std::string_view base_url)
{
    std::string const week = pricing::to_string(sheet.week);
    std::string const base(base_url);
    json::object sheet_csv = csv_resource("sheet", base + sheet_csv_path(sheet), say(language::en, "data.sheet_csv", {{"week", week}}),
                                          files.sheet_csv_sha256, table_schema(files.sheet_csv_header, {"gpu"}));
    sheet_csv["bytes"] = files.sheet_csv_bytes;
    json::object inputs = csv_resource("observations", base + inputs_csv_path(sheet),
                                       say(language::en, "data.inputs_csv", {{"week", week}}), sheet.inputs_sha256,
                                       table_schema(pricing::observations_csv_header, {}));
    if (files.inputs_bytes)
        inputs["bytes"] = *files.inputs_bytes;
    json::array resources{std::move(sheet_csv), std::move(inputs)};
    return {{"profile", "tabular-data-package"},
            {"name", "lowcostgpu-" + lowercase(week)},  // Frictionless names are lower case
            {"id", base + path_of(resource::sheet, week)},
            {"title", say(language::en, "data.title", {{"week", week}})},
            {"description", say(language::en, "data.description")},
            {"created", pricing::to_rfc3339(sheet.published_at)},
            {"temporal", {{"start", pricing::to_rfc3339(sheet.effective_from)},
                          {"end", pricing::to_rfc3339(sheet.effective_until)}}},
            {"licenses", json::array{{{"name", data_license_id}, {"path", data_license_url}, {"title", data_license_title}}}},
            {"sources", json::array{{{"title", say(language::en, "data.source")}, {"path", base + path_of(resource::methodology)}}}},
            {"contributors", json::array{{{"title", "LowCostGPU"}, {"role", "publisher"}}}},
            {"resources", std::move(resources)}};
}

json::object csv_metadata_json(pricing::price_sheet const& sheet, week_files const& files, std::string_view base_url)
{
    std::string const week = pricing::to_string(sheet.week);
    std::string const base(base_url);
    json::array tables{
        csvw_table(base + sheet_csv_path(sheet), files.sheet_csv_header, say(language::en, "data.sheet_csv", {{"week", week}})),
        csvw_table(base + inputs_csv_path(sheet), pricing::observations_csv_header,
                   say(language::en, "data.inputs_csv", {{"week", week}}))};
    return {{"@context", "http://www.w3.org/ns/csvw"},
            {"dc:title", say(language::en, "data.title", {{"week", week}})},
            {"dc:license", {{"@id", data_license_url}}},
            {"dc:publisher", "LowCostGPU"},
            {"tables", std::move(tables)}};
}

namespace {

json::object download(std::string url, std::string_view media_type)
{
    return {{"@type", "DataDownload"}, {"contentUrl", std::move(url)}, {"encodingFormat", media_type}};
}

json::object dataset_ld(std::string name, std::string url, std::string coverage, json::array distribution)
{
    return {{"@context", "https://schema.org"},
            {"@type", "Dataset"},
            {"name", std::move(name)},
            {"description", say(language::en, "data.description")},
            {"url", std::move(url)},
            {"license", data_license_url},
            {"creator", {{"@type", "Organization"}, {"name", "LowCostGPU"}}},
            {"temporalCoverage", std::move(coverage)},
            {"isAccessibleForFree", true},
            {"distribution", std::move(distribution)}};
}

std::string text_at(json::object const& o, std::string_view key)
{
    auto const* v = o.if_contains(key);
    return v && v->is_string() ? std::string(v->get_string()) : std::string();
}

}

json::object sheet_dataset_ld(json::object const& sheet)
{
    std::string const week = text_at(sheet, "week");
    std::string const base = path_of(resource::sheet, week);
    json::object ld = dataset_ld(say(language::en, "data.title", {{"week", week}}), base,
                                 text_at(sheet, "effective_from") + "/" + text_at(sheet, "effective_until"),
                                 {download(base + ".json", "application/json"), download(base + ".csv", "text/csv"),
                                  download(path_of(resource::observations, week) + ".csv", "text/csv")});
    ld["datePublished"] = text_at(sheet, "published_at");
    return ld;
}

json::object index_dataset_ld(json::object const& index)
{
    std::string const week = text_at(index, "current_week");
    return dataset_ld(say(language::en, "data.title", {{"week", week}}), path_of(resource::prices), week,
                      {download(suffixed_url(path_of(resource::prices), format::json), "application/json"),
                       download(suffixed_url(path_of(resource::prices), format::csv), "text/csv"),
                       download(suffixed_url(path_of(resource::history), format::csv), "text/csv")});
}

json::object api_catalog_json(std::string_view base_url)
{
    std::string const base(base_url);
    auto link = [&](std::string_view path, std::string_view type) {
        return json::array{{{"href", base + std::string(path)}, {"type", type}}};
    };
    json::object api{{"anchor", base + "/"},
                     {"service-desc", link(path_of(resource::openapi), "application/vnd.oai.openapi+json;version=3.1")},
                     {"service-doc", json::array{{{"href", base + "/"}, {"type", "text/html"}},
                                                 {{"href", base + path_of(resource::llms_txt)}, {"type", "text/plain"}}}},
                     {"service-meta", json::array{{{"href", base + "/mcp/server-card"}, {"type", "application/mcp-server-card+json"}},
                                                  {{"href", base + path_of(resource::llms_txt)}, {"type", "text/plain"}}}},
                     {"status", link("/readyz", "application/json")},
                     {"license", json::array{{{"href", data_license_url}, {"type", "text/html"}}}}};
    return {{"linkset", json::array{std::move(api)}}};
}

}
