#include "utf8.hpp"

#include <cstdint>

namespace lcg::pricing {

std::optional<std::size_t> utf8_length(std::string_view text)
{
    std::size_t count = 0;
    for (std::size_t i = 0; i < text.size(); ++count) {
        auto const lead = static_cast<unsigned char>(text[i]);
        std::size_t const n = lead < 0x80 ? 1 : (lead >> 5) == 0x6 ? 2 : (lead >> 4) == 0xe ? 3 : (lead >> 3) == 0x1e ? 4 : 0;
        if (n == 0 || i + n > text.size())
            return std::nullopt;
        std::uint32_t cp = n == 1 ? lead : lead & (0x7fu >> n);
        for (std::size_t k = 1; k < n; ++k) {
            auto const next = static_cast<unsigned char>(text[i + k]);
            if ((next >> 6) != 0x2)
                return std::nullopt;
            cp = (cp << 6) | (next & 0x3fu);
        }
        static constexpr std::uint32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
        if (cp < smallest[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
            return std::nullopt;
        i += n;
    }
    return count;
}

std::string_view utf8_prefix(std::string_view text, std::size_t max_bytes)
{
    if (text.size() <= max_bytes)
        return text;
    std::size_t end = max_bytes;
    while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80)  // a continuation byte
        --end;
    return text.substr(0, end);
}

void append_percent_escaped(std::string& out, unsigned char byte)
{
    static constexpr char hex[] = "0123456789ABCDEF";
    out += '%';
    out += hex[byte >> 4];
    out += hex[byte & 0xF];
}

std::string as_written(std::string_view text)
{
    if (utf8_length(text))
        return std::string(text);
    std::string out;
    for (unsigned char c : text)
        if (c < 0x80)
            out += static_cast<char>(c);
        else
            append_percent_escaped(out, c);
    return out;
}

}
