#include "server/tlog/entry.hpp"
#include "server/tlog/merkle.hpp"
#include "server/tlog/note.hpp"
#include "server/tlog/tiles.hpp"
#include "server/tlog/verify.hpp"
#include "server/trust/trust.hpp"

#include <doctest/doctest.h>

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace tlog = lcg::tlog;
namespace pricing = lcg::pricing;

namespace {

std::string hex(tlog::hash const& h)
{
    static constexpr char digits[] = "0123456789abcdef";
    std::string out;
    for (unsigned char b : h) {
        out += digits[b >> 4];
        out += digits[b & 0xf];
    }
    return out;
}

// The leaves of the RFC 6962 test vectors (certificate-transparency's merkle tests).
std::vector<std::string> vector_leaves()
{
    auto bytes = [](int from, int n) {
        std::string s;
        for (int i = 0; i < n; ++i)
            s += static_cast<char>(from + i);
        return s;
    };
    return {"", std::string(1, '\0'), "\x10", "\x20\x21", "\x30\x31", "\x40\x41\x42\x43", bytes(0x50, 8), bytes(0x60, 16)};
}

tlog::merkle_tree tree_of(std::size_t n)
{
    tlog::merkle_tree t;
    for (std::size_t i = 0; i < n; ++i)
        t.append(tlog::leaf_hash("entry " + std::to_string(i)));
    return t;
}

// MTH straight from RFC 6962's definition, over leaf hashes: the reference the tree is held to.
tlog::hash reference_root(std::vector<tlog::hash> const& leaves, std::size_t from, std::size_t to)
{
    if (to - from == 1)
        return leaves[from];
    std::size_t k = 1;
    while (2 * k < to - from)
        k *= 2;
    return tlog::node_hash(reference_root(leaves, from, from + k), reference_root(leaves, from + k, to));
}

// A key made for these tests (openssl genpkey -algorithm ed25519).
constexpr char const* log_private = "-----BEGIN PRIVATE KEY-----\n"
                                    "MC4CAQAwBQYDK2VwBCIEIFVewI1cLLhUptmwXQ7DgpxAe2YNiX0tN6ZH9xRvdjed\n"
                                    "-----END PRIVATE KEY-----\n";

tlog::note_signer log_signer(std::string name)
{
    auto key = lcg::trust::signing_key::from_pem(log_private).value();
    return {std::move(name), tlog::raw_public_key(key.public_key_pem()).value(),
            [key](std::string_view bytes) { return *tlog::base64_decode(key.sign(bytes)); }};
}

}

