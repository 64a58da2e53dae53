// The command line against a real PostgreSQL: migrate, import-observations, publish, roles.
#include "harness.hpp"

#include <doctest/doctest.h>
#include <pqxx/pqxx>

#include <string>

using namespace lcg::testing;

namespace {

std::string const header = "observed_at,gpu,price_per_gpu_hour,source,listing_id\n";

bool contains(std::string const& haystack, std::string const& needle)
{
    return haystack.find(needle) != std::string::npos;
}

}

TEST_CASE("migrate is idempotent")
{
    test_database db;
    auto const r = run_lowcostgpu({"migrate", "--database-url", db.url("owner")});
    CHECK(r.exit_code == 0);
    CHECK(contains(r.out, "up to date"));
    CHECK(db.count("schema_migration") == 17);  // 001 to 017
    CHECK(db.count("gpu_model") == 27);
    CHECK(db.count("region") == 32);
}

TEST_CASE("a good CSV is imported")
{
    test_database db;
    long const before = db.count("observation");
    std::string const csv = header + "2019-01-01T10:00:00Z,h100-sxm,2.412,test-market,L-1\n"
                                     "2019-01-01T11:00:00Z,l4,0.38,\"market, with comma\",\n";
    auto const r = run_lowcostgpu({"import-observations", "--database-url", db.url("publisher"), "-"}, csv);
    CHECK(r.exit_code == 0);
    CHECK(contains(r.out, "imported 2 observations"));
    CHECK(db.count("observation") == before + 2);
}

TEST_CASE("a malformed CSV is refused with line numbers and nothing is imported")
{
    test_database db;
    long const before = db.count("observation");
    std::string const csv = header +
                            "2019-01-01T10:00:00Z,h100-sxm,2.412,m,L-1\n"        // 2: good
                            "2019-01-01T10:00:00Z,h100-sxm,abc,m,L-2\n"          // 3: bad number
                            "2019-01-01T10:00:00Z,h100-sxm,1.1234567,m,L-3\n"    // 4: 7 decimals
                            "2019-01-01T10:00:00Z,h100-sxm,0,m,L-4\n"            // 5: zero
                            "2019-01-01T10:00:00Z,h100-sxm,-1.5,m,L-5\n"         // 6: negative
                            "2019-01-01T10:00:00Z,h999,1.5,m,L-6\n"              // 7: unknown GPU
                            "2019-13-01T10:00:00Z,h100-sxm,1.5,m,L-7\n"          // 8: bad timestamp
                            "2019-01-01T10:00:00Z,h100-sxm,1.5,m\n";             // 9: missing column
    auto const r = run_lowcostgpu({"import-observations", "--database-url", db.url("publisher"), "-"}, csv);
    CHECK(r.exit_code == 1);
    CAPTURE(r.err);
    for (int line = 3; line <= 9; ++line)
        CHECK(contains(r.err, "line " + std::to_string(line) + ":"));
    CHECK_FALSE(contains(r.err, "line 2:"));
    CHECK(contains(r.err, "more than 6 decimals"));
    CHECK(contains(r.err, "not a catalog id"));
    CHECK(contains(r.err, "nothing was imported"));
    CHECK(db.count("observation") == before);
}

TEST_CASE("a listing given two prices at one time is refused whole, in one file or across two imports")
{
    test_database db;
    long const before = db.count("observation");
    auto import = [&](std::string const& rows) {
        return run_lowcostgpu({"import-observations", "--database-url", db.url("publisher"), "-"}, header + rows);
    };
    std::string const first = "2019-01-01T10:00:00Z,l4,0.500000,test-market,DUP\n";
    auto const itself = import(first + "2019-01-01T11:00:00Z,l4,0.400000,test-market,OTHER\n" +
                               "2019-01-01T10:00:00Z,l4,0.100000,test-market,DUP\n");
    CAPTURE(itself.err);
    CHECK(itself.exit_code == 1);
    CHECK(contains(itself.err, "line 4: test-market's listing DUP is l4 at 0.100000 here, but l4 at 0.500000"));
    CHECK(contains(itself.err, "nothing was imported"));
    CHECK(db.count("observation") == before);
    // The same line twice is a repeat, skipped; once imported, another price for it is refused.
    auto const repeated = import(first + first);
    CHECK(repeated.exit_code == 0);
    CHECK(contains(repeated.out, "imported 1 observations (1 already imported, skipped)"));
    auto const later = import("2019-01-01T10:00:00Z,l4,0.700000,test-market,DUP\n");
    CHECK(later.exit_code == 1);
    CHECK(contains(later.err, "line 2: test-market's listing DUP is l4 at 0.700000 here, but l4 at 0.500000"));
    CHECK(db.count("observation") == before + 1);
}

