// A mirror reads back what render/ writes: the fixture's public documents parsed into domain
// values render to the same bytes, check_sheet accepts its sheets with their inputs and refuses a
// changed figure or input, and a figure that does not follow from the others is refused on parsing.
#include "server/mirror/documents.hpp"
#include "server/mirror/sheet_check.hpp"
#include "server/mirror/spool.hpp"

#include "server/client/http_client.hpp"
#include "server/digest/digest.hpp"
#include "server/trust/trust.hpp"

#include "fixture.hpp"

#include "render/json.hpp"
#include "render/methodology.hpp"

#include "pricing/rules.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <doctest/doctest.h>

#include <system_error>

using namespace lcg;
namespace json = boost::json;

namespace {

// A document as served (a sheet's inputs come from the archive, the rest from the snapshot).
std::string body_of(std::string const& target)
{
    auto const res = testing::fixture_request(target);
    REQUIRE(res.result_int() == 200);
    return res.body().str();
}

std::string replaced(std::string text, std::string const& from, std::string const& to)
{
    auto const at = text.find(from);
    REQUIRE(at != std::string::npos);
    return text.replace(at, from.size(), to);
}

}

TEST_CASE("the catalog read back from the signed /v1/catalog is the catalog and renders the same documents")
{
    auto const snap = testing::fixture_snapshot();
    auto const catalog = mirror::parse_signed_catalog(body_of("/v1/catalog"));
    REQUIRE_MESSAGE(catalog, (catalog ? "" : catalog.err().message));
    CHECK(*catalog == snap->catalog);
    CHECK(render::catalog_document(*catalog) == body_of("/v1/catalog"));
    CHECK(render::to_text(render::catalog_json(*catalog, snap->current, locale::language::en)) == body_of("/v1/gpus"));
    CHECK(render::to_text(render::regions_json(*catalog)) == body_of("/v1/regions"));
    CHECK(render::to_text(render::inventory_json(*catalog)) == body_of("/v1/inventory"));
    CHECK(catalog->sources == snap->catalog.sources);
    CHECK(render::to_text(render::sources_json(*catalog)) == body_of("/v1/sources"));
    CHECK(render::to_text(render::sources_json(*catalog, locale::language::fr)) == body_of("/v1/sources?lang=fr"));
    CHECK(render::to_text(render::methodology_json(snap->keys, catalog->sources)) == body_of("/v1/methodology"));
    for (auto const& m : catalog->gpus)
        CHECK(render::to_text(render::gpu_json(m, snap->current, locale::language::en)) == body_of("/v1/gpus/" + m.id));
}

TEST_CASE("every sheet read back renders the same document and passes check_sheet with its inputs")
{
    auto const snap = testing::fixture_snapshot();
    auto const index = mirror::parse_sheet_index(body_of("/v1/sheets"));
    REQUIRE(index);
    CHECK(index->size() == snap->sheets.size());
    for (auto const& listed : *index) {
        std::string const path = "/v1/sheets/" + pricing::to_string(listed.week);
        CAPTURE(path);
        auto const sheet = mirror::parse_sheet(body_of(path));
        REQUIRE_MESSAGE(sheet, (sheet ? "" : sheet.err().message));
        CHECK(render::to_text(render::sheet_json(*sheet, snap->catalog, locale::language::en, snap->find_publication(sheet->week))) ==
              body_of(path));
        CHECK(sheet->inputs_sha256 == listed.inputs_sha256);
        auto const checked = mirror::check_sheet(*sheet, body_of(path + "/observations.csv"), snap->keys);
        CHECK_MESSAGE(checked, (checked ? "" : checked.err().message));
    }
}

