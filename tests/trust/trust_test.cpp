#include "server/trust/trust.hpp"

#include <doctest/doctest.h>

#include <string>

namespace pricing = lcg::pricing;
namespace trust = lcg::trust;

namespace {

// RFC 8032 section 7.1, test 1: the private key (PKCS#8) and its public key (SubjectPublicKeyInfo).
constexpr char const* rfc_private = "-----BEGIN PRIVATE KEY-----\n"
                                    "MC4CAQAwBQYDK2VwBCIEIJ1hsZ3v/VpguoRK9JLsLMREScVpezJpGXA7rAMcrn9g\n"
                                    "-----END PRIVATE KEY-----\n";
constexpr char const* rfc_public = "-----BEGIN PUBLIC KEY-----\n"
                                   "MCowBQYDK2VwAyEA11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=\n"
                                   "-----END PUBLIC KEY-----\n";
constexpr char const* rfc_key_id = "21fe31dfa154a261";  // sha256(d75a9801…511a)[:16]
// The signature of the empty message under that key.
constexpr char const* rfc_empty_signature =
    "5VZDAMNgrHKQhuLMgG6CioSHfx645dl02HPgZSJJAVVfuIIVkKM7rMYeOXAc+bRr0lv18FlbviRlUUFDjnoQCw==";

// A second key (RFC 8032 test 2), for rotation.
constexpr char const* other_private = "-----BEGIN PRIVATE KEY-----\n"
                                      "MC4CAQAwBQYDK2VwBCIEIEzNCJso/5banbbDRuwRTg9bijGfNaumJNqM9u1PuKb7\n"
                                      "-----END PRIVATE KEY-----\n";

pricing::instant at(char const* text) { return *pricing::parse_utc_timestamp(text); }

trust::signing_key rfc_key() { return trust::signing_key::from_pem(rfc_private).value(); }

pricing::price_sheet sheet_published(char const* when)
{
    pricing::price_sheet s;
    s.week = *pricing::parse_week("2026-W49");
    s.effective_from = at("2026-11-30T00:00:00Z");
    s.effective_until = at("2026-12-07T00:00:00Z");
    s.published_at = at(when);
    s.inputs_sha256 = std::string(64, 'c');
    s.observations = 5;
    s.rows.push_back(pricing::compute_row("h100-sxm", std::vector<pricing::money>(5, pricing::money::from_micros(2'400'000))));
    return s;
}

std::string keys_document(std::string const& key_id, std::string const& pem, char const* from, char const* until)
{
    std::string escaped;
    for (char c : pem)
        escaped += c == '\n' ? std::string("\\n") : std::string(1, c);
    return R"({"keys":[{"key_id":")" + key_id + R"(","algorithm":"Ed25519","public_key_pem":")" + escaped +
           R"(","valid_from":")" + from + "\",\"valid_until\":" + (until ? "\"" + std::string(until) + "\"" : "null") +
           "}]}";
}

trust::key_ring ring_of(trust::signing_key const& k, char const* from = "2026-01-01T00:00:00Z",
                        char const* until = nullptr)
{
    return trust::parse_key_ring(keys_document(k.key_id(), k.public_key_pem(), from, until)).value();
}

}

TEST_CASE("signing follows RFC 8032: the published test vector, its key and its key id")
{
    auto const key = rfc_key();
    CHECK(key.key_id() == rfc_key_id);
    CHECK(key.public_key_pem() == rfc_public);
    CHECK(key.sign("") == rfc_empty_signature);
    CHECK(trust::key_id_of(rfc_public).value() == rfc_key_id);
    CHECK(trust::verify_bytes("", rfc_empty_signature, rfc_key_id, {at("2026-06-01T00:00:00Z"), at("2026-06-01T00:00:00Z")},
                              ring_of(key)));
}

TEST_CASE("a signed sheet verifies and any change to a signed figure does not")
{
    auto const key = rfc_key();
    auto sheet = sheet_published("2026-11-30T00:00:04Z");
    key.sign(sheet);
    CHECK(sheet.key_id == rfc_key_id);
    CHECK(sheet.signature.size() == 88);
    auto const ok = trust::verify_sheet(sheet, ring_of(key));
    REQUIRE(ok);
    CHECK(ok->key_id == rfc_key_id);

    auto changed = sheet;
    changed.rows[0].rates->on_demand = pricing::money::from_micros(1'679'000);
    auto const bad = trust::verify_sheet(changed, ring_of(key));
    REQUIRE_FALSE(bad);
    CHECK(bad.err().message.find("does not match") != std::string::npos);
}

TEST_CASE("verification says what failed")
{
    auto const key = rfc_key();
    auto sheet = sheet_published("2026-11-30T00:00:04Z");
    auto const message = [&](pricing::price_sheet const& s, trust::key_ring const& ring) {
        auto const r = trust::verify_sheet(s, ring);
        REQUIRE_FALSE(r);
        return r.err().message;
    };
    CHECK(message(sheet, ring_of(key)).find("not signed") != std::string::npos);
    key.sign(sheet);
    CHECK(message(sheet, {}).find("not among the published keys") != std::string::npos);
    CHECK(message(sheet, ring_of(key, "2026-12-01T00:00:00Z")).find("not valid at the sheet's published_at") !=
          std::string::npos);
    CHECK(message(sheet, ring_of(key, "2026-01-01T00:00:00Z", "2026-11-30T00:00:04Z")).find("not valid") !=
          std::string::npos);
    auto truncated = sheet;
    truncated.signature = truncated.signature.substr(4);
    CHECK(message(truncated, ring_of(key)).find("not 64 bytes") != std::string::npos);
    auto flipped = sheet;
    flipped.signature[10] = flipped.signature[10] == 'A' ? 'B' : 'A';
    CHECK(message(flipped, ring_of(key)).find("does not match") != std::string::npos);
    auto other = sheet;
    other.key_id = "0000000000000000";
    CHECK(message(other, ring_of(key)).find("0000000000000000") != std::string::npos);
}

