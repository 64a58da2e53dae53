// Auditable sheets: history, published inputs, methodology, regions, inventory and `lowcostgpu audit`.
#include "harness.hpp"

#include "pricing/calendar.hpp"

#include <boost/json.hpp>
#include <doctest/doctest.h>
#include <openssl/evp.h>

#include <array>
#include <chrono>
#include <fstream>

using namespace lcg::testing;
namespace json = boost::json;

namespace {

std::string last_week() { return lcg::pricing::to_string(lcg::pricing::previous_week(current_week())); }

json::object parse(std::string const& body) { return json::parse(body).as_object(); }

std::string sha256_hex(std::string const& bytes)
{
    std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
    unsigned int size = 0;
    EVP_Digest(bytes.data(), bytes.size(), digest.data(), &size, EVP_sha256(), nullptr);
    std::string out;
    char buf[3];
    for (unsigned int i = 0; i < size; ++i) {
        std::snprintf(buf, sizeof buf, "%02x", digest[i]);
        out += buf;
    }
    return out;
}

std::string write_temp(std::string const& name, std::string const& content)
{
    std::string const path = "/tmp/lcg-audit-test-" + std::to_string(getpid()) + "-" + name;
    std::ofstream(path, std::ios::binary) << content;
    return path;
}

bool contains(std::string const& haystack, std::string const& needle)
{
    return haystack.find(needle) != std::string::npos;
}

std::string replace_first(std::string text, std::string const& from, std::string const& to)
{
    auto const at = text.find(from);
    REQUIRE(at != std::string::npos);
    return text.replace(at, from.size(), to);
}

}

TEST_CASE("/v1/sheets lists every published week, newest first")
{
    test_database db;
    server_process server(db.url("reader"));
    auto const index = parse(server.get("/v1/sheets").body);
    CHECK(index.at("count").as_int64() == 10);
    CHECK(index.at("current").as_string() == this_week());
    auto const& first = index.at("sheets").as_array().at(0).as_object();
    CHECK(first.at("week").as_string() == this_week());
    CHECK(first.at("priced_models").as_int64() == 27);
    CHECK(first.at("inputs_sha256").as_string().size() == 64);
    for (char const* key : {"effective_from", "effective_until", "published_at"})
        CHECK(first.at(key).is_string());
}

TEST_CASE("a past sheet is immutable, the current one is not, bad weeks are refused")
{
    test_database db;
    server_process server(db.url("reader"));
    auto const past = server.get("/v1/sheets/" + last_week());
    REQUIRE(past.status == 200);
    CHECK(past.header("cache-control") == "public, max-age=31536000, immutable");
    CHECK(parse(past.body).at("week").as_string() == last_week());
    auto const current = server.get("/v1/sheets/" + this_week());
    CHECK(contains(current.header("cache-control"), "max-age=300"));
    CHECK(server.get("/v1/sheets/1999-W01").status == 404);
    auto const bad = server.get("/v1/sheets/2026-W99");
    CHECK(bad.status == 400);
    CHECK(parse(bad.body).at("parameter").as_string() == "week");
}

TEST_CASE("each row carries median, cap, rates and headroom exactly")
{
    test_database db;
    server_process server(db.url("reader"));
    auto const sheet = parse(server.get("/v1/sheets/" + this_week()).body);
    bool seen_half_micro = false;
    for (auto const& v : sheet.at("prices").as_array()) {
        auto const& row = v.as_object();
        std::string const median(row.at("median").as_string());
        if (median.size() > 8 && median.back() == '5')
            seen_half_micro = true;  // an even count whose middle values differ by an odd micro
        if (row.at("gpu").as_string() == "h100-sxm") {
            CHECK(row.at("cap").as_string() == "1.680");
            CHECK(row.at("headroom").as_string() == "0.000");
        }
    }
    CHECK(seen_half_micro);
}

TEST_CASE("the published inputs hash to the sheet's inputs_sha256, as CSV and as JSON")
{
    test_database db;
    server_process server(db.url("reader"));
    auto const sheet = parse(server.get("/v1/sheets/" + this_week()).body);
    auto const csv = server.get("/v1/sheets/" + this_week() + "/observations.csv");
    REQUIRE(csv.status == 200);
    CHECK(contains(csv.header("content-type"), "text/csv"));
    CHECK(sha256_hex(csv.body) == sheet.at("inputs_sha256").as_string());
    auto const negotiated = server.get("/v1/sheets/" + this_week() + "/observations", {{"Accept", "text/csv"}});
    CHECK(negotiated.body == csv.body);
    auto const as_json = parse(server.get("/v1/sheets/" + this_week() + "/observations").body);
    CHECK(as_json.at("count").as_int64() == sheet.at("observations").as_int64());
    CHECK(as_json.at("inputs_sha256") == sheet.at("inputs_sha256"));
}

