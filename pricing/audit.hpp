#pragma once

#include "inputs_tally.hpp"
#include "observation.hpp"
#include "sheet.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace lcg::pricing {

// A row as a sheet published it, read back from its JSON.
struct published_row {
    std::string gpu;
    bool available = false;
    int observations = 0;
    row_figures figures;
    std::string reason;  // why an unpriced row is not priced
    // Rules version 2: the row's sources and market as published (empty on a version 1 sheet).
    int sources = 0;
    market_figures market;
    std::vector<source_figures> by_source;
};

// A computed row as the sheet publishes it (what a parsed sheet claims, for audit_rows).
published_row as_published(sheet_row const& row);

struct row_audit {
    std::string gpu;
    std::vector<std::string> differences;  // empty: every published figure is what the rules give
    bool ok() const { return differences.empty(); }
};

struct sheet_audit {
    std::vector<row_audit> rows;
    std::vector<std::string> problems;  // sheet-level: inputs for models the sheet does not list, …
    bool ok() const;
};

// Whether `text` is a SHA-256 as the service writes it: 64 lower-case hex digits. Also what keeps a
// hash taken from a document from naming a path (a raw input is found by its hash).
bool is_sha256_hex(std::string_view text);

// A sheet as published, read back from its JSON: its rows and what it states about itself.
struct published_sheet {
    std::string week;
    std::string effective_from;
    std::string effective_until;
    std::string inputs_sha256;
    int observations = 0;
    int priced_models = 0;
    int rules_version = 1;  // the sheet is audited by the rules it names
    std::vector<published_row> rows;
};

// Checks every published rule of a sheet against its inputs (`inputs`, the tally of its CSV's bytes,
// made with the sheet's week and finished): recomputes every row with the published rules and
// compares each figure, checks from the published strings alone that on-demand ≤ 0.70 × median,
// that spot and reserved are their shares of it, that a priced row has enough observations and an
// unpriced one the rules' reason; and the week, its effective dates (the week's Monday to the next
// Monday), that every observation lies in the window before that Monday, the sheet's counts, the
// form of inputs_sha256 (whether the bytes hash to it is the caller's check) and that the bytes are
// the canonical CSV of the inputs.
sheet_audit audit_sheet(published_sheet const& sheet, inputs_tally const& inputs);

}
