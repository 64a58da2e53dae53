#include "server/digest/digest.hpp"

#include <openssl/evp.h>

#include <array>
#include <stdexcept>

namespace lcg::digest {

namespace {

std::string hex(unsigned char const* digest, unsigned int size)
{
    static constexpr char digits[] = "0123456789abcdef";
    std::string out;
    out.reserve(size * 2);
    for (unsigned int i = 0; i < size; ++i) {
        out += digits[digest[i] >> 4];
        out += digits[digest[i] & 0xf];
    }
    return out;
}

}

std::string sha256_hex(std::string_view bytes)
{
    std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
    unsigned int size = 0;
    if (EVP_Digest(bytes.data(), bytes.size(), digest.data(), &size, EVP_sha256(), nullptr) != 1)
        throw std::runtime_error("SHA-256 failed");
    return hex(digest.data(), size);
}

sha256_hasher::sha256_hasher() : context_(EVP_MD_CTX_new(), EVP_MD_CTX_free)
{
    if (!context_ || EVP_DigestInit_ex(context_.get(), EVP_sha256(), nullptr) != 1)
        throw std::runtime_error("SHA-256 failed to start");
}

void sha256_hasher::update(std::string_view bytes)
{
    if (EVP_DigestUpdate(context_.get(), bytes.data(), bytes.size()) != 1)
        throw std::runtime_error("SHA-256 failed");
}

std::string sha256_hasher::finish()
{
    std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
    unsigned int size = 0;
    if (EVP_DigestFinal_ex(context_.get(), digest.data(), &size) != 1)
        throw std::runtime_error("SHA-256 failed");
    return hex(digest.data(), size);
}

}
