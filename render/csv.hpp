#pragma once

#include <boost/json/object.hpp>

#include <string>
#include <string_view>
#include <vector>

// CSV of the API's table resources (RFC 4180 quoting, UTF-8, a header row, "\n" line ends), each
// from the JSON document of the same resource, so the figures are the same strings. Booleans are
// true/false, absent values empty, lists joined with "; ". A sheet row (the sheet's CSV, a model's
// history) ends with its market: sources, listings, market_min, market_p25, market_median,
// market_p75, market_max, by_source ("synthetic-alpha:2.300:1 synthetic-bravo:2.400:3": each source's
// name, price and listings, space-separated, with %, space and colon in a name percent-encoded; all
// empty on a row without listings or of rules version 1), then the document's `sample` (true when
// built from synthetic sample data), which the catalog's ends with too.
namespace lcg::render {

std::string sheet_csv(boost::json::object const& sheet);        // /v1/prices, /v1/sheets/{week}: one row per model
std::string catalog_csv(boost::json::object const& catalog);    // /v1/gpus
std::string sheet_index_csv(boost::json::object const& index);  // /v1/sheets
std::string regions_csv(boost::json::object const& regions);    // /v1/regions
std::string sources_csv(boost::json::object const& sources);    // /v1/sources
std::string raw_inputs_csv(boost::json::object const& files);  // /v1/sheets/{week}/sources
std::string inventory_csv(boost::json::object const& inventory);  // /v1/inventory: one row per model and region
std::string price_history_csv(boost::json::object const& history);  // /v1/prices/{gpu}/history: one row per week
std::string history_table_csv(boost::json::object const& table);    // /v1/history: weeks down, models across
std::string glossary_csv(boost::json::object const& glossary);  // /v1/glossary: one row per term listed

// One record: fields quoted when they hold a comma, a quote or a line break, and a field a
// spreadsheet would run as a formula (= + - @ tab CR first, not a plain number) prefixed with an
// apostrophe (OWASP). Meant for people; the canonical observations CSV is written byte-exact elsewhere.
std::string csv_record(std::vector<std::string> const& fields);

}
