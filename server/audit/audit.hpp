#pragma once

#include "pricing/signing.hpp"
#include "server/client/http_client.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <string>

namespace lcg::audit {

// The bound on a week's observations CSV when no verified signed index gives its length (a service
// that never signed its catalog, or a week its index does not list): generous, since the audit
// streams the CSV and keeps some 16 bytes of each row of about 70, and any bytes other than the
// published ones fail the SHA-256 check anyway; still a bound, so that a server cannot send forever.
inline constexpr std::uint64_t max_unsigned_inputs_bytes = 4ull * 1024 * 1024 * 1024;

// Hands the bytes of an observations CSV to `sink`, in order and in pieces of any size; throws when
// they cannot be read.
using inputs_reader = std::function<void(client::body_sink const& sink)>;

// What audit_sheet found, and the SHA-256 of the inputs it read (for audit_raw_inputs).
struct sheet_verdict {
    bool ok = false;
    std::string inputs_sha256;
    long observations = 0;        // that the inputs read hold
    std::string signed_sha256;    // of the signed bytes rebuilt from the sheet; empty when they cannot be
};

// Recomputes one published sheet (its JSON) from its canonical observations CSV, read as it streams
// from `read_inputs` and never held whole, writing a row-by-row report. Ok only if the CSV's
// SHA-256 is the sheet's inputs_sha256, every published figure matches the rules, every on-demand
// rate is within the cap and, when `keys` are given, the sheet's signature verifies with them
// (check_signature); without keys the signature is not checked and the report says so.
sheet_verdict audit_sheet(std::string const& sheet_json, inputs_reader const& read_inputs, std::ostream& report,
                          pricing::key_ring const* keys = nullptr);

// Fetches and audits over HTTP (plain http://HOST[:PORT]). `week` empty means the sheet in effect;
// `all` audits every published week. Signatures are checked with `keys`, or when none are given
// with the keys the service publishes at /.well-known/lowcostgpu-keys.json. Throws
// std::runtime_error when the service cannot be read within `limits` (a stalled server, an
// oversized answer). A week's observations CSV is bounded instead by the length the verified
// catalog signature gives for its inputs, or, when it gives none, by max_unsigned_inputs_bytes.
// The publication log is audited too (audit_log): against `log->previous`, a checkpoint this
// auditor accepted before, when given; `log->accepted` is the checkpoint once the audit passed.
struct log_memory {
    std::optional<std::string> previous;
    std::string accepted;
};
bool audit_service(std::string const& base_url, std::string const& week, bool all, client::limits const& limits,
                   std::ostream& report, std::optional<pricing::key_ring> keys = std::nullopt,
                   log_memory* log = nullptr);

}
