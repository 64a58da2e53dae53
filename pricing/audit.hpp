#pragma once

#include "observation.hpp"
#include "sheet.hpp"

#include <string>
#include <vector>

namespace lcg::pricing {

// A row as a sheet published it, read back from its JSON.
struct published_row {
    std::string gpu;
    bool available = false;
    int observations = 0;
    row_figures figures;
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

// Recomputes every row from the published inputs with the published rules and compares each
// figure, and checks independently, from the published strings alone, that on-demand ≤ 0.70 × median.
sheet_audit audit_rows(std::vector<published_row> const& published, std::vector<observation> const& inputs);

}
