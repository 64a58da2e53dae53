#include "server/tlog/note.hpp"

#include "pricing/lines.hpp"

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/sha.h>

#include <algorithm>
#include <charconv>
#include <memory>

namespace lcg::tlog {

namespace {

constexpr unsigned char ed25519_type = 0x01;      // signed-note's signature type of Ed25519
constexpr unsigned char cosignature_type = 0x04;  // tlog-cosignature v1 with Ed25519
constexpr std::size_t raw_key_size = 32;
constexpr std::size_t signature_size = 64;
constexpr std::size_t max_signatures = 16;        // distinct ones
constexpr std::size_t max_signature_lines = 100;  // Go's sumdb/note reads no more
constexpr std::string_view signature_prefix = "\xe2\x80\x94 ";  // U+2014 EM DASH, then a space

struct pkey_free {
    void operator()(EVP_PKEY* k) const { EVP_PKEY_free(k); }
};
using pkey_ptr = std::unique_ptr<EVP_PKEY, pkey_free>;

std::string hex8(key_hash const& id)
{
    static constexpr char digits[] = "0123456789abcdef";
    std::string out;
    for (unsigned char b : id) {
        out += digits[b >> 4];
        out += digits[b & 0xf];
    }
    return out;
}

bool verify_ed25519(std::string_view raw_key, std::string_view message, std::string_view signature)
{
    if (raw_key.size() != raw_key_size || signature.size() != signature_size)
        return false;
    pkey_ptr key(EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nullptr,
                                             reinterpret_cast<unsigned char const*>(raw_key.data()), raw_key.size()));
    std::unique_ptr<EVP_MD_CTX, void (*)(EVP_MD_CTX*)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
    return key && ctx && EVP_DigestVerifyInit(ctx.get(), nullptr, nullptr, nullptr, key.get()) == 1 &&
           EVP_DigestVerify(ctx.get(), reinterpret_cast<unsigned char const*>(signature.data()), signature.size(),
                            reinterpret_cast<unsigned char const*>(message.data()), message.size()) == 1;
}

// A key name: non-empty, no spaces, no "+", printable (signed-note's rule).
bool good_name(std::string_view name)
{
    return !name.empty() && std::all_of(name.begin(), name.end(), [](unsigned char c) {
        return c > 0x20 && c != 0x7f && c != '+';
    });
}

// A signature line as a signed note writes it: "— <name> <base64(key hash || bytes)>\n".
std::string written_signature_line(std::string_view name, key_hash const& id, std::string_view bytes)
{
    return std::string(signature_prefix) + std::string(name) + " " +
           base64_encode(std::string(id.begin(), id.end()) + std::string(bytes)) + "\n";
}

std::optional<note_signature> signature_line(std::string_view line)
{
    if (!line.starts_with(signature_prefix))
        return std::nullopt;
    line.remove_prefix(signature_prefix.size());
    auto const space = line.find(' ');
    if (space == std::string_view::npos || !good_name(line.substr(0, space)))
        return std::nullopt;
    auto const bytes = base64_decode(line.substr(space + 1));
    if (!bytes || bytes->size() < 5)
        return std::nullopt;
    note_signature s;
    s.name = std::string(line.substr(0, space));
    std::copy_n(bytes->begin(), 4, s.id.begin());
    s.signature = bytes->substr(4);
    return s;
}

// The checkpoint body's three lines (extension lines are allowed and ignored).
pricing::outcome<checkpoint> body_lines(std::string_view body)
{
    std::vector<std::string_view> lines;
    for (std::string_view rest = body; !rest.empty();)
        lines.push_back(pricing::take_line(rest));
    if (lines.size() < 3 || lines[0].empty())
        return pricing::invalid("a checkpoint's body has an origin, a size and a root hash, one per line");
    checkpoint c;
    c.origin = std::string(lines[0]);
    auto const& size = lines[1];
    auto const [end, ec] = std::from_chars(size.data(), size.data() + size.size(), c.size);
    if (size.empty() || (size.size() > 1 && size.front() == '0') || ec != std::errc() || end != size.data() + size.size())
        return pricing::invalid("a checkpoint's size is a decimal without leading zeros, not \"" + std::string(size) + "\"");
    auto const root = base64_decode(lines[2]);
    if (!root || root->size() != c.root.size())
        return pricing::invalid("a checkpoint's root hash is 32 bytes in base64");
    std::copy(root->begin(), root->end(), c.root.begin());
    c.body = std::string(body);
    return c;
}

key_hash typed_key_hash(std::string_view name, unsigned char type, std::string_view raw_public_key)
{
    std::string input(name);
    input += '\n';
    input += static_cast<char>(type);
    input += raw_public_key;
    std::array<unsigned char, SHA256_DIGEST_LENGTH> digest{};
    SHA256(reinterpret_cast<unsigned char const*>(input.data()), input.size(), digest.data());
    key_hash out{};
    std::copy_n(digest.begin(), out.size(), out.begin());
    return out;
}

std::string typed_verifier_key(std::string_view name, unsigned char type, std::string_view raw_public_key)
{
    return std::string(name) + "+" + hex8(typed_key_hash(name, type, raw_public_key)) + "+" +
           base64_encode(std::string(1, static_cast<char>(type)) + std::string(raw_public_key));
}

std::string cosigned_message(std::string_view body, std::uint64_t time)
{
    return "cosignature/v1\ntime " + std::to_string(time) + "\n" + std::string(body);
}

}

