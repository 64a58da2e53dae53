#pragma once

// The commands of lowcostgpu that live in a file of their own (the others are still in main.cpp).
#include "server/cli/arguments.hpp"

namespace lcg::cli {

// lowcostgpu import-listings --format F --source NAME --observed-at RFC3339 [--json] FILE|-
int run_import_listings(arguments const& args);

// lowcostgpu collect --sources FILE [--observed-at RFC3339] [--timeout S] [--total S] [--json]: fetches
// every source of FILE and imports each whole or not at all; 0 when every source was imported, 1 when
// any was not (each says why), 2 for a bad command line or sources file (nothing fetched).
int run_collect(arguments const& args);

// lowcostgpu export-inputs --week YYYY-Www --out DIR: a published sheet, its observations and the
// raw files and mappings they came from, for lowcostgpu audit --raw-inputs DIR/sources.json
int run_export_inputs(arguments const& args);

}
