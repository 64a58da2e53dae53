#pragma once

// The keys of lowcostgpu's commands, loaded in one place: the Ed25519 signing key (of the sheets,
// the catalog and the publication log's checkpoints; of a witness's cosignatures) and the public
// keys documents, with the signers the store and the log take.
#include "server/cli/arguments.hpp"
#include "server/store/database.hpp"
#include "server/tlog/note.hpp"
#include "server/trust/trust.hpp"

#include "pricing/signing.hpp"

#include <optional>
#include <string>

namespace lcg::cli {

// The instant a command signs or publishes at: now, to the second.
pricing::instant now();

// The Ed25519 private key in `pem`; a usage_error "`from`: why" when it is not one.
trust::signing_key signing_key_from_pem(std::string const& pem, std::string const& from);
// The private key sheets are signed with: --signing-key FILE, else LCG_SIGNING_KEY_FILE, else
// LCG_SIGNING_KEY (the PEM itself); nullopt when none is configured (never read from the database).
std::optional<trust::signing_key> configured_signing_key(arguments const& args);
// The public keys document at `path`; a usage_error when it cannot be read or parsed.
pricing::key_ring read_key_ring(std::string const& path);
// Refuses (a usage_error) a signing key the public keys (--public-keys, LCG_PUBLIC_KEYS_FILE) do
// not list as valid at `at`; without a keys document there is nothing to check against.
void check_key_in_use(arguments const& args, trust::signing_key const& key, pricing::instant at);

// A signed-note signer named `name` over an Ed25519 key (tlog::note_signer wants raw signatures).
tlog::note_signer note_signer_of(std::string name, trust::signing_key const& key);
// How the log's checkpoints are signed: by `key` under --log-origin (LCG_LOG_ORIGIN) on the first
// signed publication, the log's own ever after; unsigned without a key.
store::log_signing log_signing_of(arguments const& args, std::optional<trust::signing_key> const& key,
                                  std::string reason = {});
store::sheet_signer signer_of(trust::signing_key const& key);
// Signs the /v1/catalog document of a catalog and the sheet index as of `at`.
store::catalog_signer catalog_signer_of(trust::signing_key const& key, pricing::instant at);

}
