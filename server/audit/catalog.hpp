#pragma once

#include "pricing/signing.hpp"

#include <functional>
#include <optional>
#include <ostream>
#include <string>

namespace lcg::audit {

// GET `path` with `accept` from the audited service, the body or an exception.
using fetcher = std::function<std::string(std::string const& path, char const* accept)>;

// What audit_catalog found.
struct catalog_audit {
    bool ok = false;
    // The signature, once it verifies with the keys (whether or not the pages shown match it): its
    // index gives each sheet's signed inputs length, which bounds the download of its inputs.
    std::optional<pricing::catalog_signature> signature;
};

// Whether the catalog a service shows is the one it signed (H5 of issue 29): its
// /v1/catalog/signature verifies with `keys` at its signed_at, /v1/catalog has the signed length
// and SHA-256, and /v1/regions, /v1/inventory, /v1/sources and every model of /v1/gpus show what
// that document holds (a served model may add the current sheet's prices, nothing else), and
// /v1/sheets lists exactly the signed index's sheets (none withheld, none rolled back). Writes one
// report line, or one per difference; ok when all of it holds.
catalog_audit audit_catalog(fetcher const& fetch, pricing::key_ring const& keys, std::ostream& report);

}
