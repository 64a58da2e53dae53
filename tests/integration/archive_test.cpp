// A week's inputs are read from PostgreSQL on demand (server/archive), not held in the snapshot:
// the bytes served are those stored, a second request is a cache hit, and while PostgreSQL is away
// the current sheet, the history and the cached weeks keep serving while an uncached week gets 503
// with Retry-After, never a hang. The outage is this test database refusing connections.
#include "harness.hpp"

#include "pricing/calendar.hpp"

#include <boost/json.hpp>
#include <doctest/doctest.h>
#include <openssl/evp.h>
#include <pqxx/pqxx>

#include <algorithm>
#include <array>
#include <fstream>
#include <iterator>
#include <map>
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

// A week's stored chunks, in order.
std::vector<std::string> stored_chunks(test_database const& db, std::string const& week)
{
    pqxx::connection c(db.url("owner"));
    pqxx::read_transaction tx(c);
    std::vector<std::string> out;
    for (auto const& r : tx.exec_params("SELECT csv FROM sheet_input_chunk WHERE week = $1 ORDER BY seq", week))
        out.push_back(r[0].as<std::string>());
    return out;
}

std::string stored_csv(test_database const& db, std::string const& week)
{
    std::string out;
    for (auto const& chunk : stored_chunks(db, week))
        out += chunk;
    return out;
}

