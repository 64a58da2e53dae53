#pragma once

#include "server/client/http_client.hpp"

#include <ostream>
#include <string>

namespace lcg::audit {

// Recomputes one published sheet (its JSON) from its canonical observations CSV, writing a
// row-by-row report. True only if the CSV's SHA-256 is the sheet's inputs_sha256, every published
// figure matches the rules and every on-demand rate is within the cap.
bool audit_sheet(std::string const& sheet_json, std::string const& observations_csv, std::ostream& report);

// Fetches and audits over HTTP (plain http://HOST[:PORT]). `week` empty means the sheet in effect;
// `all` audits every published week. Throws std::runtime_error when the service cannot be read
// within `limits` (a stalled server, an oversized answer).
bool audit_service(std::string const& base_url, std::string const& week, bool all, client::limits const& limits,
                   std::ostream& report);

}
