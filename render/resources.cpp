#include "render/resources.hpp"

#include "render/chart.hpp"
#include "render/dataset.hpp"
#include "render/feed.hpp"

#include <array>
#include <stdexcept>

namespace lcg::render {

namespace {

using enum resource;
using enum languages;
using enum lifetime;
using enum source;

constexpr std::string_view json_body = "application/json";
constexpr std::string_view text_body = "text/plain; charset=utf-8";

// In the order of the enum, which kind_of indexes.
constexpr std::array<resource_kind, 40> kinds{{
    {index, "/", &index_view, {}, {}, every, current},
    {llms_txt, "/llms.txt", nullptr, text_body, text_only, every, current},
    {llms_full_txt, "/llms-full.txt", nullptr, text_body, text_only, every, current},
    {api_catalog, "/.well-known/api-catalog", nullptr, api_catalog_content_type, {}, one, current},
    {openapi, "/openapi.json", nullptr, json_body, json_only, one, current},
    {prices, "/v1/prices", &sheet_view, {}, {}, every, current},
    {price, "/v1/prices/{gpu}", &price_view, {}, {}, every, current},
    {price_history, "/v1/prices/{gpu}/history", &price_history_view, {}, {}, every, current},
    {history_chart, "/v1/prices/{gpu}/history.svg", nullptr, svg_content_type, {}, every, current},
    {sparkline, "/v1/prices/{gpu}/sparkline.svg", nullptr, svg_content_type, {}, every, current},
    {history, "/v1/history", &history_table_view, {}, {}, every, current},
    {gpus, "/v1/gpus", &catalog_view, {}, {}, every, current},
    {gpu, "/v1/gpus/{gpu}", &gpu_view, {}, {}, every, current},
    {regions, "/v1/regions", &regions_view, {}, {}, every, current},
    {sources, "/v1/sources", &sources_view, {}, {}, every, current},
    {inventory, "/v1/inventory", &inventory_view, {}, {}, every, current},
    {methodology, "/v1/methodology", &methodology_view, {}, {}, every, current},
    {sheets, "/v1/sheets", &sheet_index_view, {}, {}, every, current},
    {sheet, "/v1/sheets/{week}", &sheet_view, {}, {}, every, fixed_once_closed},
    {sheets_feed, "/v1/sheets.atom", nullptr, atom_content_type, {}, every, current},
    {signed_bytes, "/v1/sheets/{week}/signed.txt", nullptr, text_body, text_only, one, fixed_once_closed},
    {signature, "/v1/sheets/{week}/signature.txt", nullptr, text_body, text_only, one, fixed_once_closed},
    {signify_signature, "/v1/sheets/{week}/signed.txt.sig", nullptr, text_body, text_only, one, fixed_once_closed},
    {signed_note, "/v1/sheets/{week}/signed.note", nullptr, text_body, text_only, one, fixed_once_closed},
    {datapackage, "/v1/sheets/{week}/datapackage.json", nullptr, json_body, json_only, one, fixed_once_closed},
    {csv_metadata, "/v1/sheets/{week}/csv-metadata.json", nullptr, csv_metadata_content_type, {}, one,
     fixed_once_closed},
    {catalog, "/v1/catalog", nullptr, json_body, json_only, one, current},
    {catalog_signature, "/v1/catalog/signature", nullptr, json_body, json_only, one, current},
    {keys, "/.well-known/lowcostgpu-keys.json", nullptr, json_body, json_only, one, current},
    {key_file, "/.well-known/lowcostgpu-keys/{key}", nullptr, text_body, text_only, one, current},
    {log, "/v1/log", nullptr, json_body, json_only, one, current},
    {log_checkpoint, "/v1/log/checkpoint", nullptr, text_body, {}, one, current},
    {log_signed_bytes, "/v1/log/entries/{index}/signed.txt", nullptr, text_body, text_only, one, fixed},
    {log_signature, "/v1/log/entries/{index}/signature.txt", nullptr, text_body, text_only, one, fixed},
    {log_tile, "/v1/log/tile/{tile}", nullptr, "application/octet-stream", {}, one, fixed_once_closed},
    {glossary, "/v1/glossary", &glossary_view, {}, {}, every_named, current},
    {glossary_entry, "/v1/glossary/{term}", &glossary_entry_view, {}, {}, every_named, current},
    {observations, "/v1/sheets/{week}/observations", nullptr, {}, table_formats, every, fixed_once_closed, archive},
    {raw_inputs, "/v1/sheets/{week}/sources", nullptr, {}, table_formats, every, fixed_once_closed, archive},
    {raw_file, "/v1/sheets/{week}/sources/{sha256}", nullptr, {}, {}, one, fixed, archive},
}};

constexpr bool in_enum_order()
{
    for (std::size_t i = 0; i < kinds.size(); ++i)
        if (static_cast<std::size_t>(kinds[i].key) != i)
            return false;
    return kinds.back().key == raw_file;
}
static_assert(in_enum_order(), "kind_of indexes the table by the enum: keep them in the same order");

}

std::span<const resource_kind> resource_kinds() { return kinds; }

resource_kind const& kind_of(resource r) { return kinds.at(static_cast<std::size_t>(r)); }

resource_kind const* find_kind(std::string_view path_template)
{
    for (auto const& k : kinds)
        if (k.path_template == path_template)
            return &k;
    return nullptr;
}

std::string_view template_of(resource r) { return kind_of(r).path_template; }

std::string_view folder_of(resource r)
{
    auto const pattern = template_of(r);
    return pattern.substr(0, pattern.find('{'));
}

std::string path_of(resource r, std::string_view name, std::string_view then)
{
    auto const pattern = template_of(r);
    std::string out;
    out.reserve(pattern.size() + name.size() + then.size());
    std::size_t at = 0;
    for (auto const given : {name, then}) {
        auto const open = pattern.find('{', at);
        if ((open == std::string_view::npos) != given.empty())
            throw std::logic_error("the path " + std::string(pattern) + (given.empty() ? " needs more names" : " takes fewer names"));
        if (open == std::string_view::npos)
            break;
        out.append(pattern.substr(at, open - at)).append(given);
        at = pattern.find('}', open) + 1;
    }
    return out.append(pattern.substr(at));
}

}
