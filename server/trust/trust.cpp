#include "server/trust/trust.hpp"

#include "server/digest/digest.hpp"

#include "pricing/base64.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>

#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include <algorithm>
#include <array>
#include <set>
#include <stdexcept>

namespace lcg::trust {

namespace {

namespace json = boost::json;

constexpr std::size_t raw_key_size = 32;
constexpr std::size_t signature_size = 64;
constexpr std::size_t key_id_hex_digits = 16;
constexpr std::size_t max_pem_size = 4096;

struct pkey_free {
    void operator()(EVP_PKEY* k) const { EVP_PKEY_free(k); }
};
struct bio_free {
    void operator()(BIO* b) const { BIO_free(b); }
};
struct md_ctx_free {
    void operator()(EVP_MD_CTX* c) const { EVP_MD_CTX_free(c); }
};
using pkey_ptr = std::unique_ptr<EVP_PKEY, pkey_free>;
using bio_ptr = std::unique_ptr<BIO, bio_free>;
using md_ctx_ptr = std::unique_ptr<EVP_MD_CTX, md_ctx_free>;

bio_ptr memory_bio(std::string_view text)
{
    return bio_ptr(BIO_new_mem_buf(text.data(), static_cast<int>(text.size())));
}

pkey_ptr read_public_key(std::string_view pem)
{
    if (pem.size() > max_pem_size)
        return nullptr;
    auto bio = memory_bio(pem);
    pkey_ptr key(bio ? PEM_read_bio_PUBKEY(bio.get(), nullptr, nullptr, nullptr) : nullptr);
    if (!key || EVP_PKEY_get_id(key.get()) != EVP_PKEY_ED25519)
        return nullptr;
    return key;
}

std::string id_of(EVP_PKEY* key)
{
    std::array<unsigned char, raw_key_size> raw{};
    std::size_t len = raw.size();
    if (EVP_PKEY_get_raw_public_key(key, raw.data(), &len) != 1 || len != raw_key_size)
        throw std::runtime_error("OpenSSL could not read an Ed25519 public key");
    return digest::sha256_hex(std::string_view(reinterpret_cast<char const*>(raw.data()), len))
        .substr(0, key_id_hex_digits);
}

std::string public_pem_of(EVP_PKEY* key)
{
    bio_ptr bio(BIO_new(BIO_s_mem()));
    char* data = nullptr;
    if (!bio || PEM_write_bio_PUBKEY(bio.get(), key) != 1)
        throw std::runtime_error("OpenSSL could not write a public key");
    long const n = BIO_get_mem_data(bio.get(), &data);
    return std::string(data, static_cast<std::size_t>(n));
}

// Exactly 64 bytes from standard base64 with padding (88 characters), or nothing.
std::optional<std::array<unsigned char, signature_size>> decode_signature(std::string_view text)
{
    constexpr std::size_t encoded = 4 * ((signature_size + 2) / 3);
    if (text.size() != encoded || !text.ends_with("==") || text.substr(0, encoded - 2).find('=') != text.npos)
        return std::nullopt;
    auto const decoded = pricing::base64_decode(text);
    if (!decoded || decoded->size() != signature_size)
        return std::nullopt;
    std::array<unsigned char, signature_size> out{};
    std::copy_n(decoded->begin(), signature_size, out.begin());
    return out;
}

pricing::error failed(std::string message) { return {pricing::errc::invalid_argument, std::move(message)}; }

std::string text_member(json::object const& o, char const* key)
{
    auto const* v = o.if_contains(key);
    return v && v->is_string() ? std::string(v->as_string()) : std::string();
}

pricing::outcome<public_key> parse_key(json::value const& v, std::size_t index)
{
    std::string const where = "keys[" + std::to_string(index) + "]";
    if (!v.is_object())
        return failed(where + " is not an object");
    auto const& o = v.as_object();
    public_key k;
    k.key_id = text_member(o, "key_id");
    k.public_key_pem = text_member(o, "public_key_pem");
    if (text_member(o, "algorithm") != "Ed25519")
        return failed(where + ".algorithm must be \"Ed25519\"");
    auto const id = key_id_of(k.public_key_pem);
    if (!id)
        return failed(where + ".public_key_pem: " + id.err().message);
    if (*id != k.key_id)
        return failed(where + ".key_id is '" + k.key_id + "' but its public key's id is " + *id);
    auto const from = pricing::parse_utc_timestamp(text_member(o, "valid_from"));
    if (!from)
        return failed(where + ".valid_from: " + from.err().message);
    k.valid_from = *from;
    if (auto const* until = o.if_contains("valid_until"); until && !until->is_null()) {
        auto const t = pricing::parse_utc_timestamp(until->is_string() ? std::string(until->as_string()) : "");
        if (!t)
            return failed(where + ".valid_until: " + t.err().message);
        if (*t <= k.valid_from)
            return failed(where + ".valid_until must be after valid_from");
        k.valid_until = *t;
    }
    return k;
}

}

pricing::outcome<std::string> key_id_of(std::string_view public_key_pem)
{
    auto const key = read_public_key(public_key_pem);
    if (!key)
        return failed("not an Ed25519 public key in PEM (-----BEGIN PUBLIC KEY-----)");
    return id_of(key.get());
}

pricing::outcome<key_ring> parse_key_ring(std::string_view keys_json)
{
    boost::system::error_code ec;
    json::value const doc = json::parse(keys_json, ec);
    if (ec)
        return failed("the keys document is not JSON: " + ec.message());
    auto const* keys = doc.is_object() ? doc.as_object().if_contains("keys") : nullptr;
    if (!keys || !keys->is_array())
        return failed("the keys document must be an object with a \"keys\" array");
    key_ring ring;
    std::set<std::string> seen;
    for (std::size_t i = 0; i < keys->as_array().size(); ++i) {
        auto k = parse_key(keys->as_array()[i], i);
        if (!k)
            return k.err();
        if (!seen.insert(k->key_id).second)
            return failed("the key " + k->key_id + " is listed twice");
        ring.keys.push_back(std::move(k).value());
    }
    return ring;
}

pricing::outcome<pricing::catalog_signature> parse_catalog_signature(std::string_view signature_json)
{
    boost::system::error_code ec;
    json::value const doc = json::parse(signature_json, ec);
    if (ec || !doc.is_object())
        return failed("the catalog's signature is not a JSON object");
    auto const& o = doc.as_object();
    if (text_member(o, "format") != pricing::catalog_bytes_format)
        return failed("the catalog's signature is not in the " + std::string(pricing::catalog_bytes_format) + " format");
    pricing::catalog_signature sig;
    auto const at = pricing::parse_utc_timestamp(text_member(o, "signed_at"));
    if (!at)
        return failed("the catalog's signed_at: " + at.err().message);
    sig.signed_at = *at;
    auto const* bytes = o.if_contains("catalog_bytes");
    if (!bytes || !bytes->is_int64() || bytes->as_int64() <= 0)
        return failed("the catalog's signature has no positive catalog_bytes");
    sig.catalog_bytes = static_cast<std::uint64_t>(bytes->as_int64());
    sig.catalog_sha256 = text_member(o, "catalog_sha256");
    auto const* sheets = o.if_contains("sheets");
    if (!sheets || !sheets->is_array())
        return failed("the catalog's signature has no \"sheets\" array");
    for (auto const& entry : sheets->as_array()) {
        auto const* e = entry.if_object();
        auto const week = pricing::parse_week(e ? text_member(*e, "week") : "");
        auto const published = pricing::parse_utc_timestamp(e ? text_member(*e, "published_at") : "");
        auto const* size = e ? e->if_contains("inputs_bytes") : nullptr;
        if (!week || !published || !size || !size->is_int64() || size->as_int64() < 0)
            return failed("the catalog's signature lists a sheet without its week, published_at or inputs_bytes");
        sig.sheets.push_back({*week, *published, text_member(*e, "inputs_sha256"),
                              static_cast<std::uint64_t>(size->as_int64())});
    }
    sig.key_id = text_member(o, "key_id");
    sig.signature = text_member(o, "signature");
    return sig;
}

pricing::outcome<verified> verify_bytes(std::string_view bytes, std::string_view signature_base64,
                                        std::string_view key_id, signed_times times, key_ring const& keys)
{
    auto const published_at = times.published_at;
    std::string const what(times.what), when(times.time_name);
    if (signature_base64.empty() || key_id.empty())
        return failed("the " + what + " is not signed (no signature or key_id)");
    if (!pricing::published_in_time(times.effective_from, published_at))
        return failed("the " + what + "'s " + when + " " + pricing::to_rfc3339(published_at) + " is before its week began (" +
                      pricing::to_rfc3339(times.effective_from) +
                      "): a sheet is published once its window has closed, so this one was backdated or signed early");
    auto const* entry = keys.find(key_id);
    if (!entry)
        return failed("the " + what + " names key " + std::string(key_id) + ", which is not among the published keys");
    if (!entry->covers(published_at))
        return failed("the key " + entry->key_id + " is not valid at the " + what + "'s " + when + " " +
                      pricing::to_rfc3339(published_at) + " (valid from " + pricing::to_rfc3339(entry->valid_from) +
                      (entry->valid_until ? " until " + pricing::to_rfc3339(*entry->valid_until) : "") + ")");
    auto const signature = decode_signature(signature_base64);
    if (!signature)
        return failed("the signature is not 64 bytes in base64");
    auto const key = read_public_key(entry->public_key_pem);
    md_ctx_ptr ctx(EVP_MD_CTX_new());
    if (!key || !ctx || EVP_DigestVerifyInit(ctx.get(), nullptr, nullptr, nullptr, key.get()) != 1)
        return failed("the key " + entry->key_id + " cannot be used to verify");
    int const rc = EVP_DigestVerify(ctx.get(), signature->data(), signature->size(),
                                    reinterpret_cast<unsigned char const*>(bytes.data()), bytes.size());
    if (rc != 1)
        return failed("the signature does not match the " + what + "'s signed bytes under key " + entry->key_id);
    return verified{entry->key_id};
}

pricing::outcome<verified> verify_sheet(pricing::price_sheet const& sheet, key_ring const& keys)
{
    return verify_bytes(pricing::signed_bytes(sheet), sheet.signature, sheet.key_id,
                        {sheet.effective_from, sheet.published_at}, keys);
}

pricing::outcome<verified> verify_catalog(pricing::catalog_signature const& signature, key_ring const& keys)
{
    return verify_bytes(pricing::signed_bytes(signature), signature.signature, signature.key_id,
                        {signature.signed_at, signature.signed_at, "catalog", "signed_at"}, keys);
}

struct signing_key::key_holder {
    pkey_ptr key;
};

pricing::outcome<signing_key> signing_key::from_pem(std::string_view pem)
{
    auto bio = pem.size() <= max_pem_size ? memory_bio(pem) : nullptr;
    pkey_ptr key(bio ? PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr) : nullptr);
    if (!key || EVP_PKEY_get_id(key.get()) != EVP_PKEY_ED25519)
        return failed("not an Ed25519 private key in PEM (make one with: openssl genpkey -algorithm ed25519)");
    signing_key out;
    out.key_id_ = id_of(key.get());
    out.public_pem_ = public_pem_of(key.get());
    out.key_ = std::make_shared<key_holder>(key_holder{std::move(key)});
    return out;
}

