#pragma once

#include "pricing/input_chunks.hpp"

#include "pricing/listing_mapping.hpp"
#include "pricing/sheet.hpp"

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace lcg::archive {

// Where the canonical observations CSV of published sheets is kept (PostgreSQL, or a mirror's
// upstream), read as it is stored: in chunks of whole lines (pricing::input_chunks). Both calls throw
// when the source cannot be read. Each archive thread makes its own with a source_factory and
// never shares it.
class source {
public:
    virtual ~source() = default;
    // The chunks' sizes and the header line; no chunks when nothing is stored for that publication.
    virtual pricing::input_layout layout(pricing::price_sheet const& sheet) = 0;
    // Chunk `seq` of that publication; "" when it is not stored (the week was republished since).
    virtual std::string chunk(pricing::price_sheet const& sheet, std::size_t seq) = 0;
    // The raw market files the sheet's observations were read from, in import order; none when
    // they were imported as a CSV.
    virtual std::vector<pricing::raw_input> raw_inputs(pricing::price_sheet const& sheet) = 0;
    // The bytes of one of those files or of a mapping they name, by SHA-256; nullopt when not stored.
    virtual std::optional<std::string> raw_bytes(pricing::price_sheet const& sheet, std::string const& sha256) = 0;
};
using source_factory = std::function<std::unique_ptr<source>()>;

// Sources of the inputs stored in PostgreSQL (table sheet_input_chunk), each over a connection of
// its own, opened when first needed and again after a failure, with `timeout` on connecting and on
// each query.
source_factory database_sources(std::string database_url, std::chrono::milliseconds timeout);

}
