// The signature documents of the snapshot: what is served is what was signed, and unknown names
// are 404 with a way forward.
#include "fixture.hpp"

#include "server/trust/trust.hpp"

#include "pricing/signing.hpp"

#include <doctest/doctest.h>

using namespace lcg;
namespace bh = http::beast_http;

TEST_CASE("signed.txt and signature.txt verify with the served key, and the keys document reads back")
{
    auto const snap = testing::fixture_snapshot();
    auto const* sheet = snap->find_sheet({2026, 49});
    REQUIRE(sheet);
    auto const bytes = testing::fixture_request("/v1/sheets/2026-W49/signed.txt");
    REQUIRE(bytes.result() == bh::status::ok);
    CHECK(bytes.body().str() == pricing::signed_bytes(*sheet));
    auto const signature = testing::fixture_request("/v1/sheets/2026-W49/signature.txt");
    REQUIRE(signature.result() == bh::status::ok);
    CHECK(signature.body().str() == sheet->signature + "\n");

    auto const keys = trust::parse_key_ring(testing::fixture_request("/.well-known/lowcostgpu-keys.json").body().str());
    REQUIRE(keys);
    REQUIRE(keys->keys.size() == 1);
    CHECK(keys->keys[0].key_id == sheet->key_id);
    auto const pem = testing::fixture_request("/.well-known/lowcostgpu-keys/" + sheet->key_id + ".pem");
    CHECK(pem.body().str() == keys->keys[0].public_key_pem);
    CHECK(trust::verify_bytes(bytes.body().str(), sheet->signature, sheet->key_id,
                              {sheet->effective_from, sheet->published_at}, *keys));
}

TEST_CASE("an unknown key or week is 404 and says where to look")
{
    auto const key = testing::fixture_request("/.well-known/lowcostgpu-keys/0000000000000000.pem");
    CHECK(key.result() == bh::status::not_found);
    CHECK(key.body().str().find("lowcostgpu-keys.json") != std::string::npos);
    CHECK(testing::fixture_request("/.well-known/lowcostgpu-keys/x").result() == bh::status::not_found);
    CHECK(testing::fixture_request("/v1/sheets/2026-W40/signed.txt").result() == bh::status::not_found);
    CHECK(testing::fixture_request("/v1/sheets/2026-W99/signature.txt").result() == bh::status::bad_request);
}

TEST_CASE("named by latest, a closed sheet and its signatures are never immutable, named by its week they are")
{
    // A week on, 2026-W49 has closed and, nothing newer published yet, is still the latest.
    auto const later = testing::fixture_now() + std::chrono::days(7);
    auto const snap = testing::fixture_snapshot_on(later);
    for (std::string const name : {"", "/signed.txt", "/signature.txt", "/signed.txt.sig", "/signed.note"}) {
        CAPTURE(name);
        auto const latest = testing::fixture_request_on(snap, later, "/v1/sheets/latest" + name);
        REQUIRE(latest.result() == bh::status::ok);
        CHECK(latest[bh::field::cache_control].find("immutable") == std::string_view::npos);
        auto const week = testing::fixture_request_on(snap, later, "/v1/sheets/2026-W49" + name);
        REQUIRE(week.result() == bh::status::ok);
        CHECK(week[bh::field::cache_control].find("immutable") != std::string_view::npos);
        CHECK(latest.body().str() == week.body().str());
    }
}

TEST_CASE("a sheet named by latest speaks the request's language, as by its week")
{
    auto const latest = testing::fixture_request("/v1/sheets/latest.md?lang=fr");
    REQUIRE(latest.result() == bh::status::ok);
    CHECK(latest[bh::field::content_language] == "fr");
    CHECK(latest.body().str() == testing::fixture_request("/v1/sheets/2026-W49.md?lang=fr").body().str());
    auto const negotiated = testing::fixture_request("/v1/sheets/current.html", {{"Accept-Language", "fr"}});
    CHECK(negotiated[bh::field::content_language] == "fr");
    CHECK(negotiated.body().str() == testing::fixture_request("/v1/sheets/2026-W49.html?lang=fr").body().str());
}
