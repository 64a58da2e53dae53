// The publication log as the snapshot serves it (DESIGN §10): the checkpoint verifies with the
// served key, the tiles and entry bundles are the tree's, the proofs of /v1/log/proof check with
// RFC 9162's verifiers, and bad proof requests are 400 naming the parameter.
#include "fixture.hpp"

#include "server/tlog/note.hpp"
#include "server/tlog/tiles.hpp"

#include <boost/json.hpp>
#include <doctest/doctest.h>

using namespace lcg;
namespace bh = http::beast_http;
namespace json = boost::json;

namespace {

tlog::hash hash_of(std::string_view base64)
{
    auto const bytes = tlog::base64_decode(base64).value();
    tlog::hash h{};
    REQUIRE(bytes.size() == h.size());
    std::copy(bytes.begin(), bytes.end(), h.begin());
    return h;
}

std::vector<tlog::hash> hashes_of(json::array const& a)
{
    std::vector<tlog::hash> out;
    for (auto const& h : a)
        out.push_back(hash_of(h.as_string()));
    return out;
}

json::object proof(std::string const& query)
{
    auto const res = testing::fixture_request("/v1/log/proof?" + query);
    REQUIRE(res.result() == bh::status::ok);
    return json::parse(res.body().str()).as_object();
}

}

TEST_CASE("the checkpoint is signed by the served key under the log's origin, and the tiles are the tree's")
{
    auto const snap = testing::fixture_snapshot();
    auto const note = testing::fixture_request("/v1/log/checkpoint").body().str();
    auto const c = tlog::parse_checkpoint(note);
    REQUIRE(c);
    CHECK(c->size == 2);
    auto const key = snap->keys.keys.at(0);
    CHECK(tlog::signed_by(*c, c->origin, tlog::raw_public_key(key.public_key_pem).value()));
    auto const index = json::parse(testing::fixture_request("/v1/log").body().str()).as_object();
    CHECK(index.at("verifier_keys").as_array().at(0).as_string() ==
          tlog::verifier_key(c->origin, tlog::raw_public_key(key.public_key_pem).value()));
    auto const tile = testing::fixture_request("/v1/log/tile/0/000.p/2");
    REQUIRE(tile.result() == bh::status::ok);
    CHECK(tile.body().str() == *tlog::tile_data(snap->log->tree, {false, 0, 0, 2}));
    CHECK(testing::fixture_request("/v1/log/tile/0/000.p/3").result() == bh::status::not_found);
    CHECK(testing::fixture_request("/v1/log/tile/0/x000/000").result() == bh::status::not_found);
    auto const bundle = testing::fixture_request("/v1/log/tile/entries/000.p/2").body().str();
    CHECK(bundle.substr(2, snap->log->entries[0].entry.size()) == snap->log->entries[0].entry);
}

TEST_CASE("/v1/log/proof gives inclusion and consistency proofs that verify against the roots")
{
    auto const included = proof("index=0&size=2");
    CHECK(included.at("kind").as_string() == "inclusion");
    auto const root = hash_of(included.at("root_hash").as_string());
    auto const leaf = tlog::leaf_hash(std::string(included.at("entry").as_string()));
    CHECK(leaf == hash_of(included.at("leaf_hash").as_string()));
    CHECK(tlog::verify_inclusion(leaf, 0, 2, hashes_of(included.at("proof").as_array()), root));
    CHECK_FALSE(tlog::verify_inclusion(leaf, 1, 2, hashes_of(included.at("proof").as_array()), root));

    auto const extends = proof("from=1");
    CHECK(extends.at("kind").as_string() == "consistency");
    CHECK(extends.at("size").as_int64() == 2);
    CHECK(tlog::verify_consistency(1, 2, hash_of(extends.at("from_root_hash").as_string()),
                                   hash_of(extends.at("root_hash").as_string()), hashes_of(extends.at("proof").as_array())));
    CHECK(testing::fixture_request("/v1/log/proof.md?index=1&lang=fr").body().str().find("journal") != std::string::npos);
}

TEST_CASE("a proof asked wrongly is 400 naming the parameter")
{
    for (auto const& c : std::vector<std::pair<std::string, std::string>>{
             {"", "index"}, {"index=0&from=1", "from"}, {"index=2&size=2", "index"}, {"from=3", "from"},
             {"index=0&size=3", "size"}, {"index=-1", "index"}}) {
        std::string const query = c.first, parameter = c.second;  // named: doctest's macros and clang 14
        auto const res = testing::fixture_request("/v1/log/proof?" + query);
        INFO(query);
        CHECK(res.result() == bh::status::bad_request);
        CHECK(res.body().str().find(parameter) != std::string::npos);
    }
}
