#include "pricing/base64.hpp"

#include <algorithm>

namespace lcg::pricing {

namespace {

constexpr std::string_view alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

// The 6 bits a character stands for, or 64 when it is not in the alphabet.
unsigned sextet(char c)
{
    if (c >= 'A' && c <= 'Z')
        return static_cast<unsigned>(c - 'A');
    if (c >= 'a' && c <= 'z')
        return static_cast<unsigned>(c - 'a' + 26);
    if (c >= '0' && c <= '9')
        return static_cast<unsigned>(c - '0' + 52);
    if (c == '+')
        return 62;
    if (c == '/')
        return 63;
    return 64;
}

}

std::string base64_encode(std::string_view bytes)
{
    std::string out;
    out.reserve(4 * ((bytes.size() + 2) / 3));
    for (std::size_t i = 0; i < bytes.size(); i += 3) {
        std::size_t const taken = std::min<std::size_t>(3, bytes.size() - i);
        unsigned group = 0;
        for (std::size_t k = 0; k < 3; ++k)
            group = group << 8 | (k < taken ? static_cast<unsigned char>(bytes[i + k]) : 0u);
        // n bytes fill n + 1 characters; '=' pads the group to four.
        for (std::size_t k = 0; k < 4; ++k)
            out += k <= taken ? alphabet[(group >> (18 - 6 * k)) & 63] : '=';
    }
    return out;
}

std::optional<std::string> base64_decode(std::string_view text)
{
    std::string out;
    unsigned buffer = 0;
    int bits = 0;
    std::size_t i = 0;
    for (; i < text.size() && text[i] != '='; ++i) {
        unsigned const v = sextet(text[i]);
        if (v == 64)
            return std::nullopt;
        buffer = (buffer << 6) | v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out += static_cast<char>((buffer >> bits) & 0xff);
        }
    }
    for (; i < text.size(); ++i)
        if (text[i] != '=')
            return std::nullopt;
    if (text.size() % 4 != 0)
        return std::nullopt;
    return out;
}

}
