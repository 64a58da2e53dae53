#pragma once

#include <cstdint>
#include <functional>
#include <ostream>
#include <string>

// The second half of an audit (issue 24, item 5): from a sheet's raw market files, re-read with the
// mappings they were imported with, to the sheet's observations, byte for byte.
namespace lcg::audit {

// The raw files of a sheet as published: its sources document (render::raw_inputs_json, served at
// /v1/sheets/{week}/sources and written by export-inputs as sources.json) naming each file in import
// order,
//
//   {"week": "2030-W02", …,
//    "files": [{"source", "format", "memory_convention", "observed_at", "sha256", "bytes",
//               "mapping_sha256", "reader", "path"}, …],   (no "reader": revision 1)
//    "mappings": [{"sha256", "path"}, …]}
//
// and the files and mappings it names, read by `read` (`path`, always "sources/" and the SHA-256,
// relative to the document's folder: /v1/sheets/{week}/ or the export's), each no longer than
// `max_bytes` (the largest file an import takes: longer is an error the reader throws).
// True only if every file and mapping hashes to its SHA-256 and the listings they give, imported by
// the import's rules (the first listing of a source, listing id and time counts), are exactly the
// canonical observations CSV whose SHA-256 is `observations_sha256` (the hash of the bytes the
// sheet's audit read: the CSV itself is not held), of `observations` observations (the count those
// bytes hold: re-reading stops as soon as the raw files give more, so that what it holds is bounded
// by the sheet's own size). Writes what it checked to `report`.
using raw_reader = std::function<std::string(std::string const& path, std::uint64_t max_bytes)>;
bool audit_raw_inputs(std::string const& manifest, raw_reader const& read, std::string const& observations_sha256,
                      long observations, std::ostream& report);

}
