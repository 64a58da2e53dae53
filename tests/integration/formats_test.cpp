// Every route of the OpenAPI description (which a unit test holds equal to the route table) in every
// format it documents, from the real server over loopback; llms.txt's links; the 304s.
#include "harness.hpp"

#include "pricing/calendar.hpp"

#include <boost/json.hpp>
#include <doctest/doctest.h>

#include <chrono>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>

using namespace lcg::testing;
namespace json = boost::json;

namespace {

// The id of the first key of the keys file the tests' servers publish (deploy/lib.sh makes it).
std::string published_key_id()
{
    std::ifstream in(required_env("LCG_PUBLIC_KEYS_FILE"));
    std::stringstream text;
    text << in.rdbuf();
    return std::string(json::parse(text.str()).at("keys").at(0).at("key_id").as_string());
}

std::optional<std::string> example(std::string const& pattern)
{
    std::map<std::string, std::string> const targets{
        {"/v1/prices/{gpu}", "/v1/prices/h100-sxm"},
        {"/v1/prices/{gpu}/history", "/v1/prices/h100-sxm/history"},
        {"/v1/prices/{gpu}/history.svg", "/v1/prices/h100-sxm/history.svg"},
        {"/v1/prices/{gpu}/sparkline.svg", "/v1/prices/h100-sxm/sparkline.svg"},
        {"/v1/gpus/{gpu}", "/v1/gpus/h100-sxm"},
        {"/v1/sheets/{week}", "/v1/sheets/" + this_week()},
        {"/v1/sheets/{week}/observations", "/v1/sheets/" + this_week() + "/observations"},
        {"/v1/sheets/{week}/sources", "/v1/sheets/" + this_week() + "/sources"},
        {"/v1/sheets/{week}/signed.txt", "/v1/sheets/" + this_week() + "/signed.txt"},
        {"/v1/sheets/{week}/signature.txt", "/v1/sheets/" + this_week() + "/signature.txt"},
        {"/v1/sheets/{week}/signed.txt.sig", "/v1/sheets/" + this_week() + "/signed.txt.sig"},
        {"/v1/sheets/{week}/signed.note", "/v1/sheets/" + this_week() + "/signed.note"},
        {"/v1/log/entries/{index}/signed.txt", "/v1/log/entries/0/signed.txt"},
        {"/v1/log/entries/{index}/signature.txt", "/v1/log/entries/0/signature.txt"},
        {"/v1/sheets/{week}/datapackage.json", "/v1/sheets/" + this_week() + "/datapackage.json"},
        {"/v1/sheets/{week}/csv-metadata.json", "/v1/sheets/" + this_week() + "/csv-metadata.json"},
        {"/.well-known/lowcostgpu-keys/{key}", "/.well-known/lowcostgpu-keys/" + published_key_id() + ".pem"},
        {"/v1/glossary/{term}", "/v1/glossary/interruptible-instance"},
        {"/v1/cheapest", "/v1/cheapest?params_b=70&precision=fp8&hours=10"},
        {"/.well-known/mcp/server-card.json", "/.well-known/mcp/server-card.json"},
        {"/.well-known/mcp.json", "/.well-known/mcp.json"},
        {"/v1/estimate", "/v1/estimate?gpu=h100-sxm&gpus=2&hours=10&tier=spot&storage_gb=200&egress_gb=50"},
        {"/v1/sizing", "/v1/sizing?params_b=70&precision=fp8"},
        {"/v1/compare", "/v1/compare?gpus=h100-sxm,a100-80gb-sxm"},
        {"/v1/instances/check", "/v1/instances/check?gpu=h100-sxm&vcpus=32&memory_gib=256&cpu_generation=v7"},
        {"/v1/quotes/verify", "/v1/quotes/verify?gpu=h100-sxm&tier=spot&price=0.84"},
        {"/v1/transfer", "/v1/transfer?gb=10"},
        {"/v1/log/proof", "/v1/log/proof?index=0"},
        {"/v1/rent-vs-buy", "/v1/rent-vs-buy?gpu=h100-sxm&gpus=8&purchase_price=250000&power_watts=10200&electricity_price=0.12&hosting_per_month=1500&utilisation=60&months=36"},
    };
    if (auto const it = targets.find(pattern); it != targets.end())
        return it->second;
    if (pattern.find('{') == std::string::npos)
        return pattern;
    return std::nullopt;
}

std::string suffixed(std::string const& target, std::string const& extension)
{
    auto const q = target.find('?');
    std::string path = target.substr(0, q);
    if (path == "/")
        path = "/index";
    return path + "." + extension + (q == std::string::npos ? "" : target.substr(q));
}

std::string extension_of(std::string const& type)
{
    if (type == "application/json")
        return "json";
    if (type == "text/markdown")
        return "md";
    if (type == "text/html")
        return "html";
    return type == "text/csv" ? "csv" : "";
}

}

