#pragma once

#include <openssl/types.h>

#include <memory>
#include <string>
#include <string_view>

// SHA-256 fingerprints as the service publishes them (lower-case hex): of a sheet's canonical
// inputs, a raw file, a signed text, a document's ETag. Hashing only; nothing here reads a database.
namespace lcg::digest {

// Lower-case hex SHA-256 of `bytes`.
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

}
