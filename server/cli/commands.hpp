#pragma once

// The commands of lowcostgpu, one file each in server/cli/; server/main.cpp dispatches to them.
// Each returns the process's exit code; a mistake in the command line is a usage_error (exit 2).
#include "server/cli/arguments.hpp"

namespace lcg::cli {

// lowcostgpu migrate: applies the database migrations and reference data.
int run_migrate(arguments const& args);

// lowcostgpu import-observations FILE|-: a market observations CSV, all or nothing; 1 when refused.
int run_import_observations(arguments const& args);

// lowcostgpu import-listings --format F --source NAME --observed-at RFC3339 [--json] FILE|-
int run_import_listings(arguments const& args);

// lowcostgpu collect --sources FILE [--observed-at RFC3339] [--timeout S] [--total S] [--json]: fetches
// every source of FILE and imports each whole or not at all; 0 when every source was imported, 1 when
// any was not (each says why), 2 for a bad command line or sources file (nothing fetched).
int run_collect(arguments const& args);

// lowcostgpu export-inputs --week YYYY-Www --out DIR: a published sheet, its observations and the
// raw files and mappings they came from, for lowcostgpu audit --raw-inputs DIR/sources.json
int run_export_inputs(arguments const& args);

// lowcostgpu publish [--week YYYY-Www] [--replace [--reason TEXT]] [--signing-key FILE | --unsigned] …
int run_publish(arguments const& args);

// lowcostgpu sign --all [--resign] …: signs what is not signed (with --resign, what another key signed).
int run_sign(arguments const& args);

// lowcostgpu public-key [--signing-key FILE] [--valid-from TIME] [--keys KEYS.json]: prints the keys
// document with the signing key added, the keys still open closed at TIME.
int run_public_key(arguments const& args);

// lowcostgpu audit --url … | --observations FILE.csv --sheet FILE.json: 0 only if everything matches.
int run_audit(arguments const& args);

// lowcostgpu serve: serves HTTP and MCP until SIGINT or SIGTERM.
int run_serve(arguments const& args);

// lowcostgpu mcp: serves MCP over stdio until the end of standard input.
int run_mcp(arguments const& args);

}
