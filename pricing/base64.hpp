#pragma once

#include <optional>
#include <string>
#include <string_view>

// Base64 (RFC 4648 §4, the standard alphabet with padding), the one codec of the code base: the
// publication log's notes, the signatures and MCP's Mcp-Name header all read and write it.
namespace lcg::pricing {

std::string base64_encode(std::string_view bytes);

// The bytes `text` encodes: characters of the alphabet, then only padding ('='), the whole a
// multiple of 4 long. Nothing when a character is outside the alphabet, one follows the padding,
// or the length is not a multiple of 4. The bits the last character leaves over are not checked
// (RFC 4648 §3.5 lets a decoder ignore them): a caller that takes one spelling only compares
// base64_encode of the bytes with the text.
std::optional<std::string> base64_decode(std::string_view text);

}