TEST_CASE("rotation: each sheet verifies with the key of its publication time")
{
    auto const old_key = rfc_key();
    auto const new_key = trust::signing_key::from_pem(other_private).value();
    CHECK(new_key.key_id() != old_key.key_id());
    auto before = sheet_published("2026-11-30T00:00:04Z");
    auto after = sheet_published("2026-12-07T00:00:04Z");
    old_key.sign(before);
    new_key.sign(after);
    trust::key_ring ring = ring_of(old_key, "2026-01-01T00:00:00Z", "2026-12-05T00:00:00Z");
    ring.keys.push_back(ring_of(new_key, "2026-12-05T00:00:00Z").keys[0]);
    CHECK(trust::verify_sheet(before, ring));
    CHECK(trust::verify_sheet(after, ring));
    // A sheet signed with the retired key after its window does not verify.
    auto late = sheet_published("2026-12-07T00:00:04Z");
    old_key.sign(late);
    CHECK_FALSE(trust::verify_sheet(late, ring));
}

TEST_CASE("the keys document is checked before it is believed")
{
    auto const key = rfc_key();
    std::string const pem = key.public_key_pem();
    auto const refused = [](std::string const& doc) {
        auto const r = trust::parse_key_ring(doc);
        REQUIRE_FALSE(r);
        return r.err().message;
    };
    CHECK(refused("not json").find("not JSON") != std::string::npos);
    CHECK(refused(R"({"keys": 3})").find("\"keys\" array") != std::string::npos);
    CHECK(refused(keys_document("0123456789abcdef", pem, "2026-01-01T00:00:00Z", nullptr)).find("its public key's id is 21fe31dfa154a261") != std::string::npos);
    CHECK(refused(keys_document(rfc_key_id, "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n",
                                "2026-01-01T00:00:00Z", nullptr))
              .find("not an Ed25519 public key") != std::string::npos);
    CHECK(refused(keys_document(rfc_key_id, pem, "2026-01-01", nullptr)).find("valid_from") != std::string::npos);
    CHECK(refused(keys_document(rfc_key_id, pem, "2026-01-01T00:00:00Z", "2026-01-01T00:00:00Z"))
              .find("after valid_from") != std::string::npos);
    std::string twice = keys_document(rfc_key_id, pem, "2026-01-01T00:00:00Z", nullptr);
    auto const entry = twice.substr(9, twice.size() - 11);
    CHECK(refused(R"({"keys":[)" + entry + "," + entry + "]}").find("listed twice") != std::string::npos);
    auto const ring = trust::parse_key_ring(keys_document(rfc_key_id, pem, "2026-01-01T00:00:00Z", nullptr));
    REQUIRE(ring);
    REQUIRE(ring->keys.size() == 1);
    CHECK(ring->keys[0].public_key_pem == pem);
    CHECK_FALSE(ring->keys[0].valid_until);
}

TEST_CASE("only an Ed25519 private key in PEM signs")
{
    CHECK_FALSE(trust::signing_key::from_pem(""));
    CHECK_FALSE(trust::signing_key::from_pem(rfc_public));
    CHECK_FALSE(trust::signing_key::from_pem("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"));
    CHECK(trust::signing_key::from_pem(rfc_private));
}

TEST_CASE("a sheet stamped before its week began is refused, whatever key signed it (issue 29, H4)")
{
    // Key A retired on 2026-11-01, key B from then. A sheet of 2026-W49 (from 2026-11-30) whose
    // published_at was moved back into A's window and signed again with A: the signature is good
    // and A covers the time, but no sheet of that week can have been published before its window
    // closed.
    auto const a = rfc_key();
    auto const b = trust::signing_key::from_pem(other_private).value();
    trust::key_ring ring = ring_of(a, "2026-01-01T00:00:00Z", "2026-11-01T00:00:00Z");
    ring.keys.push_back(ring_of(b, "2026-11-01T00:00:00Z").keys[0]);
    auto genuine = sheet_published("2026-11-30T00:00:04Z");
    b.sign(genuine);
    CHECK(trust::verify_sheet(genuine, ring));

    auto backdated = sheet_published("2026-10-31T12:00:00Z");
    a.sign(backdated);
    auto const refused = trust::verify_sheet(backdated, ring);
    REQUIRE_FALSE(refused);
    CHECK(refused.err().message ==
          "the sheet's published_at 2026-10-31T12:00:00Z is before its week began (2026-11-30T00:00:00Z): a sheet is "
          "published once its window has closed, so this one was backdated or signed early");
    // At the very start of its week it is in time.
    auto first_second = sheet_published("2026-11-30T00:00:00Z");
    b.sign(first_second);
    CHECK(trust::verify_sheet(first_second, ring));
    CHECK(pricing::published_in_time(at("2026-11-30T00:00:00Z"), at("2026-11-30T00:00:00Z")));
    CHECK_FALSE(pricing::published_in_time(at("2026-11-30T00:00:00Z"), at("2026-11-29T23:59:59Z")));
}