TEST_CASE("a line longer than any observation is refused, read no further than the bound, and the lines after it still read")
{
    test_database db;
    long const before = db.count("observation");
    std::string const csv = header + "2019-01-01T10:00:00Z,l4,0.5,test-market," + std::string(200'000, 'x') + "\n" +
                            "2019-01-01T10:00:00Z,l4,abc,test-market,L-2\n";
    auto const r = run_lowcostgpu({"import-observations", "--database-url", db.url("publisher"), "-"}, csv);
    CAPTURE(r.err);
    CHECK(r.exit_code == 1);
    CHECK(contains(r.err, "line 2: longer than 65536 bytes"));
    CHECK(contains(r.err, "line 3:"));  // counted right after the long one
    CHECK(db.count("observation") == before);
}

TEST_CASE("a wrong header or an empty file is refused")
{
    test_database db;
    long const before = db.count("observation");
    auto const wrong = run_lowcostgpu({"import-observations", "--database-url", db.url("publisher"), "-"},
                                      "when,gpu,price,source,listing\n2019-01-01T10:00:00Z,l4,1,m,\n");
    CHECK(wrong.exit_code == 1);
    CHECK(contains(wrong.err, "line 1: the header must be"));
    auto const empty = run_lowcostgpu({"import-observations", "--database-url", db.url("publisher"), "-"}, "");
    CHECK(empty.exit_code == 1);
    CHECK(contains(empty.err, "empty"));
    auto const missing = run_lowcostgpu({"import-observations", "--database-url", db.url("publisher"), "/nope.csv"});
    CHECK(missing.exit_code == 2);
    CHECK(db.count("observation") == before);
}

TEST_CASE("serve refuses a trusted proxy that is not an IP address before it starts")
{
    auto const range = run_lowcostgpu({"serve", "--database-url", "postgresql://127.0.0.1:1/none", "--trusted-proxies",
                                       "127.0.0.1, 10.0.0.0/8"});
    CHECK(range.exit_code == 2);
    CHECK(contains(range.err, "--trusted-proxies: '10.0.0.0/8' is not an IP address"));
}

TEST_CASE("publish refuses an existing week unless --replace, and writes the week's window only")
{
    test_database db;
    std::string csv = header;
    // 2019-W02 starts on Monday 2019-01-07: its window is 2018-12-31 .. 2019-01-06. Five sources
    // of one listing each, so the sources' median is the listings' (rules version 2).
    for (int i = 0; i < 5; ++i)
        csv += "2019-01-0" + std::to_string(i + 1) + "T12:00:00Z,l4,1.00" + std::to_string(i) + ",m" +
               std::to_string(i) + ",L" + std::to_string(i) + "\n";
    csv += "2019-01-07T00:00:00Z,l4,9.99,m,outside\n";  // the re-check instant itself is next week's
    REQUIRE(run_lowcostgpu({"import-observations", "--database-url", db.url("publisher"), "-"}, csv).exit_code == 0);

    auto const first = run_lowcostgpu({"publish", "--database-url", db.url("publisher"), "--week", "2019-W02"});
    CHECK(first.exit_code == 0);
    CHECK(contains(first.out, "1 of 27 models priced from 5 observations"));
    pqxx::connection c(db.url("reader"));
    {
        pqxx::read_transaction tx(c);
        auto const row = tx.exec1("SELECT median2_micros, on_demand_micros FROM sheet_row "
                                  "WHERE week = '2019-W02' AND gpu = 'l4'");
        CHECK(row[0].as<long>() == 2'004'000);  // median 1.002
        CHECK(row[1].as<long>() == 701'000);    // floor(1.002 × 0.70) = 0.701
    }
    auto const again = run_lowcostgpu({"publish", "--database-url", db.url("publisher"), "--week", "2019-W02"});
    CHECK(again.exit_code == 1);
    CHECK(contains(again.err, "already published"));
    auto const replaced =
        run_lowcostgpu({"publish", "--database-url", db.url("publisher"), "--week", "2019-W02", "--replace"});
    CHECK(replaced.exit_code == 0);
    CHECK(contains(replaced.out, "republished"));
    auto const bad_week = run_lowcostgpu({"publish", "--database-url", db.url("publisher"), "--week", "2019-W60"});
    CHECK(bad_week.exit_code == 2);
}

TEST_CASE("one model whose rates round to $0.000 does not block the week: it is listed as refused")
{
    test_database db;
    std::string csv = header;
    // 2019-W02's window is 2018-12-31 .. 2019-01-06: five l4 at $0.001, five h100-sxm at $2.400.
    for (int i = 0; i < 5; ++i) {
        std::string const day = "2019-01-0" + std::to_string(i + 1);
        std::string const source = ",m" + std::to_string(i);  // five sources
        csv += day + "T12:00:00Z,l4,0.001" + source + ",cheap" + std::to_string(i) + "\n";
        csv += day + "T13:00:00Z,h100-sxm,2.400" + source + ",fine" + std::to_string(i) + "\n";
    }
    REQUIRE(run_lowcostgpu({"import-observations", "--database-url", db.url("publisher"), "-"}, csv).exit_code == 0);

    auto const r = run_lowcostgpu({"publish", "--database-url", db.url("publisher"), "--week", "2019-W02"});
    CAPTURE(r.out);
    CAPTURE(r.err);
    CHECK(r.exit_code == 0);
    CHECK(contains(r.out, "1 of 27 models priced from 10 observations"));
    CHECK(contains(r.out, "not priced: l4: "));
    CHECK(contains(r.out, "0.000"));
    CHECK_FALSE(contains(r.err, "constraint"));
    pqxx::connection c(db.url("reader"));
    pqxx::read_transaction tx(c);
    auto const l4 = tx.exec1("SELECT on_demand_micros IS NULL, unavailable_reason FROM sheet_row "
                             "WHERE week = '2019-W02' AND gpu = 'l4'");
    CHECK(l4[0].as<bool>());
    CHECK(contains(l4[1].as<std::string>(), "0.000"));
    CHECK(tx.exec1("SELECT on_demand_micros FROM sheet_row WHERE week = '2019-W02' AND gpu = 'h100-sxm'")[0]
              .as<long>() == 1'680'000);
}

TEST_CASE("the reader role cannot write")
{
    test_database db;
    pqxx::connection c(db.url("reader"));
    for (char const* sql : {"INSERT INTO region VALUES ('xx-test-1', 'X', 'XX', 'Europe', false)",
                            "UPDATE sheet_row SET on_demand_micros = 1000", "DELETE FROM observation",
                            "CREATE TABLE intruder (x int)"}) {
        CAPTURE(sql);
        pqxx::work tx(c);
        CHECK_THROWS(tx.exec(sql));
    }
}

TEST_CASE("the reader role has no TEMP, advisory-lock or pg_notify rights, and cannot hold up publish")
{
    test_database db;
    // On the migrated template itself: a copy made with CREATE DATABASE … TEMPLATE does not inherit
    // database-level privileges (TEMPORARY), only what lives inside the database (function rights).
    // Nothing is written: every statement is refused and rolled back.
    pqxx::connection c("postgresql://lowcostgpu_reader@127.0.0.1:" + required_env("LCG_TEST_PG_PORT") + "/" +
                       required_env("LCG_TEST_TEMPLATE"));
    // Each in a read-write transaction: the role's read-only default is only a default it may change.
    for (std::string const sql : {"CREATE TEMP TABLE intruder (x int)", "SELECT pg_advisory_lock(4243)",
                            "SELECT pg_advisory_xact_lock(4242)", "SELECT pg_try_advisory_lock(1)",
                            "SELECT pg_advisory_lock_shared(1)", "SELECT pg_notify('lowcostgpu_changed', '')"}) {
        CAPTURE(sql);
        pqxx::work tx(c);
        tx.exec("SET TRANSACTION READ WRITE");
        try {
            tx.exec(sql);
            FAIL("the reader was allowed: ", sql);
        } catch (pqxx::insufficient_privilege const&) {
            // refused, as it should be
        }
    }
    // What the reader can lock (ACCESS SHARE, by reading) does not conflict with publish's lock.
    pqxx::connection reader(db.url("reader"));
    pqxx::work holding(reader);
    holding.exec("LOCK TABLE sheet, schema_migration IN ACCESS SHARE MODE");
    auto const r = run_lowcostgpu({"publish", "--database-url", db.url("publisher"), "--week", "2019-W02"});
    CAPTURE(r.err);
    CHECK(r.exit_code == 0);
    CHECK(run_lowcostgpu({"migrate", "--database-url", db.url("owner")}).exit_code == 0);
}

TEST_CASE("the database refuses a row above the cap even if our code had a bug")
{
    test_database db;
    CHECK_THROWS(db.exec("UPDATE sheet_row SET on_demand_micros = on_demand_micros + 1000000, "
                         "spot_micros = 0, reserved_micros = 0 WHERE gpu = 'h100-sxm'"));
}
