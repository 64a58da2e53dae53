// Provenance of inputs: an observation may carry the public listing URL it came from, through the
// import, the database, the canonical CSV (whose hash the sheet signs) and the audit.
#include "harness.hpp"

#include <boost/json.hpp>
#include <doctest/doctest.h>

using namespace lcg::testing;
namespace json = boost::json;

namespace {

bool contains(std::string const& text, std::string const& part) { return text.find(part) != std::string::npos; }

}

TEST_CASE("source_url travels from the import to the canonical CSV, and the sheet still audits")
{
    test_database db;
    // Week 2019-W02 begins on Monday 2019-01-07: its window is 2018-12-31 to 2019-01-07.
    std::string csv = "observed_at,gpu,price_per_gpu_hour,source,listing_id,source_url\n";
    for (int i = 0; i < 5; ++i)
        csv += "2019-01-0" + std::to_string(i + 1) + "T10:00:00Z,h100-sxm,2.40" + std::to_string(i) + ",m,L-" +
               std::to_string(i) + "," + (i % 2 ? "https://market.example/listings/L-" + std::to_string(i) : "") +
               "\n";
    auto const imported = run_lowcostgpu({"import-observations", "--database-url", db.url("publisher"), "-"}, csv);
    REQUIRE(imported.exit_code == 0);
    REQUIRE(run_lowcostgpu({"publish", "--database-url", db.url("publisher"), "--week", "2019-W02"}).exit_code == 0);

    server_process server(db.url("reader"));
    auto const canonical = server.get("/v1/sheets/2019-W02/observations.csv").body;
    CHECK(canonical.starts_with("observed_at,gpu,price_per_gpu_hour,source,listing_id,source_url\n"));
    CHECK(contains(canonical, "2019-01-02T10:00:00Z,h100-sxm,2.401000,m,L-1,https://market.example/listings/L-1\n"));
    CHECK(contains(canonical, "2019-01-01T10:00:00Z,h100-sxm,2.400000,m,L-0,\n"));
    auto const inputs = json::parse(server.get("/v1/sheets/2019-W02/observations").body);
    auto const& first = inputs.at("observations").as_array().at(0).as_object();
    CHECK(first.at("source_url").is_null());
    CHECK(inputs.at("observations").as_array().at(1).at("source_url") == "https://market.example/listings/L-1");

    // The sample weeks have no URL: their canonical CSV keeps five columns (and so their hash).
    CHECK(server.get("/v1/sheets/" + this_week() + "/observations.csv")
              .body.starts_with("observed_at,gpu,price_per_gpu_hour,source,listing_id\n"));
    auto const audit =
        run_lowcostgpu({"audit", "--url", "http://127.0.0.1:" + std::to_string(server.port()), "--all"});
    CHECK(audit.exit_code == 0);
    CHECK(contains(audit.out, "audit passed: 11 sheet(s)"));
}

TEST_CASE("a bad source_url refuses the whole import")
{
    test_database db;
    long const before = db.count("observation");
    auto const r = run_lowcostgpu({"import-observations", "--database-url", db.url("publisher"), "-"},
                                  "observed_at,gpu,price_per_gpu_hour,source,listing_id,source_url\n"
                                  "2019-01-01T10:00:00Z,h100-sxm,2.4,m,L-1,https://market.example/ok\n"
                                  "2019-01-01T11:00:00Z,h100-sxm,2.4,m,L-2,ftp://market.example/no\n");
    CHECK(r.exit_code == 1);
    CHECK(contains(r.err, "line 3: source_url"));
    CHECK(db.count("observation") == before);
}