TEST_CASE("check_sheet refuses a bad signature, a changed figure, a changed input and a changed count")
{
    auto const& keys = testing::fixture_snapshot()->keys;
    std::string const path = "/v1/sheets/2026-W49";
    std::string const csv = body_of(path + "/observations.csv");
    auto const parsed = mirror::parse_sheet(replaced(body_of(path), R"("spot":"0.840")", R"("spot":"0.841")"));
    REQUIRE(parsed);
    auto spot = *parsed;
    auto const unsigned_change = mirror::check_sheet(spot, csv, keys);
    REQUIRE_FALSE(unsigned_change);
    CHECK(unsigned_change.err().message.starts_with("sheet 2026-W49 refused: its signature: the signature does not match"));
    CHECK_FALSE(mirror::check_sheet(*mirror::parse_sheet(body_of(path)), csv, {}));  // no pinned key: refused

    // Signed by the pinned key and still wrong: the arithmetic is checked as well.
    testing::fixture_signing_key().sign(spot);
    auto const refused = mirror::check_sheet(spot, csv, keys);
    REQUIRE_FALSE(refused);
    CHECK(refused.err().message == "sheet 2026-W49 refused: h100-sxm: spot: published 0.841, recomputed 0.840");

    auto const sheet = mirror::parse_sheet(body_of(path));
    REQUIRE(sheet);
    auto const first_price = csv.find(",h100-sxm,");
    REQUIRE(first_price != std::string::npos);
    std::string altered = csv;
    altered[csv.find('.', first_price) - 1] = '9';
    auto const input = mirror::check_sheet(*sheet, altered, keys);
    REQUIRE_FALSE(input);
    CHECK(input.err().message.find("its inputs hash to") != std::string::npos);

    auto fewer = *sheet;
    fewer.observations -= 1;
    testing::fixture_signing_key().sign(fewer);
    auto const count = mirror::check_sheet(fewer, csv, keys);
    REQUIRE_FALSE(count);
    CHECK(count.err().message.find("observations, its inputs hold") != std::string::npos);
}

TEST_CASE("a sheet's inputs checked as they arrive, split anywhere, get check_inputs' verdict")
{
    std::string const path = "/v1/sheets/2026-W49";
    std::string const csv = body_of(path + "/observations.csv");
    auto const sheet = mirror::parse_sheet(body_of(path));
    REQUIRE(sheet);
    std::string truncated = csv.substr(0, csv.size() - 1);
    for (std::size_t const piece : {std::size_t{1}, std::size_t{13}, std::size_t{4096}}) {
        CAPTURE(piece);
        auto const streamed = [&](std::string_view bytes) {
            mirror::inputs_check check(*sheet);
            for (std::size_t at = 0; at < bytes.size(); at += piece)
                check.read(bytes.substr(at, piece));
            return check.finish();
        };
        auto const whole = streamed(csv);
        REQUIRE_MESSAGE(whole, (whole ? "" : whole.err().message));
        CHECK(whole->observations == mirror::check_inputs(*sheet, csv)->observations);
        auto const cut = streamed(truncated);
        REQUIRE_FALSE(cut);
        CHECK(cut.err().message == mirror::check_inputs(*sheet, truncated).err().message);
    }
}

TEST_CASE("a spool gives back the bytes appended to it, from any offset")
{
    mirror::spool spool;
    CHECK(spool.size() == 0);
    std::string expected;
    for (int i = 0; i < 1000; ++i) {
        std::string const line = "line " + std::to_string(i) + "\n";
        spool.append(line);
        expected += line;
    }
    spool.append("");
    CHECK(spool.size() == expected.size());
    CHECK(spool.read(0, expected.size()) == expected);
    CHECK(spool.read(7, 100) == expected.substr(7, 100));
    CHECK(spool.read(expected.size(), 0).empty());
    CHECK_THROWS_AS(spool.read(expected.size() - 2, 3), std::system_error);  // past what was appended
}

TEST_CASE("parse_sheet refuses figures that do not follow from one another")
{
    std::string const sheet = body_of("/v1/sheets/2026-W49");
    auto cap = mirror::parse_sheet(replaced(sheet, R"("cap":"1.680")", R"("cap":"1.690")"));
    REQUIRE_FALSE(cap);
    CHECK(cap.err().message.find("h100-sxm: cap or headroom") != std::string::npos);
    auto const fraction = mirror::parse_sheet(replaced(sheet, R"("median":"2.400")", R"("median":"2.4000001")"));
    REQUIRE_FALSE(fraction);
    CHECK(fraction.err().message.find("half micro-dollars") != std::string::npos);
    auto const mill = mirror::parse_sheet(replaced(sheet, R"("spot":"0.840")", R"("spot":"0.8405")"));
    REQUIRE_FALSE(mill);
    auto const dates = mirror::parse_sheet(replaced(sheet, R"("week":"2026-W49")", R"("week":"2026-W48")"));
    REQUIRE_FALSE(dates);
    CHECK(dates.err().message.find("effective dates") != std::string::npos);
    CHECK_FALSE(mirror::parse_sheet("[]"));
    CHECK_FALSE(mirror::parse_sheet(replaced(sheet, R"("prices":[)", R"("prices":[1,)")));
}

