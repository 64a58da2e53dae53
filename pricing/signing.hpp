#pragma once

#include "calendar.hpp"
#include "sheet.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lcg::pricing {

// The first line of signed_bytes: names the format, so a later one can change without ambiguity.
inline constexpr std::string_view signed_bytes_format = "lowcostgpu-sheet-v1";

// The exact bytes a sheet's Ed25519 signature covers: UTF-8 text, one "name value" line each, "\n"
// line ends (the last line too), built from the sheet's published JSON alone:
//
//   lowcostgpu-sheet-v1
//   week 2026-W49
//   effective_from 2026-11-30T00:00:00Z
//   effective_until 2026-12-07T00:00:00Z
//   published_at 2026-11-30T00:00:04Z
//   rules_version 1
//   inputs_sha256 <64 hex>
//   observations 412
//   row <gpu> <available> <observations> <median> <cap> <on_demand> <spot> <reserved> <headroom> <reason>
//   …one row line per model, in the sheet's order
//
// Row fields are separated by one space; <available> is "true" or "false"; a figure the row does
// not publish is "-"; <reason> is the rest of the line ("-" for a priced row). Every figure is the
// decimal string the JSON carries (published_figures). Nothing is escaped: no field holds a line break.
std::string signed_bytes(price_sheet const& sheet);

// The value of one of the lines before the rows ("week", "published_at", …) in a sheet's signed
// bytes, or nothing when they have no such line: what a reader of the publication log compares an
// entry with, read by the same format that writes the bytes.
std::optional<std::string_view> signed_header(std::string_view bytes, std::string_view name);

// The signed items as the sheet's JSON publishes them (strings as they appear there), so that the
// bytes can be rebuilt from a published document alone, as an auditor does.
struct signed_row {
    std::string gpu;
    bool available = false;
    int observations = 0;
    row_figures figures;  // empty strings for figures the row lacks
    std::string reason;   // empty on a priced row
};
struct signed_content {
    std::string week;
    std::string effective_from;
    std::string effective_until;
    std::string published_at;
    int rules_version = 0;
    std::string inputs_sha256;
    int observations = 0;
    std::vector<signed_row> rows;
};
signed_content signed_content_of(price_sheet const& sheet);
std::string signed_bytes(signed_content const& content);

// The catalog (models and their names, memory and limits, regions, inventory, sources) and the
// index of published sheets are signed too, so that a mirror shows nothing its upstream could have
// changed, withheld or rolled back: `publish` and `sign` write the /v1/catalog document
// (render::catalog_document) and sign these bytes about it and about every sheet then published:
//
//   lowcostgpu-catalog-v1
//   signed_at 2026-11-30T00:00:04Z
//   catalog_sha256 <64 hex: the SHA-256 of the /v1/catalog document's bytes>
//   catalog_bytes <the document's length in bytes>
//   sheet <week> <published_at> <inputs_sha256> <the inputs CSV's length in bytes>
//   …one sheet line per published week, oldest first
//
// The lengths come before the documents: a verifier bounds each download by a signed figure.
inline constexpr std::string_view catalog_bytes_format = "lowcostgpu-catalog-v1";

// One published sheet as the signed index lists it.
struct indexed_sheet {
    iso_week week;
    instant published_at;
    std::string inputs_sha256;
    std::uint64_t inputs_bytes = 0;
    bool operator==(indexed_sheet const&) const = default;
};

struct catalog_signature {
    instant signed_at;
    std::string catalog_sha256;
    std::uint64_t catalog_bytes = 0;
    std::vector<indexed_sheet> sheets;  // oldest first
    std::string key_id;
    std::string signature;  // base64 Ed25519 over signed_bytes(*this)
    bool operator==(catalog_signature const&) const = default;

    indexed_sheet const* find(iso_week week) const;
};
std::string signed_bytes(catalog_signature const& signature);

// The catalog document with its signature, as the database keeps it and /v1/catalog serves it.
struct signed_catalog {
    std::string document;
    catalog_signature signature;
    bool operator==(signed_catalog const&) const = default;
};

// A public key the service signs sheets with, and the window of publication times it covers:
// a sheet verifies with the key its key_id names only if valid_from <= published_at < valid_until.
struct public_key {
    std::string key_id;          // first 16 hex digits of SHA-256 of the raw 32-byte Ed25519 key
    std::string public_key_pem;  // "-----BEGIN PUBLIC KEY-----…" (SubjectPublicKeyInfo)
    instant valid_from;
    std::optional<instant> valid_until;  // empty: still in use

    bool covers(instant t) const { return valid_from <= t && (!valid_until || t < *valid_until); }
};

// A sheet is published once its week's observation window has closed, at or after its
// effective_from (the window's end). A published_at before that is a sheet signed before its inputs
// were complete, or one backdated into the window of a key since retired: publish never writes one
// and every verifier refuses it. published_at is among the signed bytes, so it cannot be moved
// without a new signature.
inline bool published_in_time(instant effective_from, instant published_at) { return published_at >= effective_from; }

// How late a sheet of `week` published at `published_at` was: zero when it was published on its
// Monday (rules::publication_grace_seconds), else the time since its Monday. A sheet filled in
// afterwards (a backfill) is late by weeks, and says so.
std::chrono::seconds publication_delay(iso_week week, instant published_at);

// One version of a week's sheet as the publication log holds it (DESIGN §10): its entry's index,
// what the entry records (a publication, a correction, a signature), when the version was
// published and when it was logged, and a correction's reason.
struct sheet_version {
    std::uint64_t log_index = 0;
    std::string kind;
    instant published_at;
    instant logged_at;
    std::string reason;
    bool operator==(sheet_version const&) const = default;
};
// Every logged version of a week, oldest first, and how late its first publication was.
struct publication_record {
    std::vector<sheet_version> versions;
    std::chrono::seconds late_by{0};
    bool corrected() const;
    bool operator==(publication_record const&) const = default;
};

// Every key the service has published, old ones included, so that old sheets keep verifying.
struct key_ring {
    std::vector<public_key> keys;

    public_key const* find(std::string_view key_id) const;
};

}