std::string signing_key::sign(std::string_view bytes) const
{
    md_ctx_ptr ctx(EVP_MD_CTX_new());
    std::array<unsigned char, signature_size> sig{};
    std::size_t len = sig.size();
    if (!ctx || EVP_DigestSignInit(ctx.get(), nullptr, nullptr, nullptr, key_->key.get()) != 1 ||
        EVP_DigestSign(ctx.get(), sig.data(), &len, reinterpret_cast<unsigned char const*>(bytes.data()),
                       bytes.size()) != 1 ||
        len != signature_size)
        throw std::runtime_error("OpenSSL could not sign with key " + key_id_);
    return pricing::base64_encode(std::string_view(reinterpret_cast<char const*>(sig.data()), len));
}

void signing_key::sign(pricing::price_sheet& sheet) const
{
    sheet.key_id = key_id_;
    sheet.signature = sign(pricing::signed_bytes(sheet));
}

void signing_key::sign(pricing::catalog_signature& catalog) const
{
    catalog.key_id = key_id_;
    catalog.signature = sign(pricing::signed_bytes(catalog));
}

pricing::signed_catalog catalog_to_sign(std::string document, std::vector<pricing::indexed_sheet> index,
                                        pricing::instant at)
{
    pricing::signed_catalog out;
    out.signature.signed_at = at;
    out.signature.sheets = std::move(index);
    out.signature.catalog_sha256 = digest::sha256_hex(document);
    out.signature.catalog_bytes = document.size();
    out.document = std::move(document);
    return out;
}

}
