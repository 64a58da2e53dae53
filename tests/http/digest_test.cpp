#include "server/digest/digest.hpp"

#include <doctest/doctest.h>

#include <string>

using lcg::digest::sha256_hasher;
using lcg::digest::sha256_hex;

TEST_CASE("sha256_hasher gives sha256_hex of the bytes, however they arrive split")
{
    CHECK(sha256_hasher().finish() == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    std::string bytes;
    for (int i = 0; i < 100'000; ++i)
        bytes += static_cast<char>(i * 7919 % 251);
    for (std::size_t piece : {std::size_t{1}, std::size_t{63}, std::size_t{64}, std::size_t{4096}, bytes.size()}) {
        CAPTURE(piece);
        sha256_hasher h;
        for (std::size_t at = 0; at < bytes.size(); at += piece)
            h.update(std::string_view(bytes).substr(at, piece));
        CHECK(h.finish() == sha256_hex(bytes));
    }
}
