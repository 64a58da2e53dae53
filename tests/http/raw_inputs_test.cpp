// /v1/sheets/{week}/sources (issue 24, item 5): a week's raw market files listed in every table
// format, each served byte for byte under its SHA-256, and nothing else served under that path.
#include "fixture.hpp"

#include "pricing/rules.hpp"

#include "server/digest/digest.hpp"

#include <boost/json.hpp>
#include <doctest/doctest.h>

#include <string>

using namespace lcg;
using namespace lcg::testing;
namespace bh = http::beast_http;
namespace json = boost::json;

namespace {

std::string header(http::response const& res, bh::field f) { return std::string(res[f]); }

}

TEST_CASE("JSON: the sources of a week name each raw file and mapping by SHA-256, at the path that serves it")
{
    auto const res = fixture_request("/v1/sheets/2026-W49/sources");
    REQUIRE(res.result() == bh::status::ok);
    auto const doc = json::parse(res.body().str()).as_object();
    CHECK(doc.at("week") == "2026-W49");
    CHECK(doc.at("count").as_int64() == 1);
    auto const& file = doc.at("files").as_array().at(0).as_object();
    std::string const sha256 = digest::sha256_hex(fixture_raw_file);
    CHECK(file.at("sha256").as_string() == sha256);
    CHECK(file.at("bytes").as_int64() == static_cast<std::int64_t>(fixture_raw_file.size()));
    CHECK(file.at("source") == "lambda");
    CHECK(file.at("format") == "skypilot-vms");
    CHECK(file.at("observed_at") == "2026-11-29T23:59:00Z");
    CHECK(file.at("path").as_string() == "sources/" + sha256);
    CHECK(file.at("reader") == pricing::rules::offer_reader_revision);
    auto const& mapping = doc.at("mappings").as_array().at(0).as_object();
    CHECK(mapping.at("sha256").as_string() == digest::sha256_hex(fixture_mapping));
    CHECK(mapping.at("path").as_string() == "sources/" + digest::sha256_hex(fixture_mapping));
}

TEST_CASE("CSV, Markdown and HTML: the same files as a table, in both languages")
{
    std::string const sha256 = digest::sha256_hex(fixture_raw_file);
    auto const csv = fixture_request("/v1/sheets/2026-W49/sources.csv");
    REQUIRE(csv.result() == bh::status::ok);
    CHECK(csv.body().str() == "source,format,memory_convention,observed_at,sha256,bytes,mapping_sha256,reader,path\n"
                              "lambda,skypilot-vms,per-gpu-mib,2026-11-29T23:59:00Z," + sha256 + "," +
                                  std::to_string(fixture_raw_file.size()) + "," + digest::sha256_hex(fixture_mapping) +
                                  "," + std::to_string(pricing::rules::offer_reader_revision) + ",sources/" + sha256 +
                                  "\n");
    auto const md = fixture_request("/v1/sheets/2026-W49/sources.md");
    REQUIRE(md.result() == bh::status::ok);
    CHECK(md.body().str().starts_with("# Raw market files of sheet 2026-W49"));
    CHECK(md.body().str().find("(/v1/sheets/2026-W49/sources/" + sha256 + ")") != std::string::npos);
    auto const fr = fixture_request("/v1/sheets/2026-W49/sources.html?lang=fr");
    REQUIRE(fr.result() == bh::status::ok);
    CHECK(header(fr, bh::field::content_language) == "fr");
    CHECK(fr.body().str().find("Fichiers bruts du marché de la fiche 2026-W49") != std::string::npos);
}

TEST_CASE("a raw file is served byte for byte under its SHA-256, and for ever")
{
    std::string const sha256 = digest::sha256_hex(fixture_raw_file);
    auto const res = fixture_request("/v1/sheets/2026-W49/sources/" + sha256);
    REQUIRE(res.result() == bh::status::ok);
    CHECK(res.body().str() == fixture_raw_file);
    CHECK(header(res, bh::field::content_type) == "text/csv; charset=utf-8");
    CHECK(header(res, bh::field::cache_control).find("immutable") != std::string::npos);
    auto const again = fixture_request("/v1/sheets/2026-W49/sources/" + sha256,
                                       {{"If-None-Match", header(res, bh::field::etag)}});
    CHECK(again.result() == bh::status::not_modified);
    auto const mapping = fixture_request("/v1/sheets/2026-W49/sources/" + digest::sha256_hex(fixture_mapping));
    REQUIRE(mapping.result() == bh::status::ok);
    CHECK(mapping.body().str() == fixture_mapping);
}

TEST_CASE("what a week does not name is 404, whatever is asked")
{
    for (std::string const& name : {std::string(64, '0'), std::string("ABC"), std::string(64, 'A'),
                                   digest::sha256_hex(fixture_raw_file) + "0", std::string("..")}) {
        CAPTURE(name);
        auto const res = fixture_request("/v1/sheets/2026-W49/sources/" + name);
        CHECK(res.result() == bh::status::not_found);
        CHECK(header(res, bh::field::content_type) == "application/problem+json");
    }
    CHECK(fixture_request("/v1/sheets/1999-W01/sources").result() == bh::status::not_found);
}
