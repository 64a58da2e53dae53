#pragma once

#include "pricing/catalog.hpp"
#include "pricing/inventory.hpp"
#include "pricing/listing_mapping.hpp"
#include "pricing/observation.hpp"
#include "pricing/sheet.hpp"
#include "pricing/signing.hpp"

#include "render/language.hpp"

#include <boost/json/value.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace lcg::render {

// JSON documents of the public API, built from domain values. Money is always a decimal string.
// Those with notes in prose take a language: only those strings change with it, never a member,
// a number or a money string, so the document has the same shape in every language. Defined by
// what they describe: json.cpp (the sheet), catalog_json.cpp, history_json.cpp, inputs_json.cpp.

// Parts shared by several documents: a datasheet figure {"value", "confirmed"} (a decimal string,
// so no digit is lost or invented) and a list of strings.
boost::json::object figure_json(pricing::figure const& f);
boost::json::value optional_figure_json(std::optional<pricing::figure> const& f);  // null when absent
boost::json::array string_array(std::vector<std::string> const& items);

// Whether a document built from `sheet` (none: false), or from any of `sheets`, shows synthetic
// sample data (pricing::price_sheet::is_sample): its `sample` member, and the banner on its pages.
bool is_sample(pricing::price_sheet const* sheet);
bool any_sample(std::span<const pricing::price_sheet> sheets);

// A model's line: its figures (pricing::published_figures) and, on a rules version 2 row with
// listings, `listings`, `sources`, `market` {min, p25, median, p75, max} and `by_source`.
boost::json::object sheet_row_json(pricing::sheet_row const& row, pricing::gpu_model const* model);
// With `record` (the versions the publication log holds of its week), a `publication` member:
// publication_json.
boost::json::object sheet_json(pricing::price_sheet const& sheet, pricing::catalog const& catalog,
                               language lang = language::en, pricing::publication_record const* record = nullptr);
// The same sheet with only the rows selected (pricing::select_prices), in their order: the body of
// /v1/prices with filters. The sheet-wide figures (observations, priced_models) stay the sheet's.
boost::json::object sheet_json(pricing::price_sheet const& sheet, pricing::catalog const& catalog,
                               std::span<const pricing::sheet_row* const> rows, language lang = language::en,
                               pricing::publication_record const* record = nullptr);
// {"late_by_seconds" (0 when published on its Monday), "corrected", "versions": [{"log_index",
//  "kind", "published_at", "logged_at", "reason" (or null), "signed_bytes" (where that version
//  stays readable)}]}, oldest version first.
boost::json::object publication_json(pricing::publication_record const& record);
// One model's price on a sheet, with the sheet's identity: the body of /v1/prices/{gpu}.
boost::json::object price_json(pricing::price_sheet const& sheet, pricing::sheet_row const& row,
                               pricing::gpu_model const* model);
// A catalog model with its row of `current` (the sheet in effect, if any) as `prices`.
boost::json::object gpu_json(pricing::gpu_model const& model, pricing::price_sheet const* current, language lang);
boost::json::object catalog_json(pricing::catalog const& catalog, pricing::price_sheet const* current, language lang);

// /v1/sheets: every published week, newest first, with `current` naming the sheet in effect.
boost::json::object sheet_index_json(std::vector<pricing::price_sheet> const& sheets, pricing::price_sheet const* current,
                                     std::map<pricing::iso_week, pricing::publication_record> const* publications = nullptr);
// /v1/prices/{gpu}/history: every published week of one model, oldest first, each week's figures
// those of its sheet, with the change of each rate from the week before.
boost::json::object price_history_json(std::span<const pricing::price_sheet> sheets, pricing::gpu_model const& model);
// /v1/history: one tier's rate of every model in every published week (a wide table, weeks down,
// models across), oldest week first; null where a model was not priced.
boost::json::object history_table_json(std::span<const pricing::price_sheet> sheets, pricing::catalog const& catalog,
                                       pricing::tier tier);
