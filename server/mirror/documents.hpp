#pragma once

#include "pricing/calendar.hpp"
#include "pricing/catalog.hpp"
#include "pricing/signing.hpp"
#include "pricing/listing_mapping.hpp"
#include "pricing/outcome.hpp"
#include "pricing/sheet.hpp"

#include <string>
#include <string_view>
#include <vector>

// Domain values read back from another instance's public JSON documents: the reverse of render/'s
// shapes, for a mirror. Money comes from decimal strings into exact integers; nothing is rounded, and
// a figure that does not follow from the others is refused rather than recomputed.
namespace lcg::mirror {

// The catalog from the body of /v1/catalog (render::catalog_document): its members are the bodies
// of /v1/gpus, /v1/regions, /v1/inventory and /v1/sources. Whether it is the signed one is the
// caller's check (its hash and length against trust::parse_catalog_signature's).
pricing::outcome<pricing::catalog> parse_signed_catalog(std::string_view document);

// One entry of /v1/sheets: enough to tell whether a sheet is the one already held.
struct listed_sheet {
    pricing::iso_week week;
    pricing::instant published_at;
    std::string inputs_sha256;
};
pricing::outcome<std::vector<listed_sheet>> parse_sheet_index(std::string_view sheets);

// A sheet from the body of /v1/sheets/{week}. Each row's median must be a whole number of half
// micro-dollars, its rates whole mills, and its cap and headroom exactly what those give; the week
// must be the one its dates say. Whether the figures follow from the inputs is check_sheet's question.
pricing::outcome<pricing::price_sheet> parse_sheet(std::string_view sheet);

// The raw files of `week` from the body of /v1/sheets/{week}/sources (render::raw_inputs_json): each
// named by its SHA-256 at the path that name gives, and of that week. Whether the bytes hash to the
// names is checked when they are read.
pricing::outcome<std::vector<pricing::raw_input>> parse_raw_inputs(std::string_view sources, pricing::iso_week week);

}