TEST_CASE("the tree's roots are RFC 6962's test vectors")
{
    std::vector<std::string> const expected{
        "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
        "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
        "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
        "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
        "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
        "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
        "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
        "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328"};
    tlog::merkle_tree t;
    for (auto const& leaf : vector_leaves())
        t.append(tlog::leaf_hash(leaf));
    for (std::size_t n = 1; n <= expected.size(); ++n)
        CHECK(hex(t.root(n)) == expected[n - 1]);
    CHECK(hex(tlog::merkle_tree().root(0)) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST_CASE("roots of every earlier size match the RFC's definition")
{
    auto const t = tree_of(70);
    std::vector<tlog::hash> leaves(t.level(0).begin(), t.level(0).end());
    for (std::size_t n = 1; n <= 70; ++n)
        CHECK(t.root(n) == reference_root(leaves, 0, n));
}

TEST_CASE("every inclusion proof verifies, and a wrong one does not")
{
    auto const t = tree_of(41);
    for (std::uint64_t n = 1; n <= 41; ++n)
        for (std::uint64_t i = 0; i < n; ++i) {
            auto proof = t.inclusion_proof(i, n);
            auto const leaf = t.level(0)[i];
            CHECK(tlog::verify_inclusion(leaf, i, n, proof, t.root(n)));
            if (n > 1)
                CHECK_FALSE(tlog::verify_inclusion(leaf, (i + 1) % n, n, proof, t.root(n)));
            CHECK_FALSE(tlog::verify_inclusion(tlog::leaf_hash("another"), i, n, proof, t.root(n)));
            if (!proof.empty()) {
                proof.back()[0] ^= 1;
                CHECK_FALSE(tlog::verify_inclusion(leaf, i, n, proof, t.root(n)));
            }
        }
    CHECK_THROWS(t.inclusion_proof(5, 5));
}

TEST_CASE("every consistency proof verifies, and a forked or shrunk log does not")
{
    auto const t = tree_of(37);
    auto fork = tree_of(20);
    fork.append(tlog::leaf_hash("a different entry 20"));
    for (std::uint64_t m = 1; m <= 37; ++m)
        for (std::uint64_t n = m; n <= 37; ++n) {
            auto const proof = t.consistency_proof(m, n);
            CHECK(tlog::verify_consistency(m, n, t.root(m), t.root(n), proof));
            if (m < n) {
                CHECK_FALSE(tlog::verify_consistency(m, n, t.root(m), t.root(n - 1), proof));
                CHECK_FALSE(tlog::verify_consistency(n, m, t.root(n), t.root(m), proof));
            }
        }
    // The fork agrees on the first 20 entries and not on the 21st.
    CHECK(tlog::verify_consistency(20, 37, fork.root(20), t.root(37), t.consistency_proof(20, 37)));
    CHECK_FALSE(tlog::verify_consistency(21, 37, fork.root(21), t.root(37), t.consistency_proof(21, 37)));
}

TEST_CASE("tile paths are C2SP's, spelled one way only")
{
    auto const a = tlog::parse_tile_path("0/x001/x234/067");
    REQUIRE(a);
    CHECK(a->index == 1234067);
    CHECK(a->level == 0);
    CHECK(a->width == 256);
    CHECK(tlog::tile_path(*a) == "0/x001/x234/067");
    auto const e = tlog::parse_tile_path("entries/000.p/5");
    REQUIRE(e);
    CHECK(e->entries);
    CHECK(e->width == 5);
    CHECK(tlog::tile_path(*e) == "entries/000.p/5");
    CHECK(tlog::tile_path({false, 2, 1000, 256}) == "2/x001/000");
    for (auto const bad : {"0/1234", "0/x001", "00/000", "0/000.p/0", "0/000.p/256", "0/000.p/05", "64/000", "0/x01/000",
                           "0/001/000", "0/x000/000", "entries/", "0/000/", "0/00a", "-1/000", "entries/000.p/"})
        CHECK_MESSAGE(!tlog::parse_tile_path(bad), bad);
}

TEST_CASE("tiles hold the tree's hashes and entry bundles the entries, as far as the log reaches")
{
    auto const t = tree_of(300);
    auto const full = tlog::tile_data(t, {false, 0, 0, 256});
    REQUIRE(full);
    CHECK(full->size() == 256 * 32);
    CHECK(full->substr(32 * 255, 32) == std::string(reinterpret_cast<char const*>(t.level(0)[255].data()), 32));
    CHECK(tlog::tile_data(t, {false, 0, 1, 44}));
    CHECK_FALSE(tlog::tile_data(t, {false, 0, 1, 45}));
    CHECK_FALSE(tlog::tile_data(t, {false, 0, 1, 256}));
    auto const upper = tlog::tile_data(t, {false, 1, 0, 1});  // the one complete subtree of 256 leaves
    REQUIRE(upper);
    CHECK(*upper == std::string(reinterpret_cast<char const*>(t.root(256).data()), 32));
    CHECK_FALSE(tlog::tile_data(t, {false, 1, 0, 2}));

    std::vector<std::string> const entries{"ab", std::string(300, 'x')};
    auto const bundle = tlog::entry_bundle(entries, {true, 0, 0, 2});
    REQUIRE(bundle);
    CHECK(*bundle == std::string("\0\2ab\1\x2c", 6) + std::string(300, 'x'));
    CHECK_FALSE(tlog::entry_bundle(entries, {true, 0, 0, 3}));
}

TEST_CASE("a signed note is what Go's sumdb/note reads and writes")
{
    // The example of golang.org/x/mod/sumdb/note's documentation.
    std::string const raw = tlog::base64_decode("ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW").value().substr(1);
    CHECK(tlog::verifier_key("PeterNeumann", raw) == "PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW");
    std::string const text = "If you think cryptography is the answer to your problem,\n"
                             "then you don't know what your problem is.\n";
    std::string const sig = "x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=";
    auto const id = tlog::key_hash_of("PeterNeumann", raw);
    auto const decoded = tlog::base64_decode(sig).value();
    CHECK(decoded.substr(0, 4) == std::string(id.begin(), id.end()));
}

TEST_CASE("a checkpoint signs, parses back and verifies, any change breaks it")
{
    auto const signer = log_signer("example.com/log");
    auto const t = tree_of(10);
    auto const body = tlog::checkpoint_body("example.com/log", 10, t.root(10));
    auto const note = tlog::sign_note(body, signer);
    auto const c = tlog::parse_checkpoint(note);
    REQUIRE(c);
    CHECK(c->origin == "example.com/log");
    CHECK(c->size == 10);
    CHECK(c->root == t.root(10));
    CHECK(tlog::signed_by(*c, "example.com/log", signer.public_key));
    CHECK_FALSE(tlog::signed_by(*c, "other.example/log", signer.public_key));

    auto forged = note;
    forged[forged.find("\n10\n") + 2] = '1';  // size 11
    auto const f = tlog::parse_checkpoint(forged);
    REQUIRE(f);
    CHECK_FALSE(tlog::signed_by(*f, "example.com/log", signer.public_key));
    for (auto const bad : {"", "example.com/log\n10\n", "o\n010\nAAAA\n\n\xe2\x80\x94 o AAAAAAA=\n",
                           "o\n10\nnot-base64\n\n\xe2\x80\x94 o AAAAAAA=\n", "o\n10\n"})
        CHECK_FALSE(tlog::parse_checkpoint(bad));
    CHECK_FALSE(tlog::parse_checkpoint(body + "\n"));  // no signature
}

TEST_CASE("a log entry reads back exactly as written")
{
    tlog::log_entry e;
    e.week = *pricing::parse_week("2026-W49");
    e.kind = tlog::entry_kind::correction;
    e.published_at = *pricing::parse_utc_timestamp("2026-12-02T10:00:00Z");
    e.logged_at = e.published_at;
    e.signed_sha256 = std::string(64, 'a');
    e.inputs_sha256 = std::string(64, 'b');
    e.reason = "a source listed prices per GPU-minute";
    auto const text = tlog::entry_text(e);
    CHECK(text.starts_with("lowcostgpu-log-entry-v1\nweek 2026-W49\nkind correction\n"));
    auto const back = tlog::parse_entry(text);
    REQUIRE(back);
    CHECK(tlog::entry_text(*back) == text);
    CHECK(back->key_id.empty());
    CHECK_FALSE(tlog::parse_entry(text + "extra\n"));
    CHECK_FALSE(tlog::checked_reason(""));
    CHECK_FALSE(tlog::checked_reason("two\nlines"));
    CHECK(tlog::checked_reason("one line").value() == "one line");
}

TEST_CASE("each entry's kind is the one its place gives: a correction logged as a re-signing is found")
{
    using enum tlog::entry_kind;
    auto entry = [](std::string_view week, tlog::entry_kind kind, char bytes) {
        tlog::log_entry e;
        e.week = *pricing::parse_week(week);
        e.kind = kind;
        e.signed_sha256 = std::string(64, bytes);
        return e;
    };
    std::vector<tlog::log_entry> log{entry("2026-W48", publication, 'a'), entry("2026-W49", publication, 'b'),
                                     entry("2026-W48", correction, 'c'), entry("2026-W48", signature, 'c')};
    CHECK_FALSE(tlog::kind_problem(log));
    auto relabelled = log;
    relabelled[2].kind = signature;  // other bytes than the week's entry before: a correction
    CHECK(tlog::kind_problem(relabelled) == "entry 2 (2026-W48) is logged as a signature, but its place makes it a correction");
    relabelled = log;
    relabelled[3].kind = correction;  // the same bytes signed again
    CHECK(tlog::kind_problem(relabelled).has_value());
    relabelled = log;
    relabelled[1].kind = correction;  // a week's first entry is its publication
    CHECK(tlog::kind_problem(relabelled) == "entry 1 (2026-W49) is logged as a correction, but its place makes it a publication");
}

TEST_CASE("a witness's cosignature verifies under its own key type and not as the origin's signature")
{
    auto const origin = log_signer("example.com/log");
    auto witness = log_signer("witness.example/w1");
    auto const t = tree_of(5);
    auto const body = tlog::checkpoint_body("example.com/log", 5, t.root(5));
    auto const note = tlog::sign_note(body, origin) + tlog::cosignature_line(body, witness, 1'679'315'147);
    auto const c = tlog::parse_checkpoint(note);
    REQUIRE(c);
    REQUIRE(c->signatures.size() == 2);
    CHECK(c->signatures[1].signature.size() == 72);  // the timestamp, then the signature
    CHECK(tlog::cosigned_by(*c, "witness.example/w1", witness.public_key));
    CHECK_FALSE(tlog::signed_by(*c, "witness.example/w1", witness.public_key));  // another key id type
    CHECK(tlog::signed_by(*c, "example.com/log", origin.public_key));
    CHECK(tlog::cosigner_key("witness.example/w1", witness.public_key).starts_with("witness.example/w1+"));
    auto forged = note;
    forged.replace(forged.find("\n5\n"), 3, "\n4\n");
    auto const f = tlog::parse_checkpoint(forged);
    REQUIRE(f);
    CHECK_FALSE(tlog::cosigned_by(*f, "witness.example/w1", witness.public_key));
}

TEST_CASE("a checkpoint re-served keeps the origin's signatures alone: a line no published key makes is dropped")
{
    auto const origin = log_signer("example.com/log");
    auto const witness = log_signer("witness.example/w1");
    auto const t = tree_of(5);
    auto const body = tlog::checkpoint_body("example.com/log", 5, t.root(5));
    auto const signed_note = tlog::sign_note(body, origin);
    // A cosignature, and a line that claims the origin's name and key id with another's signature.
    auto const impostor = tlog::sign_note(tlog::checkpoint_body("example.com/log", 4, t.root(4)), origin);
    auto const note = signed_note + tlog::cosignature_line(body, witness, 1'679'315'147) +
                      impostor.substr(impostor.find("\n\n") + 2);
    auto const c = tlog::parse_checkpoint(note);
    REQUIRE(c);
    REQUIRE(c->signatures.size() == 3);
    auto const key = lcg::trust::signing_key::from_pem(log_private).value();
    lcg::pricing::key_ring ring;
    ring.keys.push_back({"", key.public_key_pem(), {}, std::nullopt});
    CHECK(tlog::origin_signed_note(*c, ring) == signed_note);
    CHECK(tlog::note_with(*c, [](tlog::note_signature const&) { return true; }) == note);
    CHECK(tlog::origin_signed_note(*c, {}) == body + "\n");
}

TEST_CASE("a log is read only when each entry bundle holds exactly its width: shifted entries or a claimed size fail")
{
    auto const origin = log_signer("example.com/log");
    auto const key = lcg::trust::signing_key::from_pem(log_private).value();
    pricing::key_ring ring;
    ring.keys.push_back({"", key.public_key_pem(), {}, std::nullopt});
    std::vector<std::string> entries;
    for (int i = 0; i < 300; ++i)
        entries.push_back("entry " + std::to_string(i));
    auto const t = tree_of(300);
    std::map<std::string, std::string> served;
    auto serve_log = [&](std::uint64_t size, tlog::hash const& root) {
        served.clear();
        served["/v1/log/checkpoint"] = tlog::sign_note(tlog::checkpoint_body("example.com/log", size, root), origin);
    };
    int fetches = 0;
    tlog::log_fetcher const fetch = [&](std::string const& path) {
        ++fetches;
        auto const it = served.find(path);
        if (it == served.end())
            throw std::runtime_error("404 " + path);
        return it->second;
    };
    auto serve_tiles = [&] {
        served["/v1/log/tile/" + tlog::tile_path({true, 0, 0, 256})] = *tlog::entry_bundle(entries, {true, 0, 0, 256});
        served["/v1/log/tile/" + tlog::tile_path({true, 0, 1, 44})] = *tlog::entry_bundle(entries, {true, 0, 1, 44});
        served["/v1/log/tile/" + tlog::tile_path({false, 0, 0, 256})] = *tlog::tile_data(t, {false, 0, 0, 256});
        served["/v1/log/tile/" + tlog::tile_path({false, 0, 1, 44})] = *tlog::tile_data(t, {false, 0, 1, 44});
        served["/v1/log/tile/" + tlog::tile_path({false, 1, 0, 1})] = *tlog::tile_data(t, {false, 1, 0, 1});
    };
    serve_log(300, t.root(300));
    serve_tiles();
    auto const log = tlog::read_log(fetch, ring);
    REQUIRE_MESSAGE(log, (log ? "" : log.err().message));
    CHECK(log->entries == entries);

    // The same 300 entries, one moved from the first bundle to the second: the root still matches.
    std::vector<std::string> const first(entries.begin(), entries.begin() + 255);
    std::vector<std::string> const second(entries.begin() + 255, entries.end());
    served["/v1/log/tile/" + tlog::tile_path({true, 0, 0, 256})] = *tlog::entry_bundle(first, {true, 0, 0, 255});
    served["/v1/log/tile/" + tlog::tile_path({true, 0, 1, 44})] = *tlog::entry_bundle(second, {true, 0, 0, 45});
    auto const shifted = tlog::read_log(fetch, ring);
    REQUIRE_FALSE(shifted);
    CHECK(shifted.err().message.find("does not hold exactly its 256 entries") != std::string::npos);

    // A signed checkpoint claiming 2^40 entries, every bundle served empty: one bundle is read, not 2^32.
    serve_log(std::uint64_t{1} << 40, t.root(300));
    served["/v1/log/tile/" + tlog::tile_path({true, 0, 0, 256})] = "";
    fetches = 0;
    CHECK_FALSE(tlog::read_log(fetch, ring));
    CHECK(fetches == 2);
}

TEST_CASE("a signature line repeated is read once: it neither counts twice towards the cap nor is re-served twice")
{
    auto const origin = log_signer("example.com/log");
    auto const t = tree_of(5);
    auto const body = tlog::checkpoint_body("example.com/log", 5, t.root(5));
    auto const signed_note = tlog::sign_note(body, origin);
    std::string const line = signed_note.substr(signed_note.find("\n\n") + 2);
    std::string repeated = signed_note;
    for (int i = 0; i < 20; ++i)
        repeated += line;
    auto const c = tlog::parse_checkpoint(repeated);
    REQUIRE(c);
    CHECK(c->signatures.size() == 1);
    auto const key = lcg::trust::signing_key::from_pem(log_private).value();
    pricing::key_ring ring;
    ring.keys.push_back({"", key.public_key_pem(), {}, std::nullopt});
    CHECK(tlog::origin_signed_note(*c, ring) == signed_note);
    for (int i = 0; i < 80; ++i)  // 101 lines in all: more than Go's sumdb/note reads
        repeated += line;
    CHECK_FALSE(tlog::parse_checkpoint(repeated));
}

TEST_CASE("an entry describes its version only when its week, time and inputs are those the signed bytes give")
{
    pricing::signed_content c;
    c.week = "2026-W49";
    c.effective_from = "2026-11-30T00:00:00Z";
    c.effective_until = "2026-12-07T00:00:00Z";
    c.published_at = "2026-12-03T09:00:00Z";
    c.rules_version = 2;
    c.inputs_sha256 = std::string(64, 'b');
    std::string const bytes = pricing::signed_bytes(c);
    tlog::log_entry e;
    e.week = *pricing::parse_week("2026-W49");
    e.published_at = *pricing::parse_utc_timestamp("2026-12-03T09:00:00Z");
    e.inputs_sha256 = std::string(64, 'b');
    CHECK_FALSE(tlog::version_problem(e, bytes));

    auto early = e;  // a Thursday publication logged as on time
    early.published_at = *pricing::parse_utc_timestamp("2026-11-30T00:00:04Z");
    auto const problem = tlog::version_problem(early, bytes);
    REQUIRE(problem);
    CHECK(*problem == "its signed bytes give published_at 2026-12-03T09:00:00Z, the entry 2026-11-30T00:00:04Z");
    auto other_week = e;
    other_week.week = *pricing::parse_week("2026-W48");
    CHECK(tlog::version_problem(other_week, bytes));
    auto other_inputs = e;
    other_inputs.inputs_sha256 = std::string(64, 'c');
    CHECK(tlog::version_problem(other_inputs, bytes));
    CHECK(tlog::version_problem(e, "not a sheet's signed bytes"));
}
