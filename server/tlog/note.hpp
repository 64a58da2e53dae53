#pragma once

#include "pricing/base64.hpp"
#include "pricing/outcome.hpp"
#include "server/tlog/merkle.hpp"

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// Checkpoints of the log as C2SP tlog-checkpoint writes them, signed as C2SP signed notes
// (https://c2sp.org/signed-note) with Ed25519, so Go's golang.org/x/mod/sumdb/note verifies them.
namespace lcg::tlog {

using key_hash = std::array<unsigned char, 4>;

// The origin of a log whose operator named none (LCG_LOG_ORIGIN): a checkpoint's first line.
inline constexpr std::string_view default_origin = "lowcostgpu.local/v1/log";

// The note key id of an Ed25519 key: the first 4 bytes of SHA-256(name || "\n" || 0x01 || key).
key_hash key_hash_of(std::string_view name, std::string_view raw_public_key);
// The verifier key a note verifier is given: "<name>+<8 hex digits of the key hash>+<base64(0x01 || key)>".
std::string verifier_key(std::string_view name, std::string_view raw_public_key);
// The 32 raw bytes of an Ed25519 public key in PEM, or an error.
pricing::outcome<std::string> raw_public_key(std::string_view public_key_pem);

// Who signs a note: the key's name (a checkpoint's: the log's origin), its raw public key, and a
// function that returns the 64-byte Ed25519 signature of the given bytes (the private key stays
// with the caller).
struct note_signer {
    std::string name;
    std::string public_key;
    std::function<std::string(std::string_view)> sign;
};

// "<origin>\n<size>\n<base64 root>\n": the body of a checkpoint.
std::string checkpoint_body(std::string_view origin, std::uint64_t size, hash const& root);
// The body, the blank line, and one "— <name> <base64(key hash || signature)>" line.
std::string sign_note(std::string_view body, note_signer const& signer);

struct note_signature {
    std::string name;
    key_hash id{};
    std::string signature;  // the raw bytes after the key hash
    bool operator==(note_signature const&) const = default;
};

// A checkpoint read back: its body's three lines and the signature lines under it.
struct checkpoint {
    std::string origin;
    std::uint64_t size = 0;
    hash root{};
    std::string body;  // the signed text
    std::vector<note_signature> signatures;
};

// The origin a checkpoint names, its first line, read without checking the rest ("" for ""): what
// a log's own code needs of the checkpoint it signed itself.
std::string_view origin_of(std::string_view note);

// Reads a signed checkpoint strictly (signed-note's grammar, one origin line, a decimal size
// without leading zeros, a 32-byte base64 hash, at most 16 signature lines); the error says what.
pricing::outcome<checkpoint> parse_checkpoint(std::string_view note);

// True when one of the checkpoint's signatures is by (name, raw_public_key) and verifies.
bool signed_by(checkpoint const& c, std::string_view name, std::string_view raw_public_key);
// True when `s` is a signature of the checkpoint's body by (name, raw_public_key).
bool signs(checkpoint const& c, note_signature const& s, std::string_view name, std::string_view raw_public_key);
// The checkpoint as a signed note again, with only the signature lines `keep` accepts, in order.
std::string note_with(checkpoint const& c, std::function<bool(note_signature const&)> const& keep);

// C2SP tlog-cosignature v1 with Ed25519: a witness's signature line under a checkpoint, stating
// that at `time` (seconds since the epoch) this is the largest consistent checkpoint of the log it
// has seen. It signs "cosignature/v1\ntime <time>\n" and the body; the key id uses type 0x04.
std::string cosignature_line(std::string_view body, note_signer const& witness, std::uint64_t time);
// The witness's verifier key (type 0x04): "<name>+<8 hex>+<base64(0x04 || key)>".
std::string cosigner_key(std::string_view name, std::string_view raw_public_key);
// True when one of the checkpoint's signatures is a valid cosignature by (name, raw_public_key).
bool cosigned_by(checkpoint const& c, std::string_view name, std::string_view raw_public_key);

using pricing::base64_encode;
// Standard base64 with padding in its one canonical spelling (the bits padding leaves over are
// zero), at most 1 MiB of it, or nothing.
std::optional<std::string> base64_decode(std::string_view text);

}
