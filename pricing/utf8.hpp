#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace lcg::pricing {

// The number of characters in well-formed UTF-8 (no stray continuation bytes, no overlong forms,
// no surrogates, nothing past U+10FFFF), or nothing when `text` is not UTF-8. Limits such as "up
// to 64 characters" count characters, as PostgreSQL does.
std::optional<std::size_t> utf8_length(std::string_view text);

}
