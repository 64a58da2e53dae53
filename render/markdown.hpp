#pragma once

#include "render/format.hpp"

#include <boost/json/object.hpp>

#include <string>

// Markdown of the API's resources, written for reading: a title, the sheet's week and dates, tables
// of prices with their units, links between pages. Each writer lays out the JSON document of the
// same resource (the functions of json.hpp, costing_json.hpp, glossary_json.hpp), so a figure is
// the same string in every format. `to` says whether links point to Markdown or to HTML pages.
// Precondition: the object has the shape its JSON function documents.
namespace lcg::render {

std::string sheet_markdown(boost::json::object const& sheet, links const& to);          // /v1/prices, /v1/sheets/{week}
std::string price_markdown(boost::json::object const& price, links const& to);          // /v1/prices/{gpu}
std::string catalog_markdown(boost::json::object const& catalog, links const& to);      // /v1/gpus (filtered or not)
std::string gpu_markdown(boost::json::object const& gpu, links const& to);              // /v1/gpus/{gpu}
std::string price_history_markdown(boost::json::object const& history, links const& to);  // /v1/prices/{gpu}/history
std::string history_table_markdown(boost::json::object const& table, links const& to);    // /v1/history
std::string sheet_index_markdown(boost::json::object const& index, links const& to);    // /v1/sheets
std::string observations_markdown(boost::json::object const& inputs, links const& to);  // /v1/sheets/{week}/observations
std::string methodology_markdown(boost::json::object const& methodology, links const& to);
std::string regions_markdown(boost::json::object const& regions, links const& to);
std::string sources_markdown(boost::json::object const& sources, links const& to);
std::string raw_inputs_markdown(boost::json::object const& files, links const& to);  // /v1/sheets/{week}/sources
std::string inventory_markdown(boost::json::object const& inventory, links const& to);

std::string glossary_markdown(boost::json::object const& glossary, links const& to);     // /v1/glossary
std::string glossary_entry_markdown(boost::json::object const& entry, links const& to);  // /v1/glossary/{term}

std::string estimate_markdown(boost::json::object const& estimate, links const& to);
std::string sizing_markdown(boost::json::object const& sizing, links const& to);
std::string comparison_markdown(boost::json::object const& comparison, links const& to);
std::string instance_check_markdown(boost::json::object const& check, links const& to);
std::string cheapest_markdown(boost::json::object const& cheapest, links const& to);

// The billing terms (render::billing_json) as a "## Billing" section: the sheet's and the methodology's.
std::string billing_section(boost::json::object const& billing, language l);

}
