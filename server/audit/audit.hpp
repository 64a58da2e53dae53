#pragma once

#include "pricing/signing.hpp"
#include "server/client/http_client.hpp"

#include <optional>
#include <ostream>
#include <string>

namespace lcg::audit {

// Recomputes one published sheet (its JSON) from its canonical observations CSV, writing a
// row-by-row report. True only if the CSV's SHA-256 is the sheet's inputs_sha256, every published
// figure matches the rules, every on-demand rate is within the cap and, when `keys` are given, the
// sheet's signature verifies with them (check_signature); without keys the signature is not checked
// and the report says so.
bool audit_sheet(std::string const& sheet_json, std::string const& observations_csv, std::ostream& report,
                 pricing::key_ring const* keys = nullptr);

// Fetches and audits over HTTP (plain http://HOST[:PORT]). `week` empty means the sheet in effect;
// `all` audits every published week. Signatures are checked with `keys`, or when none are given
// with the keys the service publishes at /.well-known/lowcostgpu-keys.json. Throws
// std::runtime_error when the service cannot be read within `limits` (a stalled server, an
// oversized answer).
bool audit_service(std::string const& base_url, std::string const& week, bool all, client::limits const& limits,
                   std::ostream& report, std::optional<pricing::key_ring> keys = std::nullopt);

}
