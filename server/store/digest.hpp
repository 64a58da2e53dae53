#pragma once

#include "pricing/signing.hpp"

#include <openssl/types.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace lcg::store {

// Lower-case hex SHA-256 of `bytes`: the fingerprint a sheet publishes of its canonical inputs.
std::string sha256_hex(std::string_view bytes);

// The same SHA-256 of bytes that arrive in pieces (a streamed download), without holding them.
// Throws std::runtime_error when OpenSSL fails.
class sha256_hasher {
public:
    sha256_hasher();
    void update(std::string_view bytes);
    // The hex digest of every byte given so far; call once, then only destroy.
    std::string finish();

private:
    std::unique_ptr<EVP_MD_CTX, void (*)(EVP_MD_CTX*)> context_;
};

// The /v1/catalog `document` with the hash and length its signature covers and the sheet `index`,
// signed at `at` by nobody yet (trust::signing_key::sign fills in the key and the signature).
pricing::signed_catalog catalog_to_sign(std::string document, std::vector<pricing::indexed_sheet> index,
                                        pricing::instant at);

}