TEST_CASE("observations imported later into a published window do not change its inputs")
{
    test_database db;
    server_process server(db.url("reader"));
    auto const before = server.get("/v1/sheets/" + last_week() + "/observations.csv").body;
    auto const window = lcg::pricing::observation_window(lcg::pricing::previous_week(current_week()));
    std::string const csv = "observed_at,gpu,price_per_gpu_hour,source,listing_id\n" +
                            lcg::pricing::to_rfc3339(window.from + std::chrono::hours(1)) + ",l4,9.99,late,L-late\n";
    REQUIRE(run_lowcostgpu({"import-observations", "--database-url", db.url("publisher"), "-"}, csv).exit_code == 0);
    CHECK(run_lowcostgpu({"audit", "--url", "http://127.0.0.1:" + std::to_string(server.port()), "--week",
                          last_week()}).exit_code == 0);
    CHECK(server.get("/v1/sheets/" + last_week() + "/observations.csv").body == before);
}

TEST_CASE("/v1/methodology states every constant, rule and audit step")
{
    test_database db;
    server_process server(db.url("reader"));
    auto const m = parse(server.get("/v1/methodology").body);
    auto const& c = m.at("constants").as_object();
    CHECK(c.at("on_demand_ratio_of_median").as_string() == "0.70");
    CHECK(c.at("spot_ratio_of_on_demand").as_string() == "0.50");
    CHECK(c.at("reserved_ratio_of_on_demand").as_string() == "0.65");
    CHECK(c.at("minimum_observations").as_int64() == 5);
    CHECK(c.at("window_days").as_int64() == 7);
    CHECK(c.at("month_hours").as_int64() == 730);
    CHECK(c.at("storage_per_gb_month").as_string() == "0.08");
    CHECK(c.at("network_per_gb").as_string() == "0.01");
    CHECK(c.at("reserved_term_months").as_int64() == 3);
    CHECK(c.at("minimum_top_up").as_string() == "40.00");
    CHECK(c.at("credits_expire").as_bool() == false);
    CHECK(c.at("sla_monthly_target_percent").as_string() == "99.9");
    for (auto const& r : m.at("rules").as_array()) {
        CHECK(!r.at("rule").as_string().empty());
        CHECK(!r.at("formula").as_string().empty());
    }
    CHECK(m.at("how_to_audit").as_array().size() >= 5);
}

TEST_CASE("the current sheet states the billing terms")
{
    test_database db;
    server_process server(db.url("reader"));
    auto const billing = parse(server.get("/v1/prices").body).at("billing").as_object();
    CHECK(billing.at("storage_per_gb_month").as_string() == "0.08");
    CHECK(billing.at("network_per_gb").as_string() == "0.01");
    CHECK(billing.at("reserved_term_months").as_int64() == 3);
    CHECK(billing.at("account").at("minimum_top_up").as_string() == "40.00");
}

TEST_CASE("/v1/regions has 32 regions on five continents, /v1/inventory lists models by region")
{
    test_database db;
    server_process server(db.url("reader"));
    auto const regions = parse(server.get("/v1/regions").body);
    CHECK(regions.at("count").as_int64() == 32);
    CHECK(regions.at("continents").as_int64() == 5);
    auto const inventory = parse(server.get("/v1/inventory").body);
    auto const& gpus = inventory.at("gpus").as_array();
    CHECK(gpus.size() == 27);
    for (auto const& g : gpus)
        for (auto const& r : g.at("regions").as_array())
            CHECK(r.at("largest_instance_gpus").as_int64() <= g.at("max_gpus_per_instance").as_int64());
}

TEST_CASE("ETag and If-None-Match on the audit endpoints")
{
    test_database db;
    server_process server(db.url("reader"));
    std::string const week = "/v1/sheets/" + this_week();
    for (std::string const& path : std::vector<std::string>{"/v1/sheets", week, week + "/observations",
                                                            week + "/observations.csv", "/v1/methodology",
                                                            "/v1/regions", "/v1/inventory"}) {
        CAPTURE(path);
        auto const first = server.get(path);
        REQUIRE(first.status == 200);
        CHECK(server.get(path, {{"If-None-Match", first.header("etag")}}).status == 304);
    }
}

TEST_CASE("lowcostgpu audit --all passes on the sample data")
{
    test_database db;
    server_process server(db.url("reader"));
    auto const r = run_lowcostgpu({"audit", "--url", "http://127.0.0.1:" + std::to_string(server.port()), "--all"});
    CAPTURE(r.out);
    CAPTURE(r.err);
    CHECK(r.exit_code == 0);
    CHECK(contains(r.out, "audit passed: 10 sheet(s)"));
}

