#include "locale/folding.hpp"

#include <array>

namespace lcg::locale {

namespace {

struct fold_range {
    char32_t first;
    char32_t last;
    std::string_view to;
};

// Latin-1 Supplement and Latin Extended-A letters, each range folding to one ASCII spelling.
constexpr std::array<fold_range, 58> fold_ranges{{
    {0x00C0, 0x00C5, "a"}, {0x00C6, 0x00C6, "ae"}, {0x00C7, 0x00C7, "c"},  {0x00C8, 0x00CB, "e"},
    {0x00CC, 0x00CF, "i"}, {0x00D0, 0x00D0, "d"},  {0x00D1, 0x00D1, "n"},  {0x00D2, 0x00D6, "o"},
    {0x00D8, 0x00D8, "o"}, {0x00D9, 0x00DC, "u"},  {0x00DD, 0x00DD, "y"},  {0x00DE, 0x00DE, "th"},
    {0x00DF, 0x00DF, "ss"}, {0x00E0, 0x00E5, "a"}, {0x00E6, 0x00E6, "ae"}, {0x00E7, 0x00E7, "c"},
    {0x00E8, 0x00EB, "e"}, {0x00EC, 0x00EF, "i"},  {0x00F0, 0x00F0, "d"},  {0x00F1, 0x00F1, "n"},
    {0x00F2, 0x00F6, "o"}, {0x00F8, 0x00F8, "o"},  {0x00F9, 0x00FC, "u"},  {0x00FD, 0x00FD, "y"},
    {0x00FE, 0x00FE, "th"}, {0x00FF, 0x00FF, "y"}, {0x0100, 0x0105, "a"},  {0x0106, 0x010D, "c"},
    {0x010E, 0x0111, "d"}, {0x0112, 0x011B, "e"},  {0x011C, 0x0123, "g"},  {0x0124, 0x0127, "h"},
    {0x0128, 0x0131, "i"}, {0x0132, 0x0133, "ij"}, {0x0134, 0x0135, "j"},  {0x0136, 0x0138, "k"},
    {0x0139, 0x0142, "l"}, {0x0143, 0x014B, "n"},  {0x014C, 0x0151, "o"},  {0x0152, 0x0153, "oe"},
    {0x0154, 0x0159, "r"}, {0x015A, 0x0161, "s"},  {0x0162, 0x0167, "t"},  {0x0168, 0x0173, "u"},
    {0x0174, 0x0175, "w"}, {0x0176, 0x0178, "y"},  {0x0179, 0x017E, "z"},  {0x017F, 0x017F, "s"},
    // Typography that people do not type: apostrophes, quotes, no-break spaces and hyphens.
    {0x00A0, 0x00A0, " "}, {0x2007, 0x2007, " "}, {0x202F, 0x202F, " "}, {0x2010, 0x2011, "-"},
    {0x2018, 0x2019, "'"}, {0x201C, 0x201D, "\""}, {0x00AB, 0x00AB, "\""}, {0x00BB, 0x00BB, "\""},
    {0x2013, 0x2014, "-"}, {0x2026, 0x2026, "..."},
}};

std::string_view folded(char32_t cp)
{
    for (auto const& r : fold_ranges)
        if (cp >= r.first && cp <= r.last)
            return r.to;
    return {};
}

}

decoded decode_utf8(std::string_view s, std::size_t i)
{
    auto const byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    unsigned char const b0 = byte(i);
    std::size_t length = 0;
    char32_t cp = 0;
    if (b0 < 0x80)
        return {b0, i + 1};
    if ((b0 & 0xE0) == 0xC0) {
        length = 2;
        cp = b0 & 0x1Fu;
    } else if ((b0 & 0xF0) == 0xE0) {
        length = 3;
        cp = b0 & 0x0Fu;
    } else if ((b0 & 0xF8) == 0xF0) {
        length = 4;
        cp = b0 & 0x07u;
    } else {
        return {invalid_code_point, i + 1};
    }
    if (i + length > s.size())
        return {invalid_code_point, i + 1};
    for (std::size_t k = 1; k < length; ++k) {
        if ((byte(i + k) & 0xC0) != 0x80)
            return {invalid_code_point, i + 1};
        cp = (cp << 6) | (byte(i + k) & 0x3Fu);
    }
    return {cp, i + length};
}

std::string fold(std::string_view utf8)
{
    std::string out;
    out.reserve(utf8.size());
    std::size_t i = 0;
    while (i < utf8.size()) {
        std::size_t const start = i;
        auto const [cp, next] = decode_utf8(utf8, i);
        i = next;
        if (cp < 0x80) {
            char const c = static_cast<char>(cp);
            out += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
        } else if (auto const to = folded(cp); !to.empty()) {
            out += to;
        } else {
            out.append(utf8.substr(start, i - start));
        }
    }
    return out;
}

}
