// A week's inputs are read from PostgreSQL on demand (server/archive), not held in the snapshot:
// the bytes served are those stored, a second request is a cache hit, and while PostgreSQL is away
// the current sheet, the history and the cached weeks keep serving while an uncached week gets 503
// with Retry-After, never a hang. The outage is this test database refusing connections.
#include "harness.hpp"

#include <boost/json.hpp>
#include <doctest/doctest.h>
#include <openssl/evp.h>
#include <pqxx/pqxx>

#include <array>
#include <string>
#include <vector>

using namespace lcg::testing;
namespace json = boost::json;

namespace {

std::string sha256_of(std::string const& bytes)
{
    std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
    unsigned size = 0;
    EVP_Digest(bytes.data(), bytes.size(), digest.data(), &size, EVP_sha256(), nullptr);
    static constexpr char hex[] = "0123456789abcdef";
    std::string out;
    for (unsigned i = 0; i < size; ++i)
        out += {hex[digest[i] >> 4], hex[digest[i] & 15]};
    return out;
}

struct listed_sheet {
    std::string week;
    std::string inputs_sha256;
};

std::vector<listed_sheet> published(server_process const& server)
{
    std::vector<listed_sheet> out;
    auto const index = json::parse(server.get("/v1/sheets").body);
    for (auto const& s : index.at("sheets").as_array())
        out.push_back({std::string(s.at("week").as_string()), std::string(s.at("inputs_sha256").as_string())});
    return out;
}

// The value of a sample line of /metrics ("name 12"), or -1.
long metric(server_process const& server, std::string const& name)
{
    auto const text = server.get("/metrics").body;
    auto const at = text.find("\n" + name + " ");
    return at == std::string::npos ? -1 : std::stol(text.substr(at + name.size() + 2));
}

std::string stored_csv(test_database const& db, std::string const& week)
{
    pqxx::connection c(db.url("owner"));
    pqxx::read_transaction tx(c);
    auto const r = tx.exec_params("SELECT canonical_csv FROM sheet_input WHERE week = $1", week);
    return r.empty() ? std::string() : r[0][0].as<std::string>();
}

void allow_connections(test_database const& db, bool allowed)
{
    pqxx::connection c(db.admin_url());
    pqxx::nontransaction tx(c);
    tx.exec("ALTER DATABASE " + db.name() + " ALLOW_CONNECTIONS " + (allowed ? "true" : "false"));
    if (!allowed)
        tx.exec("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '" + db.name() + "'");
}

}

TEST_CASE("a week's observations are the stored canonical CSV, read once and then served from the cache")
{
    test_database db;
    server_process server(db.url("reader"));
    auto const sheets = published(server);
    REQUIRE(sheets.size() >= 2);
    CHECK(metric(server, "lowcostgpu_archive_reads_total") == 0);  // nothing read at start
    for (auto const& s : sheets) {
        CAPTURE(s.week);
        auto const csv = server.get("/v1/sheets/" + s.week + "/observations.csv");
        REQUIRE(csv.status == 200);
        CHECK(csv.header("content-type").starts_with("text/csv"));
        CHECK(sha256_of(csv.body) == s.inputs_sha256);
        CHECK(csv.body == stored_csv(db, s.week));
        auto const doc = json::parse(server.get("/v1/sheets/" + s.week + "/observations").body).as_object();
        CHECK(doc.at("inputs_sha256").as_string() == s.inputs_sha256);
        CHECK(doc.at("observations").as_array().size() == doc.at("count").to_number<std::size_t>());
    }
    long const reads = metric(server, "lowcostgpu_archive_reads_total");
    CHECK(reads == static_cast<long>(sheets.size()));  // the JSON came from the cached CSV
    long const hits = metric(server, "lowcostgpu_archive_cache_hits_total");
    auto const again = server.get("/v1/sheets/" + sheets.back().week + "/observations.csv");
    CHECK(again.status == 200);
    CHECK(metric(server, "lowcostgpu_archive_reads_total") == reads);
    CHECK(metric(server, "lowcostgpu_archive_cache_hits_total") == hits + 1);
    CHECK(metric(server, "lowcostgpu_archive_cache_bytes") > 0);
    // A past week is immutable, and a conditional request is answered from its validator.
    CHECK(again.header("cache-control").find("immutable") != std::string::npos);
    CHECK(server.get("/v1/sheets/" + sheets.back().week + "/observations.csv", {{"If-None-Match", again.header("etag")}})
              .status == 304);
}

TEST_CASE("the canonical CSV is stored compressed with lz4 (migration 009), and every week's is read back whole")
{
    test_database db;
    pqxx::connection c(db.url("owner"));
    pqxx::read_transaction tx(c);
    auto const method = tx.exec("SELECT attcompression FROM pg_attribute WHERE attrelid = 'sheet_input'::regclass "
                                "AND attname = 'canonical_csv'");
    REQUIRE(method.size() == 1);
    CHECK(method[0][0].as<std::string>() == "l");
    auto const mismatched = tx.exec("SELECT count(*) FROM sheet s JOIN sheet_input i USING (week) "
                                    "WHERE encode(sha256(convert_to(i.canonical_csv, 'UTF8')), 'hex') <> s.inputs_sha256");
    CHECK(mismatched[0][0].as<int>() == 0);
}

TEST_CASE("with a cache of 0 bytes every request reads PostgreSQL, and still gets the stored bytes")
{
    test_database db;
    server_process server(db.url("reader"), {"--archive-cache-bytes", "0"});
    auto const week = published(server).front();
    for (int i = 0; i < 3; ++i)
        CHECK(sha256_of(server.get("/v1/sheets/" + week.week + "/observations.csv").body) == week.inputs_sha256);
    CHECK(metric(server, "lowcostgpu_archive_reads_total") == 3);
    CHECK(metric(server, "lowcostgpu_archive_cache_bytes") == 0);
}

TEST_CASE("PostgreSQL away: the current sheet, history and cached weeks keep serving, an uncached week is 503")
{
    test_database db;
    server_process server(db.url("reader"));
    auto const sheets = published(server);
    REQUIRE(sheets.size() >= 2);
    std::string const cached = "/v1/sheets/" + sheets.front().week + "/observations.csv";
    std::string const uncached = "/v1/sheets/" + sheets.back().week + "/observations.csv";
    auto const before = server.get(cached);
    REQUIRE(before.status == 200);
    allow_connections(db, false);

    CHECK(server.get("/v1/prices").status == 200);
    CHECK(server.get("/v1/prices/h100-sxm/history").status == 200);
    CHECK(server.get("/v1/history").status == 200);
    auto const during = server.get(cached);
    CHECK(during.status == 200);
    CHECK(during.body == before.body);
    // Its other formats are rendered from the cached CSV, without PostgreSQL.
    CHECK(server.get("/v1/sheets/" + sheets.front().week + "/observations.md").status == 200);
    for (int i = 0; i < 3; ++i) {  // each answered, none hangs (the client gives up after 10 s)
        auto const refused = server.get(uncached);
        CHECK(refused.status == 503);
        CHECK(refused.header("retry-after") == "10");
        CHECK(refused.header("content-type") == "application/problem+json");
    }
    CHECK(metric(server, "lowcostgpu_archive_failed_reads_total") >= 1);

    allow_connections(db, true);
    CHECK(eventually([&] { return server.get(uncached).status == 200; }, std::chrono::seconds(15)));
    CHECK(sha256_of(server.get(uncached).body) == sheets.back().inputs_sha256);
}