TEST_CASE("audit --url reads a week's observations no further than the length its signed index gives")
{
    test_database db;
    server_process origin(db.url("reader"));
    std::string const week = this_week();
    std::size_t const signed_bytes = origin.get("/v1/sheets/" + week + "/observations.csv").body.size();
    // An upstream that forwards every document as the origin serves it, but one line more of inputs.
    auto const padding = editing_proxy(origin, [](std::string const& target, std::string& body) {
        if (target.ends_with("/observations.csv"))
            body += "2030-01-01T00:00:00Z,h100-sxm,1.000000,extra,x\n";
    });
    auto const r = run_lowcostgpu({"audit", "--url", padding.url(), "--week", week});
    CAPTURE(r.out);
    CAPTURE(r.err);
    CHECK(r.exit_code == 1);
    CHECK(contains(r.out, "catalog: signed at"));
    CHECK(contains(r.err, "the answer is larger than " + std::to_string(signed_bytes) + " bytes"));
}

TEST_CASE("audit --url fails a service whose /v1/prices is not the sheet it names")
{
    test_database db;
    server_process origin(db.url("reader"));
    // The archive stays honest; only what most clients read says the H100 SXM costs a mill.
    auto const cheap = editing_proxy(origin, [](std::string const& target, std::string& body) {
        if (target == "/v1/prices")
            body = replace_first(body, "\"on_demand\":\"1.680\"", "\"on_demand\":\"0.001\"");
    });
    auto const r = run_lowcostgpu({"audit", "--url", cheap.url()});
    CAPTURE(r.out);
    CHECK(r.exit_code == 1);
    CHECK(contains(r.out, "FAIL /v1/prices is not the sheet /v1/sheets/" + this_week() + " it names"));
}

TEST_CASE("audit --url fails a corrected week served in its superseded version, signed as it was")
{
    test_database db;
    std::string const week = last_week();
    std::string superseded;
    {
        server_process before(db.url("reader"));
        superseded = before.get("/v1/sheets/" + week).body;
    }
    auto const fix = run_lowcostgpu({"publish", "--database-url", db.url("publisher"), "--week", week, "--replace",
                                     "--reason", "a source listed prices per GPU-minute"});
    REQUIRE(fix.exit_code == 0);
    server_process origin(db.url("reader"));
    auto const honest = run_lowcostgpu({"audit", "--url", "http://127.0.0.1:" + std::to_string(origin.port()), "--week", week});
    CAPTURE(honest.out);
    CHECK(honest.exit_code == 0);
    CHECK(contains(honest.out, "ok   the version the log's newest entry for " + week + " names"));
    auto const rollback = editing_proxy(origin, [&](std::string const& target, std::string& body) {
        if (target == "/v1/sheets/" + week)
            body = superseded;
    });
    auto const r = run_lowcostgpu({"audit", "--url", rollback.url(), "--week", week});
    CAPTURE(r.out);
    CHECK(r.exit_code == 1);
    CHECK(contains(r.out, "ok   signature Ed25519"));  // the old version's signature still verifies
    CHECK(contains(r.out, "FAIL /v1/sheets/" + week + " is not the version the log's newest entry for it names"));
}

TEST_CASE("the offline audit names the row of a tampered input or rate")
{
    test_database db;
    server_process server(db.url("reader"));
    std::string const sheet = server.get("/v1/sheets/" + this_week()).body;
    std::string const csv = server.get("/v1/sheets/" + this_week() + "/observations.csv").body;
    auto const good = run_lowcostgpu(
        {"audit", "--sheet", write_temp("sheet.json", sheet), "--observations", write_temp("obs.csv", csv)});
    CHECK(good.exit_code == 0);
    // "-" is standard input for every file a command reads, the sheet and the observations alike.
    CHECK(run_lowcostgpu({"audit", "--sheet", "-", "--observations", write_temp("obs-piped.csv", csv)}, sheet).exit_code == 0);
    CHECK(run_lowcostgpu({"audit", "--sheet", write_temp("sheet-piped.json", sheet), "--observations", "-"}, csv).exit_code == 0);

    auto const rate = run_lowcostgpu({"audit", "--sheet",
                                      write_temp("bad-sheet.json", replace_first(sheet, "\"spot\":\"0.840\"",
                                                                                 "\"spot\":\"0.841\"")),
                                      "--observations", write_temp("obs2.csv", csv)});
    CHECK(rate.exit_code == 1);
    CHECK(contains(rate.out, "DIFF h100-sxm"));
    CHECK(contains(rate.out, "spot: published 0.841, recomputed 0.840"));

    auto const input = run_lowcostgpu({"audit", "--sheet", write_temp("sheet3.json", sheet), "--observations",
                                       write_temp("bad-obs.csv", replace_first(csv, ",h100-sxm,2.400000,",
                                                                               ",h100-sxm,2.600000,"))});
    CHECK(input.exit_code == 1);
    CHECK(contains(input.out, "DIFF inputs_sha256"));
    CHECK(contains(input.out, "DIFF h100-sxm"));
}

