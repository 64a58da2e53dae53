#pragma once

#include "pricing/outcome.hpp"
#include "pricing/sheet.hpp"
#include "pricing/signing.hpp"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

// Ed25519 signatures of price sheets (OpenSSL's EVP API): the private key that signs at publish
// time, and the published public keys anyone verifies with.
namespace lcg::trust {

using public_key = pricing::public_key;
using key_ring = pricing::key_ring;

// The /.well-known/lowcostgpu-keys.json document (render::keys_json writes it; `serve
// --public-keys FILE` reads the same shape): {"keys": [{"key_id", "algorithm": "Ed25519",
// "public_key_pem", "valid_from", "valid_until" (or null)}, …]}. Every PEM must be an Ed25519
// public key whose id is its key_id, and no two keys may share an id; the error names the first
// problem found.
pricing::outcome<key_ring> parse_key_ring(std::string_view keys_json);

// What a good signature was made with.
struct verified {
    std::string key_id;
};

// Checks `sheet.signature` over pricing::signed_bytes(sheet) with the key `sheet.key_id` names in
// `keys`, which must cover `sheet.published_at`, itself no earlier than the sheet's effective_from
// (pricing::published_in_time). The error says what failed: an unsigned sheet, a publication time
// before its week, an unknown key, a key outside its validity window, a malformed or a wrong
// signature.
pricing::outcome<verified> verify_sheet(pricing::price_sheet const& sheet, key_ring const& keys);

// The catalog's signature from /v1/catalog/signature (render::catalog_signature_json). The bytes it
// covers are rebuilt from its figures (pricing::signed_bytes), never taken from the document.
pricing::outcome<pricing::catalog_signature> parse_catalog_signature(std::string_view signature_json);

// Checks a catalog signature over pricing::signed_bytes(signature) with the key it names, which must
// cover its signed_at. The document's hash and length are the caller's to check.
pricing::outcome<verified> verify_catalog(pricing::catalog_signature const& signature, key_ring const& keys);

// The times a signature is checked against, both among the signed bytes, and how the errors name
// what was signed and its time.
struct signed_times {
    pricing::instant effective_from;
    pricing::instant published_at;
    std::string_view what = "sheet";
    std::string_view time_name = "published_at";
};

// The same check over given bytes (a mirror or an auditor that holds the signed text itself).
pricing::outcome<verified> verify_bytes(std::string_view bytes, std::string_view signature_base64,
                                        std::string_view key_id, signed_times times, key_ring const& keys);

// The id of an Ed25519 public key: the first 16 lower-case hex digits of the SHA-256 of its raw
// 32 bytes (`openssl pkey -pubin -outform DER | tail -c 32 | sha256sum | cut -c1-16`).
pricing::outcome<std::string> key_id_of(std::string_view public_key_pem);

// The private key `publish` and `sign` sign with. It is read from a PEM file (`--signing-key FILE`,
// LCG_SIGNING_KEY_FILE) or from the PEM text itself (LCG_SIGNING_KEY), never from the database.
class signing_key {
public:
    // A PKCS#8 Ed25519 private key in PEM, as `openssl genpkey -algorithm ed25519` writes it.
    static pricing::outcome<signing_key> from_pem(std::string_view pem);

    std::string const& key_id() const { return key_id_; }
    std::string const& public_key_pem() const { return public_pem_; }

    // The base64 Ed25519 signature of `bytes`.
    std::string sign(std::string_view bytes) const;
    // Signs the sheet: sets its signature and key_id.
    void sign(pricing::price_sheet& sheet) const;
    // Signs the catalog signature's bytes: sets its signature and key_id.
    void sign(pricing::catalog_signature& catalog) const;

private:
    struct key_holder;
    std::shared_ptr<key_holder> key_;
    std::string key_id_;
    std::string public_pem_;
};

// The /v1/catalog `document` with the hash and length its signature covers and the sheet `index`,
// signed at `at` by nobody yet (signing_key::sign fills in the key and the signature).
pricing::signed_catalog catalog_to_sign(std::string document, std::vector<pricing::indexed_sheet> index,
                                        pricing::instant at);

}
