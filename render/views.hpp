#pragma once

#include "render/format.hpp"
#include "render/html.hpp"

#include <boost/json/object.hpp>

#include <string>

// How each kind of resource is written in the formats other than JSON. The snapshot uses these to
// pre-render its documents and the HTTP handlers to render computed bodies, so both write a
// resource the same way.
namespace lcg::render {

using markdown_writer = std::string (*)(boost::json::object const&, links const&);
using csv_writer = std::string (*)(boost::json::object const&);
// A schema.org description of the document as JSON-LD, which its HTML page carries in <head>.
using linked_data_writer = boost::json::object (*)(boost::json::object const&);

struct view {
    markdown_writer markdown = nullptr;
    csv_writer csv = nullptr;  // only table resources have one
    linked_data_writer linked_data = nullptr;  // only datasets have one
    format_set formats() const;
};

extern view const sheet_view;         // /v1/prices, /v1/sheets/{week}
extern view const price_view;         // /v1/prices/{gpu}
extern view const catalog_view;       // /v1/gpus
extern view const gpu_view;           // /v1/gpus/{gpu}
extern view const price_history_view;  // /v1/prices/{gpu}/history
extern view const history_table_view;  // /v1/history
extern view const sheet_index_view;   // /v1/sheets
extern view const observations_view;  // /v1/sheets/{week}/observations (its CSV is the canonical file)
extern view const methodology_view;
extern view const regions_view;
extern view const sources_view;
extern view const raw_inputs_view;  // /v1/sheets/{week}/sources
extern view const inventory_view;
extern view const glossary_view;
extern view const glossary_entry_view;
extern view const estimate_view;
extern view const sizing_view;
extern view const comparison_view;
extern view const instance_check_view;
extern view const cheapest_view;        // /v1/cheapest
extern view const quote_check_view;     // /v1/quotes/verify
extern view const transfer_view;        // /v1/transfer
extern view const rent_vs_buy_view;     // /v1/rent-vs-buy
extern view const log_proof_view;       // /v1/log/proof
extern view const index_view;           // "/"

// `doc` in format `f`: JSON (to_text), Markdown or an HTML page of that Markdown, both in the
// language of `where` and, when the document's `sample` is true, with the synthetic sample data
// banner under the title; or CSV. Precondition: f is json or one of v.formats().
std::string write(format f, view const& v, boost::json::object const& doc, page const& where);

}
