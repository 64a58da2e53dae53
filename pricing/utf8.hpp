#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace lcg::pricing {

// The number of characters in well-formed UTF-8 (no stray continuation bytes, no overlong forms,
// no surrogates, nothing past U+10FFFF), or nothing when `text` is not UTF-8. Limits such as "up
// to 64 characters" count characters, as PostgreSQL does.
std::optional<std::size_t> utf8_length(std::string_view text);

// The longest prefix of `text` of at most `max_bytes` bytes that does not cut a character in two:
// for echoing a bounded part of an input in a message that must stay valid UTF-8.
std::string_view utf8_prefix(std::string_view text, std::size_t max_bytes);

// "%HH" for one byte, as a URL writes it.
void append_percent_escaped(std::string& out, unsigned char byte);

// `text` as written when it is UTF-8, else with each byte outside ASCII %-encoded: how an input is
// echoed in a message that must stay UTF-8 (a JSON refusal) whatever bytes the client sent.
std::string as_written(std::string_view text);

}
