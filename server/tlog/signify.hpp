#pragma once

#include <optional>
#include <string>
#include <string_view>

// The same Ed25519 keys and signatures in the files OpenBSD's signify reads (Debian's
// signify-openbsd), so `signify -V -p KEY.pub -m signed.txt` verifies a sheet without our code:
// a line "untrusted comment: …" then base64 of "Ed", an 8-byte key number and the key or signature.
namespace lcg::tlog {

// The key number of a key: its 16-hex-digit key_id as 8 bytes (signify only matches it).
// The public key file of a raw 32-byte Ed25519 key; nothing when the key id is not 16 hex digits.
std::optional<std::string> signify_public_key(std::string_view key_id, std::string_view raw_public_key);
// The signature file of a 64-byte signature (base64, as a sheet publishes it) by that key.
std::optional<std::string> signify_signature(std::string_view key_id, std::string_view signature_base64);

}
