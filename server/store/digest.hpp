#pragma once

#include "pricing/signing.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace lcg::store {

// Lower-case hex SHA-256 of `bytes`: the fingerprint a sheet publishes of its canonical inputs.
std::string sha256_hex(std::string_view bytes);

// The /v1/catalog `document` with the hash and length its signature covers and the sheet `index`,
// signed at `at` by nobody yet (trust::signing_key::sign fills in the key and the signature).
pricing::signed_catalog catalog_to_sign(std::string document, std::vector<pricing::indexed_sheet> index,
                                        pricing::instant at);

}