TEST_CASE("the audit reads a count exactly: 2^32 more observations than recomputed is a difference")
{
    test_database db;
    server_process server(db.url("reader"));
    auto sheet = json::parse(server.get("/v1/sheets/" + this_week()).body).as_object();
    std::string const csv = server.get("/v1/sheets/" + this_week() + "/observations.csv").body;
    sheet["observations"] = sheet.at("observations").as_int64() + (std::int64_t{1} << 32);
    auto& row = sheet.at("prices").as_array().at(0).as_object();
    row["observations"] = row.at("observations").as_int64() + (std::int64_t{1} << 32);
    auto const r = run_lowcostgpu({"audit", "--sheet", write_temp("big-count.json", json::serialize(sheet)),
                                   "--observations", write_temp("big-count.csv", csv)});
    CAPTURE(r.out);
    CHECK(r.exit_code == 1);
    CHECK(contains(r.out, "DIFF " + std::string(row.at("gpu").as_string())));
}

TEST_CASE("the audit fails a sheet whose inputs lie outside its window, even with a matching hash")
{
    test_database db;
    server_process server(db.url("reader"));
    std::string const sheet = server.get("/v1/sheets/" + this_week()).body;
    std::string const csv = server.get("/v1/sheets/" + this_week() + "/observations.csv").body;
    // Every observation moved to 2019 (the year of each line's timestamp), the hash made to match.
    std::string moved;
    std::size_t start = 0;
    for (int line = 0; start < csv.size(); ++line) {
        auto const end = csv.find('\n', start);
        std::string text = csv.substr(start, end - start);
        if (line > 0)
            text.replace(0, 4, "2019");
        moved += text + "\n";
        start = end + 1;
    }
    auto const published_sha = json::parse(sheet).at("inputs_sha256").as_string();
    std::string const forged = replace_first(sheet, std::string(published_sha), sha256_hex(moved));
    auto const r = run_lowcostgpu({"audit", "--sheet", write_temp("moved-sheet.json", forged), "--observations",
                                   write_temp("moved-obs.csv", moved)});
    CAPTURE(r.out);
    CHECK(r.exit_code == 1);
    CHECK(contains(r.out, "ok   inputs_sha256"));
    CHECK(contains(r.out, "observations lie outside the window"));
    CHECK(contains(r.out, "at 2019-"));
    CHECK(contains(r.out, "FAIL"));

    auto const dates = run_lowcostgpu({"audit", "--sheet",
                                       write_temp("dates-sheet.json", replace_first(sheet, "\"effective_until\":\"",
                                                                                    "\"effective_until\":\"1")),
                                       "--observations", write_temp("dates-obs.csv", csv)});
    CHECK(dates.exit_code == 1);
    CHECK(contains(dates.out, "DIFF effective_until: published 1"));
}

// NOTIFY brings it within a second or two; the bound is 10 s, well under the 30 s poll that would
// also bring it, so that a loaded machine (the sanitizer build, run two at a time) does not fail a
// behaviour on a timing.
TEST_CASE("a newly published week reaches a running server on NOTIFY, before the 30 s poll")
{
    test_database db;
    db.exec("DELETE FROM sheet WHERE week = '" + this_week() + "'");
    server_process server(db.url("reader"));
    REQUIRE(parse(server.get("/v1/prices").body).at("week").as_string() == last_week());
    auto const window = lcg::pricing::observation_window(current_week());
    std::string csv = "observed_at,gpu,price_per_gpu_hour,source,listing_id\n";
    for (int i = 0; i < 5; ++i)
        csv += lcg::pricing::to_rfc3339(window.from + std::chrono::hours(10 + i)) + ",l4,0.4" + std::to_string(i) +
               ",new-market,N-" + std::to_string(i) + "\n";
    REQUIRE(run_lowcostgpu({"import-observations", "--database-url", db.url("publisher"), "-"}, csv).exit_code == 0);
    REQUIRE(run_lowcostgpu({"publish", "--database-url", db.url("publisher"), "--week", this_week()}).exit_code == 0);
    bool const seen = eventually(
        [&] { return parse(server.get("/v1/prices").body).at("week").as_string() == this_week(); },
        std::chrono::seconds(10));
    CHECK(seen);
}
