#pragma once

#include "calendar.hpp"
#include "money.hpp"
#include "outcome.hpp"

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace lcg::pricing {

// One on-demand listing's per-GPU hourly price, seen on the public marketplace.
struct observation {
    instant observed_at;
    std::string gpu;
    money price;
    std::string source;
    std::string listing_id;  // may be empty
    std::string source_url;  // the public listing it was seen on (http or https); may be empty
};

inline constexpr std::string_view observations_csv_header = "observed_at,gpu,price_per_gpu_hour,source,listing_id";
// The same with the optional provenance column, accepted on import and written in the canonical
// CSV only when some observation has a source_url (so inputs without one keep their bytes and hash).
inline constexpr std::string_view observations_csv_header_with_urls =
    "observed_at,gpu,price_per_gpu_hour,source,listing_id,source_url";
inline constexpr std::size_t max_source_url = 2048;
inline constexpr std::size_t max_listing_id = 128;
// The longest line of an observations CSV that is read: every field at its longest and quoted
// takes a few kilobytes, so a longer line is refused (and a reader keeps no more of it than this).
inline constexpr std::size_t max_csv_line_bytes = 64 * 1024;

// A listing id as every reader of inputs takes it, an observations CSV's or a market file's: at most
// max_listing_id characters of UTF-8 without control characters, so that the canonical CSV holds
// it on one line and the audit reads back what was published.
bool is_listing_id(std::string_view id);
// What is_listing_id asks, in words, for a refusal.
std::string listing_id_rule();

// Empty, or an http:// or https:// URL with a host, at most 2048 bytes of visible ASCII (spaces,
// control characters and other bytes are refused: percent-encode them).
bool is_valid_source_url(std::string_view url);

// A refused line of an observations CSV, numbered from 1 (the header is line 1).
struct csv_problem {
    long line = 0;
    std::string reason;
};

// Reads an observations CSV one line at a time (so a million-row import keeps memory flat) and
// collects every problem; the caller imports nothing unless problems() is empty at the end.
// `is_known_gpu` answers whether an id is in the catalog.
class observation_csv_reader {
public:
    static constexpr std::size_t problems_kept = 20;

    explicit observation_csv_reader(std::function<bool(std::string_view)> is_known_gpu);

    // Feeds the next line without its line end (a trailing '\r' is removed). Returns the parsed
    // observation for a good data line, nothing for the header, a blank last line or a bad line
    // (one longer than max_csv_line_bytes among them: a caller may hand over only its first
    // max_csv_line_bytes + 1 bytes).
    std::optional<observation> read_line(std::string_view line);
    // Call once after the last line: reports a missing header.
    void finish();

    long lines_read() const { return line_; }
    long bad_lines() const { return bad_lines_; }
    std::vector<csv_problem> const& problems() const { return problems_; }  // the first 20
    bool ok() const { return bad_lines_ == 0; }

private:
    void refuse(std::string reason);
    void refuse_at(long line, std::string reason);

    std::function<bool(std::string_view)> is_known_gpu_;
    long line_ = 0;
    long bad_lines_ = 0;
    bool header_seen_ = false;
    std::size_t columns_ = 5;  // 6 when the header names source_url
    long blank_line_ = 0;
    std::vector<csv_problem> problems_;
};

// A whole observations CSV held in memory (a sheet's published inputs), read with the reader above.
struct parsed_observations {
    std::vector<observation> observations;
    std::vector<csv_problem> problems;  // the first 20
    long bad_lines = 0;
    bool ok() const { return bad_lines == 0; }
};
parsed_observations parse_observations_csv(std::string_view csv, std::function<bool(std::string_view)> is_known_gpu);

// Appends `field` as one CSV field: as it is, or in double quotes (inner quotes doubled) when it
// holds a comma, a quote or a line break. The one CSV quoting rule, for inputs and every table.
void append_csv_field(std::string& out, std::string_view field);

// Splits one CSV record (RFC 4180 quoting, no embedded line breaks). Nothing when quoting is broken
// or the record has more than rules::max_csv_fields fields.
std::optional<std::vector<std::string>> split_csv_record(std::string_view line);

// The canonical CSV of a sheet's inputs (DESIGN §7): header, rows sorted by gpu, observed_at, price,
// listing_id; prices with exactly 6 decimals; "\n" line ends. Its SHA-256 is published in the sheet.
// The source_url column is there only when at least one observation has a source_url.
std::string canonical_observations_csv(std::span<const observation> observations);
// The same bytes given to `sink` in pieces of about `piece_bytes`, never held whole (an audit hashes
// them as they come).
void write_canonical_observations_csv(std::span<const observation> observations,
                                      std::function<void(std::string_view)> const& sink,
                                      std::size_t piece_bytes = 64 * 1024);
void sort_canonically(std::vector<observation>& observations);
// The canonical order itself: gpu, observed_at, price, listing_id, then source and source_url only
// to make the order total.
bool canonically_before(observation const& a, observation const& b);
// Appends the line the canonical CSV holds for `o`, "\n" included; `with_urls` when the CSV has
// the source_url column.
void append_canonical_line(std::string& out, observation const& o, bool with_urls);

}
