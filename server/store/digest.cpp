#include "server/store/digest.hpp"

#include <openssl/evp.h>

#include <array>
#include <stdexcept>

namespace lcg::store {

std::string sha256_hex(std::string_view bytes)
{
    std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
    unsigned int size = 0;
    if (EVP_Digest(bytes.data(), bytes.size(), digest.data(), &size, EVP_sha256(), nullptr) != 1)
        throw std::runtime_error("SHA-256 failed");
    static constexpr char hex[] = "0123456789abcdef";
    std::string out;
    out.reserve(size * 2);
    for (unsigned int i = 0; i < size; ++i) {
        out += hex[digest[i] >> 4];
        out += hex[digest[i] & 0xf];
    }
    return out;
}

pricing::signed_catalog catalog_to_sign(std::string document, std::vector<pricing::indexed_sheet> index,
                                        pricing::instant at)
{
    pricing::signed_catalog out;
    out.signature.signed_at = at;
    out.signature.sheets = std::move(index);
    out.signature.catalog_sha256 = sha256_hex(document);
    out.signature.catalog_bytes = document.size();
    out.document = std::move(document);
    return out;
}

}
