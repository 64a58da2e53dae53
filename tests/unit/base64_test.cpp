#include "pricing/base64.hpp"

#include <doctest/doctest.h>

#include <random>
#include <string>

using lcg::pricing::base64_decode;
using lcg::pricing::base64_encode;

TEST_CASE("base64: RFC 4648's test vectors, both ways")
{
    std::pair<char const*, char const*> const vectors[] = {{"", ""},         {"f", "Zg=="},         {"fo", "Zm8="},
                                                            {"foo", "Zm9v"}, {"foob", "Zm9vYg=="}, {"fooba", "Zm9vYmE="},
                                                            {"foobar", "Zm9vYmFy"}};
    for (auto const& [bytes, text] : vectors) {
        CHECK(base64_encode(bytes) == text);
        CHECK(base64_decode(text) == bytes);
    }
}

TEST_CASE("base64: any bytes come back from their encoding")
{
    std::mt19937 rng(27);
    for (int n = 0; n < 300; ++n) {
        std::string bytes(static_cast<std::size_t>(n), '\0');
        for (auto& b : bytes)
            b = static_cast<char>(rng() & 0xff);
        auto const text = base64_encode(bytes);
        CHECK(text.size() % 4 == 0);
        CHECK(base64_decode(text) == bytes);
    }
}

TEST_CASE("base64: a text outside the alphabet, with data after the padding or of a bad length is refused")
{
    CHECK_FALSE(base64_decode("abc").has_value());
    CHECK_FALSE(base64_decode("ab c").has_value());
    CHECK_FALSE(base64_decode("Zg=a").has_value());
    CHECK_FALSE(base64_decode("Zm9v-_==").has_value());
    // Leftover bits are not checked: the canonical spelling is the caller's rule.
    CHECK(base64_decode("Zh==") == "f");
}