TEST_CASE("every documented route answers in every documented format, with validators")
{
    test_database db;
    server_process server(db.url("reader"));
    auto const spec = json::parse(server.get("/openapi.json").body).as_object();
    int checked = 0;
    for (auto const& [path_key, item] : spec.at("paths").as_object()) {
        std::string const pattern(path_key);
        CAPTURE(pattern);
        if (!item.as_object().contains("get"))
            continue;  // POST /mcp has tests of its own
        // The sample's sheets have no raw files, and a raw file has the one type of its format:
        // market_test.cpp serves the real ones.
        if (pattern == "/v1/sheets/{week}/sources/{sha256}")
            continue;
        auto target = example(pattern);
        // The first entry bundle, whose path names the log's size (the sample's publications set it).
        if (pattern == "/v1/log/tile/{tile}") {
            auto const size = json::parse(server.get("/v1/log").body).at("size").to_number<std::int64_t>();
            REQUIRE(size > 0);
            target = "/v1/log/tile/entries/000" + (size < 256 ? ".p/" + std::to_string(size) : std::string());
        }
        REQUIRE_MESSAGE(target, "add an example target for the route to tests/integration/formats_test.cpp");
        auto const& types = item.at("get").at("responses").at("200").at("content").as_object();
        for (auto const& [type_key, media] : types) {
            std::string const type(type_key);
            CAPTURE(type);
            auto const r = server.get(*target, {{"Accept", type}});
            REQUIRE(r.status == 200);
            CHECK(r.header("content-type").starts_with(type));
            CHECK_FALSE(r.body.empty());
            if (item.at("get").at("tags").at(0).as_string() == "operations")
                continue;  // probes and metrics: not cached documents
            auto const etag = r.header("etag");
            REQUIRE_FALSE(etag.empty());
            CHECK(server.get(*target, {{"Accept", type}, {"If-None-Match", etag}}).status == 304);
            CHECK(server.get(*target, {{"Accept", type}, {"If-Modified-Since", r.header("last-modified")}}).status ==
                  304);
            if (types.size() > 1) {
                auto const by_suffix = server.get(suffixed(*target, extension_of(type)));
                CHECK(by_suffix.status == 200);
                CHECK(by_suffix.body == r.body);
                CHECK_FALSE(r.header("link").empty());
            }
            ++checked;
        }
    }
    CHECK(checked >= 60);
}

TEST_CASE("Markdown by Accept equals Markdown by suffix, HTML has the JSON's numbers")
{
    test_database db;
    server_process server(db.url("reader"));
    auto const md = server.get("/v1/prices", {{"Accept", "text/markdown"}});
    CHECK(md.header("content-type") == "text/markdown; charset=utf-8");
    CHECK(md.header("content-disposition") == "inline");
    CHECK(md.body == server.get("/v1/prices.md").body);
    auto const row = json::parse(server.get("/v1/prices/h100-sxm").body).as_object();
    auto const html = server.get("/v1/prices", {{"Accept", "text/html,application/xhtml+xml,*/*;q=0.8"}});
    CHECK(html.header("content-type") == "text/html; charset=utf-8");
    for (char const* key : {"median", "on_demand", "spot", "reserved"})
        CHECK(html.body.find("<td align=\"right\">" + std::string(row.at(key).as_string()) + "</td>") !=
              std::string::npos);
    CHECK(server.get("/v1/prices", {{"Accept", "image/png"}}).status == 406);
}

TEST_CASE("llms.txt links only to pages that answer 200")
{
    test_database db;
    server_process server(db.url("reader"));
    for (char const* where : {"/llms.txt", "/.well-known/llms.txt"}) {
        auto const r = server.get(where);
        REQUIRE(r.status == 200);
        CHECK(r.header("content-type") == "text/plain; charset=utf-8");
        int links = 0;
        for (auto at = r.body.find("](/"); at != std::string::npos; at = r.body.find("](/", at + 1)) {
            std::string const url = r.body.substr(at + 2, r.body.find(')', at) - at - 2);
            CAPTURE(url);
            CHECK(server.get(url).status == 200);
            ++links;
        }
        CHECK(links >= 15);
    }
    CHECK(server.get("/llms-full.txt").body.find("# GPU price sheet " + this_week()) != std::string::npos);
}

TEST_CASE("gzip when Accept-Encoding allows it, with its own ETag")
{
    test_database db;
    server_process server(db.url("reader"));
    auto const plain = server.get("/v1/gpus");
    auto const zipped = server.get("/v1/gpus", {{"Accept-Encoding", "gzip, br"}});
    CHECK(zipped.header("content-encoding") == "gzip");
    CHECK(zipped.body.size() < plain.body.size() / 3);
    CHECK(zipped.header("etag") == plain.header("etag").substr(0, plain.header("etag").size() - 1) + "-gz\"");
    CHECK(server.get("/v1/gpus", {{"Accept-Encoding", "gzip;q=0"}}).header("content-encoding").empty());
    CHECK(server.get("/v1/gpus", {{"Accept-Encoding", "gzip"}, {"If-None-Match", zipped.header("etag")}}).status == 304);
}