std::string read_text_file(std::string const& path)
{
    std::ifstream in(path, std::ios::binary);
    REQUIRE(in);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A canonical CSV of `rows` observations of one model inside `week`'s window, a few MiB for 40,000.
std::string week_of_rows(lcg::pricing::iso_week week, int rows)
{
    auto const window = lcg::pricing::observation_window(week);
    std::string csv = "observed_at,gpu,price_per_gpu_hour,source,listing_id\n";
    for (int i = 0; i < rows; ++i)
        csv += lcg::pricing::to_rfc3339(window.from + std::chrono::seconds(i)) + ",h100-sxm,2.400000,chunked-week,L-" +
               std::to_string(i) + "\n";
    return csv;
}

// Checks that `chunks` are the stored form of `csv`: each whole lines of about 1 MiB (the header in
// the first), joined the very bytes.
void check_chunked(std::vector<std::string> const& chunks, std::string const& csv)
{
    REQUIRE(!chunks.empty());
    CHECK(chunks.front().starts_with("observed_at,gpu,price_per_gpu_hour,source,listing_id"));
    std::string joined;
    for (std::size_t i = 0; i < chunks.size(); ++i) {
        CAPTURE(i);
        CHECK(chunks[i].ends_with('\n'));
        if (i + 1 < chunks.size()) {
            CHECK(chunks[i].size() >= 1024 * 1024);
            CHECK(chunks[i].size() < 1024 * 1024 + 200);  // the line that crosses 1 MiB, no more
        }
        joined += chunks[i];
    }
    CHECK(joined == csv);
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
    CHECK(server.metric("lowcostgpu_archive_reads_total") == 0);  // nothing read at start
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
    long const reads = server.metric("lowcostgpu_archive_reads_total");
    CHECK(reads == static_cast<long>(sheets.size()));  // the JSON came from the cached CSV
    long const hits = server.metric("lowcostgpu_archive_cache_hits_total");
    auto const again = server.get("/v1/sheets/" + sheets.back().week + "/observations.csv");
    CHECK(again.status == 200);
    CHECK(server.metric("lowcostgpu_archive_reads_total") == reads);
    CHECK(server.metric("lowcostgpu_archive_cache_hits_total") == hits + 1);
    CHECK(server.metric("lowcostgpu_archive_cache_bytes") > 0);
    // A past week is immutable, and a conditional request is answered from its validator.
    CHECK(again.header("cache-control").find("immutable") != std::string::npos);
    CHECK(server.get("/v1/sheets/" + sheets.back().week + "/observations.csv", {{"If-None-Match", again.header("etag")}})
              .status == 304);
}

TEST_CASE("the canonical CSV is stored in chunks compressed with lz4 (migration 011), every week's joined hashing to its sheet")
{
    test_database db;
    pqxx::connection c(db.url("owner"));
    pqxx::read_transaction tx(c);
    auto const method = tx.exec("SELECT attcompression FROM pg_attribute WHERE attrelid = 'sheet_input_chunk'::regclass "
                                "AND attname = 'csv'");
    REQUIRE(method.size() == 1);
    CHECK(method[0][0].as<std::string>() == "l");
    auto const mismatched = tx.exec("SELECT count(*) FROM sheet s WHERE encode(sha256(convert_to((SELECT "
                                    "string_agg(csv, '' ORDER BY seq) FROM sheet_input_chunk c WHERE c.week = s.week), "
                                    "'UTF8')), 'hex') IS DISTINCT FROM s.inputs_sha256");
    CHECK(mismatched[0][0].as<int>() == 0);
    CHECK(tx.exec("SELECT to_regclass('sheet_input')")[0][0].is_null());  // the single-value table is gone
}

TEST_CASE("publish writes a big week in chunks of whole lines, and the server streams the very bytes and their JSON")
{
    test_database db;
    auto const week = lcg::pricing::previous_week(current_week());
    std::string const name = lcg::pricing::to_string(week);
    auto const csv = week_of_rows(week, 40'000);  // about 3 MiB: 3 chunks
    REQUIRE(run_lowcostgpu({"import-observations", "--database-url", db.url("publisher"), "-"}, csv).exit_code == 0);
    REQUIRE(run_lowcostgpu({"publish", "--database-url", db.url("publisher"), "--week", name, "--replace"}).exit_code == 0);
    auto const chunks = stored_chunks(db, name);  // the sample's observations of that week and these
    CHECK(chunks.size() >= 3);
    check_chunked(chunks, stored_csv(db, name));

    server_process server(db.url("reader"));
    auto const listed = published(server);
    auto const sheet = std::find_if(listed.begin(), listed.end(), [&](auto const& s) { return s.week == name; });
    REQUIRE(sheet != listed.end());
    auto const served = server.get("/v1/sheets/" + name + "/observations.csv");
    REQUIRE(served.status == 200);
    CHECK(served.header("content-length") == std::to_string(served.body.size()));
    CHECK(served.body == stored_csv(db, name));
    CHECK(sha256_of(served.body) == sheet->inputs_sha256);
    long const chunk_count = static_cast<long>(chunks.size());
    CHECK(server.metric("lowcostgpu_archive_chunk_reads_total") == chunk_count);
    auto const json = server.get("/v1/sheets/" + name + "/observations");
    REQUIRE(json.status == 200);
    CHECK(json.header("transfer-encoding") == "chunked");
    auto const doc = json::parse(json.body).as_object();
    auto const& rows = doc.at("observations").as_array();
    CHECK(rows.size() == static_cast<std::size_t>(std::count(served.body.begin(), served.body.end(), '\n') - 1));
    CHECK(doc.at("count").to_number<std::size_t>() == rows.size());
    // The last element is the CSV's last row: nothing lost or repeated between chunks.
    auto const last_row = served.body.substr(served.body.rfind('\n', served.body.size() - 2) + 1);
    CHECK(last_row.find("," + std::string(rows.back().at("listing_id").as_string()) + "\n") != std::string::npos);
    CHECK(server.metric("lowcostgpu_archive_chunk_reads_total") == chunk_count);  // rendered from the cached chunks
    CHECK(server.get("/v1/sheets/" + name + "/observations.md").status == 200);
}

TEST_CASE("migration 011 moves every stored week into chunks: the same bytes, line-bounded, the old table dropped")
{
    test_database db;
    auto const week = lcg::pricing::previous_week(current_week());
    std::string const big_week = lcg::pricing::to_string(week);
    auto const big = week_of_rows(week, 40'000);
    REQUIRE(run_lowcostgpu({"import-observations", "--database-url", db.url("publisher"), "-"}, big).exit_code == 0);
    REQUIRE(run_lowcostgpu({"publish", "--database-url", db.url("publisher"), "--week", big_week, "--replace"}).exit_code == 0);
    std::map<std::string, std::string> before;
    std::map<std::string, std::vector<std::string>> published_chunks;
    {
        pqxx::connection c(db.url("owner"));
        pqxx::read_transaction tx(c);
        for (auto const& r : tx.exec("SELECT week FROM sheet ORDER BY week")) {
            before[r[0].as<std::string>()] = stored_csv(db, r[0].as<std::string>());
            published_chunks[r[0].as<std::string>()] = stored_chunks(db, r[0].as<std::string>());
        }
    }
    REQUIRE(published_chunks.at(big_week).size() >= 3);
    REQUIRE(before.size() >= 3);
    // The state before migration 011: one value per week (migrations 005 and 009).
    db.exec("DROP TABLE sheet_input_chunk");
    db.exec("CREATE TABLE sheet_input (week text PRIMARY KEY REFERENCES sheet (week) ON DELETE CASCADE, "
            "canonical_csv text NOT NULL)");
    {
        pqxx::connection c(db.url("owner"));
        pqxx::work tx(c);
        for (auto const& [week_name, csv] : before)
            tx.exec_params("INSERT INTO sheet_input (week, canonical_csv) VALUES ($1, $2)", week_name, csv);
        tx.commit();
    }
    db.exec(read_text_file(std::string(LCG_SOURCE_DIR) + "/sql/migrations/011_input_chunks.sql"));
    for (auto const& stored : before) {
        std::string const& week_name = stored.first;  // a named variable: doctest captures it
        CAPTURE(week_name);
        auto const chunks = stored_chunks(db, week_name);
        check_chunked(chunks, stored.second);
        CHECK(chunks == published_chunks.at(week_name));  // the rule of publish (pricing::input_chunks), in SQL
    }
    pqxx::connection c(db.url("owner"));
    pqxx::read_transaction tx(c);
    CHECK(tx.exec("SELECT to_regclass('sheet_input')")[0][0].is_null());
}

TEST_CASE("with a cache of 0 bytes every request reads PostgreSQL, and still gets the stored bytes")
{
    test_database db;
    server_process server(db.url("reader"), {"--archive-cache-bytes", "0"});
    auto const week = published(server).front();
    for (int i = 0; i < 3; ++i)
        CHECK(sha256_of(server.get("/v1/sheets/" + week.week + "/observations.csv").body) == week.inputs_sha256);
    CHECK(server.metric("lowcostgpu_archive_reads_total") == 3);
    CHECK(server.metric("lowcostgpu_archive_cache_bytes") == 0);
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
    CHECK(server.metric("lowcostgpu_archive_failed_reads_total") >= 1);

    allow_connections(db, true);
    CHECK(eventually([&] { return server.get(uncached).status == 200; }, std::chrono::seconds(15)));
    CHECK(sha256_of(server.get(uncached).body) == sheets.back().inputs_sha256);
}
