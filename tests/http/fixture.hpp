#pragma once

#include "server/trust/trust.hpp"

// A small deterministic snapshot built from synthetic data, no database: four catalog models (one
// unpriced this week), three regions, two published weeks, the current one 2026-W49 with the worked
// example of the methodology (H100 SXM median $2.400 → on-demand $1.680, spot $0.840, reserved
// $1.092). Its listings come from four synthetic sources (synthetic-alpha … synthetic-delta) and its
// sheets are computed by rules version 2, so every row has its market and every document built
// from it says it is sample data. Golden files are rendered from it, so they never change with the calendar.

#include "server/archive/archive.hpp"
#include "server/http/router.hpp"
#include "server/snapshot/snapshot.hpp"

#include <functional>
#include <map>
#include <memory>
#include <string>

namespace lcg::testing {

// The key the fixture's sheets are signed with (RFC 8032's first test key, never a key of the service).
trust::signing_key const& fixture_signing_key();

// 2026-12-02T12:00:00Z, a Wednesday of 2026-W49.
pricing::instant fixture_now();

// Built once per process.
std::shared_ptr<const snapshot::snapshot> fixture_snapshot();
// The same data as a server sees it at `now` (a week later, 2026-W49 has closed), built anew.
std::shared_ptr<const snapshot::snapshot> fixture_snapshot_on(pricing::instant now);
// The same data in a snapshot of an instance reached at `public_url` (serve --public-url), built anew.
std::shared_ptr<const snapshot::snapshot> fixture_snapshot_at(std::string public_url);
// The canonical CSV of a week of the fixture (2026-W48 or 2026-W49).
std::string const& fixture_inputs(pricing::iso_week week);
// What every week of text_sources lists as its one raw file (a SkyPilot CSV) and that file's mapping.
extern std::string const fixture_raw_file;
extern std::string const fixture_mapping;
// An archive source over whole CSVs that `csv_of` gives (empty: nothing stored), cut into chunks of
// about `chunk_bytes` by the rule of the database (pricing::input_chunks).
using csv_of_sheet = std::function<std::string(pricing::price_sheet const&)>;
archive::source_factory text_sources(csv_of_sheet csv_of, std::size_t chunk_bytes);
// An archive that reads the fixture's weeks from memory (fixture_request uses it), in chunks of
// about 512 bytes, so every week is sent in several parts.
inline constexpr std::size_t fixture_chunk_bytes = 512;
archive::archive& fixture_archive();

// The counters of the requests fixture_request makes (one set per test process, as a server has one).
ops::metrics& fixture_metrics();

// GET (or `method`) `target` with `headers` through http::handle on the fixture snapshot.
http::response fixture_request(std::string const& target, std::map<std::string, std::string> const& headers = {},
                               http::beast_http::verb method = http::beast_http::verb::get);
// The same through another snapshot, at `now`.
http::response fixture_request_on(std::shared_ptr<const snapshot::snapshot> snap, pricing::instant now,
                                  std::string const& target, std::map<std::string, std::string> const& headers = {},
                                  http::beast_http::verb method = http::beast_http::verb::get);

// A gzip member inflated; throws std::runtime_error when it is not one whole member whose CRC and
// length match what it holds.
std::string gunzip(std::string_view data);

// The file under tests/golden/, or empty when it does not exist.
std::string read_golden(std::string const& name);
// Compares `actual` with the golden file; LCG_UPDATE_GOLDEN=1 rewrites the file instead.
bool matches_golden(std::string const& name, std::string const& actual);

// A target for each route pattern of the table, with the parameters the route needs; nothing for
// a pattern the tests do not know yet (which fails the test that lists them).
std::optional<std::string> example_target(std::string_view pattern);

}
