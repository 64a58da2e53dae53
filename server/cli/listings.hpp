#pragma once

// What import-listings and collect share: how the store reads a raw file of market offers, and how
// an import's counts are shown (text and the JSON object of import-listings --json).
#include "server/market/offers.hpp"
#include "server/store/database.hpp"

#include <boost/json/object.hpp>

#include <string>
#include <string_view>

namespace lcg::cli {

// A listings_file's `read`: `bytes` in `format`, under the memory convention market_source names for
// the source. It reads `bytes` when called, so they must outlive it (pass the file's own bytes).
decltype(store::listings_file::read) offers_reader(market::offer_format format, std::string_view bytes);

// "408 rows: 123 imported, 0 duplicate, 10 not_gpu, 5 no_price, 200 not_in_catalog, 70 ambiguous"
std::string counts_text(store::listing_import_summary const& s);

// {"source", "format", "observed_at", "sha256", "raw_file_new", "rows", a count per outcome,
// "reasons": [{"outcome", "reason", "rows"}]}
boost::json::object summary_json(store::listings_file const& file, store::listing_import_summary const& s);

}
