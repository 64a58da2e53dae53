#pragma once

// The publish use case: what `lowcostgpu publish` decides before the store writes anything.
#include "server/store/database.hpp"

#include "pricing/calendar.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace lcg::cli {

// A model a published sheet does not price although it was observed, and the rule that refused it.
struct refused_model {
    std::string gpu;
    int observations = 0;
    std::string reason;
};

struct publish_summary {
    pricing::iso_week week;
    std::vector<refused_model> refused;  // observed but not priced, in catalog order
    int priced_models = 0;
    int models = 0;
    int observations = 0;
    std::string inputs_sha256;
    std::string key_id;  // empty when published unsigned
    bool replaced = false;
    bool catalog_signed = false;  // a changed catalog was signed with the sheet
    std::uint64_t log_size = 0;   // the publication log's size after it
};

// Computes the sheet of `week` from its observations, refuses it when its observation window is
// still open at `now` or when a rate is above the cap (store::store_error, refused), signs it
// (unless `sign` is empty) and has the store write it in the transaction that read its inputs.
// With `sign_catalog`, the catalog is signed in the same transaction unless the newest signed
// catalog is already the same document. Every publication is appended to the log in the same
// transaction (`log`), with a signed checkpoint when `log.checkpoint` is given.
publish_summary publish(store::database& db, pricing::iso_week week, bool replace, pricing::instant now,
                        store::sheet_signer const& sign, store::catalog_signer const& sign_catalog = nullptr,
                        store::log_signing const& log = {});

}