std::optional<std::string> base64_decode(std::string_view text)
{
    if (text.size() > 1 << 20)
        return std::nullopt;
    auto out = pricing::base64_decode(text);
    // Only the canonical spelling: the bits padding leaves over must be zero.
    if (!out || base64_encode(*out) != text)
        return std::nullopt;
    return out;
}

key_hash key_hash_of(std::string_view name, std::string_view raw_public_key)
{
    return typed_key_hash(name, ed25519_type, raw_public_key);
}

std::string verifier_key(std::string_view name, std::string_view raw_public_key)
{
    return typed_verifier_key(name, ed25519_type, raw_public_key);
}

std::string cosigner_key(std::string_view name, std::string_view raw_public_key)
{
    return typed_verifier_key(name, cosignature_type, raw_public_key);
}

std::string cosignature_line(std::string_view body, note_signer const& witness, std::uint64_t time)
{
    auto const id = typed_key_hash(witness.name, cosignature_type, witness.public_key);
    std::string stamp(8, '\0');
    for (int i = 0; i < 8; ++i)
        stamp[static_cast<std::size_t>(i)] = static_cast<char>((time >> (56 - 8 * i)) & 0xff);
    return written_signature_line(witness.name, id, stamp + witness.sign(cosigned_message(body, time)));
}

bool cosigned_by(checkpoint const& c, std::string_view name, std::string_view raw_public_key)
{
    auto const id = typed_key_hash(name, cosignature_type, raw_public_key);
    return std::any_of(c.signatures.begin(), c.signatures.end(), [&](note_signature const& s) {
        if (s.name != name || s.id != id || s.signature.size() != 8 + signature_size)
            return false;
        std::uint64_t time = 0;
        for (int i = 0; i < 8; ++i)
            time = (time << 8) | static_cast<unsigned char>(s.signature[static_cast<std::size_t>(i)]);
        return verify_ed25519(raw_public_key, cosigned_message(c.body, time), s.signature.substr(8));
    });
}

pricing::outcome<std::string> raw_public_key(std::string_view public_key_pem)
{
    std::unique_ptr<BIO, int (*)(BIO*)> bio(BIO_new_mem_buf(public_key_pem.data(), static_cast<int>(public_key_pem.size())),
                                            BIO_free);
    pkey_ptr key(bio ? PEM_read_bio_PUBKEY(bio.get(), nullptr, nullptr, nullptr) : nullptr);
    std::string raw(raw_key_size, '\0');
    std::size_t len = raw.size();
    if (!key || EVP_PKEY_get_id(key.get()) != EVP_PKEY_ED25519 ||
        EVP_PKEY_get_raw_public_key(key.get(), reinterpret_cast<unsigned char*>(raw.data()), &len) != 1 ||
        len != raw_key_size)
        return pricing::invalid("not an Ed25519 public key in PEM");
    return raw;
}

std::string checkpoint_body(std::string_view origin, std::uint64_t size, hash const& root)
{
    return std::string(origin) + "\n" + std::to_string(size) + "\n" +
           base64_encode(std::string_view(reinterpret_cast<char const*>(root.data()), root.size())) + "\n";
}

std::string sign_note(std::string_view body, note_signer const& signer)
{
    auto const id = key_hash_of(signer.name, signer.public_key);
    std::string const signature = signer.sign(body);
    return std::string(body) + "\n" + written_signature_line(signer.name, id, signature);
}

std::string_view origin_of(std::string_view note) { return pricing::take_line(note); }

pricing::outcome<checkpoint> parse_checkpoint(std::string_view note)
{
    auto const split = note.rfind("\n\n");
    if (split == std::string_view::npos || !note.ends_with('\n'))
        return pricing::invalid("a signed note is its text, a blank line and its signature lines, each ending in a newline");
    // The text itself holds no blank line, so the first blank line ends it.
    auto const end = note.find("\n\n");
    auto parsed = body_lines(note.substr(0, end + 1));
    if (!parsed)
        return parsed;
    checkpoint c = *parsed;
    std::string_view rest = note.substr(end + 2);
    for (std::size_t lines = 1; !rest.empty(); ++lines) {
        auto s = signature_line(pricing::take_line(rest));
        if (!s)
            return pricing::invalid("a signed note's signature line is \"— <name> <base64>\"");
        if (lines > max_signature_lines)
            return pricing::invalid("a signed note with more than 100 signature lines");
        // A line repeated is kept once, as Go's sumdb/note drops repeated signatures (counting them
        // in its 100 lines, as here): repeating a valid line must neither take one of the 16 places
        // nor be passed on twice.
        if (std::find(c.signatures.begin(), c.signatures.end(), *s) != c.signatures.end())
            continue;
        if (c.signatures.size() == max_signatures)
            return pricing::invalid("a signed note with more than 16 signatures");
        c.signatures.push_back(std::move(*s));
    }
    if (c.signatures.empty())
        return pricing::invalid("a checkpoint with no signature");
    return c;
}

bool signs(checkpoint const& c, note_signature const& s, std::string_view name, std::string_view raw_public_key)
{
    return s.name == name && s.id == key_hash_of(name, raw_public_key) && verify_ed25519(raw_public_key, c.body, s.signature);
}

bool signed_by(checkpoint const& c, std::string_view name, std::string_view raw_public_key)
{
    return std::any_of(c.signatures.begin(), c.signatures.end(),
                       [&](note_signature const& s) { return signs(c, s, name, raw_public_key); });
}

std::string note_with(checkpoint const& c, std::function<bool(note_signature const&)> const& keep)
{
    std::string out = c.body + "\n";
    for (auto const& s : c.signatures)
        if (keep(s))
            out += written_signature_line(s.name, s.id, s.signature);
    return out;
}

}