// /v1/sheets/{week}/observations: the inputs of a sheet, in canonical order, as JSON text. Written
// straight into the string (a week holds hundreds of thousands of observations: a Boost.JSON tree
// of them would take several times the text's memory), and in parts, so a week is sent as its
// stored chunks are read: the first part begins the document (`count`, the observations of all
// the parts, is among its first members), each part adds its observations after those of the
// parts before, the last ends it. A part both first and last is the whole document.
struct text_part {
    bool first = true;
    bool last = true;
};
std::string observations_text(pricing::price_sheet const& sheet, std::size_t count,
                              std::span<const pricing::observation> observations, text_part where = {});
// What the Markdown and HTML of those inputs show (observations_view): the same leading members,
// then, instead of every observation, each model's count and lowest and highest price, by model id.
// Tallied a chunk of observations at a time, so a page of a week of millions of rows holds one
// chunk and a line per model, never the week.
class observations_summary {
public:
    void add(std::span<const pricing::observation> observations);
    boost::json::object json(pricing::price_sheet const& sheet) const;

private:
    struct range {
        std::int64_t count = 0;
        pricing::money low, high;
    };
    std::map<std::string, range, std::less<>> ranges_;
    std::size_t count_ = 0;
};
// /v1/sheets/{week}/sources: the raw market files the sheet's observations were read from, in
// import order, each with its source, format, memory convention, time, SHA-256, size, the mapping
// it was read with and its `path` ("sources/SHA256", relative to /v1/sheets/{week}/, where its
// bytes are served), and the mappings they name (`sha256`, `path`). Empty for a sheet whose
// observations were imported as CSV. `lowcostgpu export-inputs` writes this same document.
boost::json::object raw_inputs_json(pricing::price_sheet const& sheet, std::span<const pricing::raw_input> files);
boost::json::object regions_json(pricing::catalog const& catalog, language lang = language::en);
// The market sources the methodology counts, by name: each one's name, kind (marketplace, cloud or
// synthetic), homepage (null for a synthetic source) and the format its listings are read in.
boost::json::array sources_list_json(std::span<const pricing::market_source> sources);
// /v1/sources: the rules version, how sources count (every constant from pricing/rules.hpp), and
// sources_list_json of the catalog's sources.
boost::json::object sources_json(pricing::catalog const& catalog, language lang = language::en);
// /v1/inventory: free GPUs per model and region, of the models and regions `query` keeps.
boost::json::object inventory_json(pricing::catalog const& catalog, pricing::inventory_query const& query = {},
                                   language lang = language::en);
// The billing terms that, with the per-GPU rates, answer "what will I pay".
boost::json::object billing_json(language lang = language::en);

// /.well-known/lowcostgpu-keys.json: the public keys sheets are signed with, with their validity
// windows (trust::parse_key_ring reads this shape back, and `serve --public-keys FILE` takes it).
boost::json::object public_key_json(pricing::public_key const& key);
boost::json::object keys_json(pricing::key_ring const& ring);

// /v1/catalog: what `publish` and `sign` sign of the catalog, the members of /v1/gpus (without
// prices), /v1/regions, /v1/inventory and /v1/sources in English, as text: its bytes are hashed.
std::string catalog_document(pricing::catalog const& catalog);
// /v1/catalog/signature: the signature of /v1/catalog and of the sheet index, with the exact bytes
// it covers.
boost::json::object catalog_signature_json(pricing::catalog_signature const& signature);

// An RFC 9457 problem document. `extra` members (for example the valid ids) are merged in.
boost::json::object problem_json(int status, std::string const& title, std::string const& detail,
                                 boost::json::object extra = {});

std::string to_text(boost::json::value const& v);  // compact serialisation plus a final newline
// The same for an object, without first copying it into a value.
std::string to_text(boost::json::object const& o);

}
