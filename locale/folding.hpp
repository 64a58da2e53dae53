#pragma once

#include <cstddef>
#include <string>
#include <string_view>

// Reading what people type in either language: UTF-8 code points, and text folded for comparison.
// UTF-8 in, UTF-8 out; an invalid byte is kept as it is and never stops the scan.
namespace lcg::locale {

inline constexpr char32_t invalid_code_point = 0xFFFD;

struct decoded {
    char32_t cp;
    std::size_t next;  // the index just past it
};

// The code point at `i`. A malformed byte decodes to U+FFFD and is one byte long, so the caller
// can copy it through unchanged and go on.
decoded decode_utf8(std::string_view s, std::size_t i);

// Lower case with Latin accents and ligatures removed, for comparing what people type with what
// the content says: "Clé API" → "cle api", "Œuvre" → "oeuvre", "ß" → "ss". Typographic apostrophes
// and quotes become ASCII ones and no-break spaces become spaces. Covers ASCII, Latin-1 and
// Latin Extended-A; any other code point is kept unchanged.
std::string fold(std::string_view utf8);

}
