#pragma once

#include "glossary/document.hpp"
#include "locale/language.hpp"

#include "pricing/catalog.hpp"
#include "pricing/sheet.hpp"
#include "pricing/signing.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace lcg::api {

// A document of the public API as the HTTP endpoint serves it (the same bytes).
struct document_ref {
    std::string_view mime_type;
    std::string_view text;
};

// The publication log (DESIGN §10) as the proofs need it; hashes are base64, as checkpoints write
// them. server/ computes them over the snapshot's Merkle tree (RFC 6962).
class log_view {
public:
    virtual ~log_view() = default;
    virtual std::uint64_t size() const = 0;
    virtual std::string origin() const = 0;  // "" before the first signed checkpoint
    virtual std::string entry(std::uint64_t index) const = 0;
    virtual std::string leaf_hash(std::uint64_t index) const = 0;
    virtual std::string root_hash(std::uint64_t size) const = 0;
    // index < size ≤ size(); 0 < old_size ≤ size ≤ size().
    virtual std::vector<std::string> inclusion_proof(std::uint64_t index, std::uint64_t size) const = 0;
    virtual std::vector<std::string> consistency_proof(std::uint64_t old_size, std::uint64_t size) const = 0;
};

// What the operations (and the MCP core) read: one consistent, immutable state of the service. server/ implements it over
// a snapshot; the tests over values built by hand. Every reference it returns stays valid for as
// long as the view lives, and concurrent const calls must be safe.
class data_view {
public:
    virtual ~data_view() = default;

    virtual pricing::catalog const& catalog() const = 0;
    // The sheet in effect, or null before the first one takes effect.
    virtual pricing::price_sheet const* current_sheet() const = 0;
    // Every published sheet, oldest first.
    virtual std::span<const pricing::price_sheet> sheets() const = 0;
    // The glossary in `lang`, its live figures resolved from the current sheet; null when it cannot
    // be resolved, with the reason in glossary_problem().
    virtual glossary::document const* glossary(locale::language lang) const = 0;
    virtual std::string_view glossary_problem() const = 0;
    // A pre-rendered document of the HTTP API by the URL that names it in its format: "/v1/prices"
    // (JSON), "/v1/prices.md", "/v1/gpus/h100-sxm", "/v1/glossary?lang=en", "/v1/glossary/gpu-hour.md?lang=fr"
    // (render::url_in). Empty when nothing is published there.
    virtual std::optional<document_ref> document(std::string_view path) const = 0;
    // The publication log; null where there is none (a view built by hand, an upstream without one).
    virtual log_view const* log() const { return nullptr; }
    // The versions the log holds of a week's sheet (a sheet's `publication` member); null when none.
    virtual pricing::publication_record const* publication(pricing::iso_week) const { return nullptr; }
};

}