TEST_CASE("the client's base URLs: http:// and https://, a host, a port in range")
{
    auto const u = client::parse_base_url("http://127.0.0.1:8080/mirror/");
    REQUIRE(u);
    CHECK(u->host == "127.0.0.1");
    CHECK(u->port == "8080");
    CHECK(u->prefix == "/mirror");
    CHECK(client::parse_base_url("http://example.org")->port == "80");
    CHECK(client::parse_base_url("http://[::1]:9000")->host == "::1");
    auto const tls = client::parse_base_url("https://example.org/");
    REQUIRE(tls);
    CHECK(tls->tls);
    CHECK(tls->port == "443");
    CHECK(tls->to_string() == "https://example.org");
    CHECK_FALSE(client::parse_base_url("ftp://example.org"));
    CHECK_FALSE(client::parse_base_url("http://:8080"));
    CHECK_FALSE(client::parse_base_url("http://h:0"));
    CHECK_FALSE(client::parse_base_url("http://h:99999"));
    CHECK_FALSE(client::parse_base_url("http://h:8o"));
}

TEST_CASE("/readyz shows a mirror's upstream: ready with the refusal while the last snapshot is young")
{
    auto status = std::make_shared<snapshot::upstream_status>();
    status->url = "http://127.0.0.1:8080";
    status->refused = true;
    status->detail = "sheet 2026-W49 refused: h100-sxm: spot: published 0.841, recomputed 0.840";
    status->checked_at = testing::fixture_now();
    status->accepted_at = testing::fixture_now();
    http::request req{http::beast_http::verb::get, "/readyz", 11};
    http::request_context ctx{testing::fixture_snapshot(), testing::fixture_now()};
    ctx.upstream = status;
    auto const ready = http::handle(req, ctx);
    CHECK(ready.result_int() == 200);
    auto const body = boost::json::parse(std::string(ready.body().view())).as_object();
    CHECK(body.at("upstream").at("state").as_string() == "refused");
    CHECK(body.at("upstream").at("detail").as_string() == status->detail);

    ctx.snapshot = nullptr;
    auto const starting = http::handle(req, ctx);
    CHECK(starting.result_int() == 503);
}

TEST_CASE("the catalog's signature verifies with the published key, and no longer once a signed figure changes")
{
    auto const snap = testing::fixture_snapshot();
    auto const document = body_of("/v1/catalog");
    auto const sig = trust::parse_catalog_signature(body_of("/v1/catalog/signature"));
    REQUIRE_MESSAGE(sig, (sig ? "" : sig.err().message));
    CHECK(sig->catalog_sha256 == digest::sha256_hex(document));
    CHECK(sig->catalog_bytes == document.size());
    CHECK(json::parse(body_of("/v1/catalog/signature")).at("signed_bytes").as_string() == pricing::signed_bytes(*sig));
    CHECK(trust::verify_catalog(*sig, snap->keys));

    auto later = *sig;
    later.signed_at += std::chrono::seconds(1);
    CHECK_FALSE(trust::verify_catalog(later, snap->keys));
    auto other = *sig;
    other.catalog_sha256[0] = other.catalog_sha256[0] == '0' ? '1' : '0';
    CHECK_FALSE(trust::verify_catalog(other, snap->keys));
    // A key retired before the catalog was signed vouches for nothing then.
    auto retired = snap->keys;
    retired.keys.front().valid_until = sig->signed_at;
    auto const refused = trust::verify_catalog(*sig, retired);
    REQUIRE_FALSE(refused);
    CHECK(refused.err().message.find("not valid at the catalog's signed_at") != std::string::npos);
}

TEST_CASE("a mirror reads each raw file's reader revision: 1 where an older origin names none, 0 refused")
{
    auto const sources = testing::fixture_request("/v1/sheets/2026-W49/sources").body().str();
    auto const read = mirror::parse_raw_inputs(sources, {2026, 49});
    REQUIRE(read);
    REQUIRE(read->size() == 1);
    CHECK((*read)[0].reader == pricing::rules::offer_reader_revision);
    auto edited = json::parse(sources).as_object();
    auto& file = edited.at("files").as_array().at(0).as_object();
    file.erase("reader");
    auto const older = mirror::parse_raw_inputs(json::serialize(edited), {2026, 49});
    REQUIRE(older);
    CHECK((*older)[0].reader == 1);
    file["reader"] = 0;
    CHECK_FALSE(mirror::parse_raw_inputs(json::serialize(edited), {2026, 49}));
}
