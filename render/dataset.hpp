#pragma once

// What lets anyone cite and load the published data: its licence, and the machine-readable
// descriptions of a week's CSVs (a Frictionless Data Package, CSV on the Web metadata) and of the
// API (an RFC 9727 API catalog).

#include "pricing/sheet.hpp"

#include <boost/json/object.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace lcg::render {

// The licence of the published data (sheets, their inputs, the catalog, the glossary's figures):
// the one place that names it. Every dataset document carries it as license_json().
inline constexpr std::string_view data_license_id = "CC-BY-4.0";  // SPDX, as CITATION.cff writes it
inline constexpr std::string_view data_license_url = "https://creativecommons.org/licenses/by/4.0/";
inline constexpr std::string_view data_license_title = "Creative Commons Attribution 4.0 International";

// {"id": "CC-BY-4.0", "url": "https://creativecommons.org/licenses/by/4.0/"}
boost::json::object license_json();

// What a week's descriptions say of the files they describe, as served.
struct week_files {
    std::string sheet_csv_header;  // the first line of /v1/sheets/{week}.csv, without its line end
    std::string sheet_csv_sha256;  // of the exact bytes of /v1/sheets/{week}.csv
    std::size_t sheet_csv_bytes = 0;
    std::optional<std::uint64_t> inputs_bytes;  // the observations CSV's length, when the signed index gives it
};

// /v1/sheets/{week}/datapackage.json: a Frictionless Data Package of the sheet's CSV and its
// observations CSV, each with its bytes, SHA-256 and Table Schema. `base_url` (the instance's public
// URL, or empty) is put before every path, which Frictionless wants fully qualified.
boost::json::object datapackage_json(pricing::price_sheet const& sheet, week_files const& files, std::string_view base_url);

// /v1/sheets/{week}/csv-metadata.json: W3C CSV on the Web metadata (a table group) for the same two
// CSVs, whose columns are their headers in order.
boost::json::object csv_metadata_json(pricing::price_sheet const& sheet, week_files const& files, std::string_view base_url);

// schema.org Datasets as JSON-LD, for the HTML pages: a sheet (from its JSON document,
// render::sheet_json) and the sheet in effect as the home page lists it (render::index_json).
boost::json::object sheet_dataset_ld(boost::json::object const& sheet);
boost::json::object index_dataset_ld(boost::json::object const& index);

// /.well-known/api-catalog: an RFC 9264 linkset naming the API's description, docs and cards.
boost::json::object api_catalog_json(std::string_view base_url);
inline constexpr std::string_view api_catalog_content_type =
    "application/linkset+json; profile=\"https://www.rfc-editor.org/info/rfc9727\"";
inline constexpr std::string_view csv_metadata_content_type = "application/csvm+json";

}
