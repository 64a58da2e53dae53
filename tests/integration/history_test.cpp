// Prices over time on the sample data (10 published weeks), from the real server: every figure of a
// model's history is the figure of its week's sheet; week= and the latest/current aliases name the
// sheet in effect; the Atom feed of new sheets is well-formed RFC 4287.
#include "harness.hpp"

#include <boost/json.hpp>
#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <unistd.h>
#include <fstream>
#include <map>
#include <sstream>

using namespace lcg::testing;
namespace json = boost::json;

namespace {

json::object get_json(server_process const& server, std::string const& target)
{
    auto const reply = server.get(target);
    INFO(target << " → " << reply.status << " " << reply.body.substr(0, 300));
    REQUIRE(reply.status == 200);
    return json::parse(reply.body).as_object();
}

// The row of `gpu` on a sheet document.
json::object row_of(json::object const& sheet, std::string_view gpu)
{
    for (auto const& r : sheet.at("prices").as_array())
        if (r.at("gpu").as_string() == gpu)
            return r.as_object();
    return {};
}

std::vector<std::string> lines(std::string const& text)
{
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        out.push_back(line);
    return out;
}

}

TEST_CASE("every figure of a model's history is that of its week's sheet")
{
    test_database db;
    server_process server(db.url("reader"));
    std::map<std::string, json::object> sheets;
    auto const index = get_json(server, "/v1/sheets");
    for (auto const& s : index.at("sheets").as_array()) {
        std::string const week(s.at("week").as_string());
        sheets[week] = get_json(server, "/v1/sheets/" + week);
    }
    REQUIRE(sheets.size() == 10);
    int compared = 0, changes = 0;
    auto const catalog = get_json(server, "/v1/gpus");
    for (auto const& g : catalog.at("gpus").as_array()) {
        std::string const gpu(g.at("id").as_string());
        auto const history = get_json(server, "/v1/prices/" + gpu + "/history");
        CHECK(history.at("gpu") == gpu.c_str());
        auto const& weeks = history.at("weeks").as_array();
        REQUIRE(weeks.size() == sheets.size());
        json::object const* before = nullptr;
        for (auto const& w : weeks) {
            auto const& entry = w.as_object();
            std::string const week(entry.at("week").as_string());
            CAPTURE(gpu);
            CAPTURE(week);
            auto row = row_of(sheets.at(week), gpu);
            REQUIRE_FALSE(row.empty());
            for (auto const* key : {"available", "observations", "median", "cap", "on_demand", "spot", "reserved",
                                    "headroom", "reason"}) {
                CHECK(entry.contains(key) == row.contains(key));
                if (row.contains(key))
                    CHECK(entry.at(key) == row.at(key));
                ++compared;
            }
            CHECK(entry.at("effective_from") == sheets.at(week).at("effective_from"));
            // The change is the difference of two published rates, exactly.
            if (before && before->at("available").as_bool() && entry.at("available").as_bool()) {
                auto const& change = entry.at("change").as_object();
                for (auto const* tier : {"on_demand", "spot", "reserved"}) {
                    auto const mills = [&](json::object const& o) {
                        std::string s(o.at(tier).as_string());
                        s.erase(s.find('.'), 1);
                        return std::stol(s);
                    };
                    long const expected = mills(entry) - mills(*before);
                    std::string text(change.at(tier).as_string());
                    CHECK(text == (expected > 0 ? "+" : expected < 0 ? "-" : "") + std::to_string(std::labs(expected) / 1000) +
                                      "." + std::string(3 - std::to_string(std::labs(expected) % 1000).size(), '0') +
                                      std::to_string(std::labs(expected) % 1000));
                    ++changes;
                }
            } else {
                CHECK(entry.at("change").is_null());
            }
            before = &entry;
        }
    }
    CHECK(compared > 1000);
    CHECK(changes > 100);

    // The wide table: a row per week, a column per model, each cell the on-demand rate of the sheet.
    auto const csv = lines(server.get("/v1/history.csv").body);
    REQUIRE(csv.size() == sheets.size() + 1);
    CHECK(csv[0].starts_with("week,effective_from,"));
    auto const table = get_json(server, "/v1/history?tier=spot");
    for (auto const& w : table.at("weeks").as_array()) {
        auto const& sheet = sheets.at(std::string(w.at("week").as_string()));
        for (auto const& [gpu, rate] : w.at("rates").as_object()) {
            auto const row = row_of(sheet, gpu);
            CHECK(rate == (row.contains("spot") ? row.at("spot") : json::value(nullptr)));
        }
    }
}

TEST_CASE("week= and the latest and current aliases name the sheet in effect")
{
    test_database db;
    server_process server(db.url("reader"));
    auto const index = get_json(server, "/v1/sheets");
    auto const& list = index.at("sheets").as_array();
    std::string const newest(list.front().at("week").as_string());
    std::string const oldest(list.back().at("week").as_string());

    auto const old_sheet = get_json(server, "/v1/sheets/" + oldest);
    CHECK(get_json(server, "/v1/prices?week=" + oldest) == old_sheet);
    CHECK(get_json(server, "/v1/prices/h100-sxm?week=" + oldest).at("on_demand") ==
          row_of(old_sheet, "h100-sxm").at("on_demand"));
    CHECK(get_json(server, "/v1/prices?week=current") == get_json(server, "/v1/prices"));

    auto const latest = server.get("/v1/sheets/latest");
    REQUIRE(latest.status == 200);
    CHECK(json::parse(latest.body) == get_json(server, "/v1/sheets/" + newest));
    CHECK(latest.header("cache-control").find("immutable") == std::string::npos);
    CHECK(server.get("/v1/sheets/current.csv").body == server.get("/v1/sheets/" + std::string(index.at("current").as_string()) + ".csv").body);

    auto const bad = server.get("/v1/prices?week=last-week");
    CHECK(bad.status == 400);
    CHECK(bad.header("content-type") == "application/problem+json");
    CHECK(bad.body.find("week: ") != std::string::npos);
    CHECK(server.get("/v1/prices?week=2019-W01").status == 404);
    CHECK(server.get("/v1/prices/h100-sxm?week=2019-W01").status == 404);
    CHECK(server.get("/v1/prices/h100-sxm/history?x=1").status == 400);
    CHECK(server.get("/v1/prices/no-such-gpu/history").status == 404);
}

TEST_CASE("the feed of new sheets is a valid Atom document with one entry per sheet")
{
    test_database db;
    server_process server(db.url("reader"));
    auto const feed = server.get("/v1/sheets.atom");
    REQUIRE(feed.status == 200);
    CHECK(feed.header("content-type") == "application/atom+xml; charset=utf-8");
    CHECK_FALSE(feed.header("etag").empty());
    CHECK(server.get("/v1/sheets.atom", {{"If-None-Match", feed.header("etag")}}).status == 304);

    // Checked by a real XML parser against the rules of RFC 4287 (tests/integration/check_atom.py).
    char path[] = "/tmp/lcg-feed-XXXXXX";
    int const fd = mkstemp(path);
    REQUIRE(fd >= 0);
    close(fd);
    std::ofstream(path) << feed.body;
    std::string const command = "python3 " + std::string(LCG_SOURCE_DIR) + "/tests/integration/check_atom.py " + path +
                                " " + std::to_string(get_json(server, "/v1/sheets").at("count").as_int64());
    int const status = std::system(command.c_str());
    std::remove(path);
    CHECK(status == 0);
}
