#pragma once

#include "pricing/calendar.hpp"
#include "pricing/outcome.hpp"

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

// One entry of the transparency log: a publication of a sheet version. Its text is the leaf the
// Merkle tree hashes, so it is written once (entry_text) and stored byte for byte.
namespace lcg::tlog {

enum class entry_kind {
    publication,  // the first version of a week
    correction,   // a later version with other signed bytes (publish --replace)
    signature,    // the same signed bytes signed again (sign --all, a new key)
};
std::string_view to_string(entry_kind k);

// Every field is a line "name value" under the format line, in this order:
//
//   lowcostgpu-log-entry-v1
//   week 2026-W49
//   kind publication
//   published_at 2026-11-30T00:00:04Z      the sheet's, as signed
//   logged_at 2026-11-30T00:00:04Z         when this entry was appended: the real time of the event
//   signed_sha256 <64 hex>                 of the version's signed bytes (/v1/sheets/{week}/signed.txt)
//   inputs_sha256 <64 hex>
//   key_id <16 hex, or "-" when published unsigned>
//   reason <one line of text, or "-">
struct log_entry {
    pricing::iso_week week;
    entry_kind kind = entry_kind::publication;
    pricing::instant published_at;
    pricing::instant logged_at;
    std::string signed_sha256;
    std::string inputs_sha256;
    std::string key_id;
    std::string reason;
};

inline constexpr std::string_view entry_format = "lowcostgpu-log-entry-v1";
inline constexpr std::size_t max_reason_bytes = 500;

std::string entry_text(log_entry const& e);
// Reads an entry back strictly: the exact text entry_text writes, or an error naming the line.
pricing::outcome<log_entry> parse_entry(std::string_view text);
// Reads every entry of a log, in order, or says which one is malformed ("entry 3: …").
pricing::outcome<std::vector<log_entry>> parse_entries(std::span<const std::string> texts);

// An entry as the store keeps it and the server publishes it: its text and the version of the
// sheet it logged (signed bytes, key, signature), so an earlier version stays readable.
struct logged_version {
    std::string entry;
    std::string signed_bytes;
    std::string key_id;
    std::string signature;
    bool operator==(logged_version const&) const = default;
};

// The kind an entry must have, given the signed bytes' SHA-256 of the entry logged before it for the
// same week (none: it is the week's first): the week's first is its publication, one with the same
// bytes a signing of them again, one with other bytes a correction. The one rule the store appends
// by and every reader of a log (audit, mirror) checks it by.
entry_kind kind_following(std::optional<std::string_view> previous_signed_sha256, std::string_view signed_sha256);

// The first of `entries` (the log's, in order) whose kind is not the one kind_following gives it,
// said in words, or nothing: an entry that called a correction a re-signing would hide a rewrite.
std::optional<std::string> kind_problem(std::span<const log_entry> entries);

// Why a version's signed bytes (pricing::signed_bytes) are not the version its entry describes (the
// week, the time of publication and the inputs their own lines give), or nothing when they are:
// an entry whose published_at says Monday over bytes that say Thursday would hide a late sheet.
std::optional<std::string> version_problem(log_entry const& e, std::string_view signed_bytes);

// A correction's reason as an entry holds it: one line of printable text, at most 500 bytes; the
// error says why not.
pricing::outcome<std::string> checked_reason(std::string_view reason);

}
