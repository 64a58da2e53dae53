// The data's licence and machine-readable descriptions (issue 26, item 6): every dataset document
// names the licence, and a week's Data Package and CSVW metadata describe the files as served.
#include "render/dataset.hpp"

#include "fixture.hpp"

#include "server/mirror/documents.hpp"
#include "server/digest/digest.hpp"

#include "pricing/observation.hpp"
#include "pricing/signing.hpp"

#include <boost/json/parse.hpp>

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace lcg;
namespace bh = http::beast_http;
namespace json = boost::json;

namespace {

std::string served_bytes(std::string const& target, std::map<std::string, std::string> const& headers = {})
{
    auto const res = testing::fixture_request(target, headers);
    REQUIRE_MESSAGE(res.result() == bh::status::ok, target);
    return res.body().str();
}

json::object served_json(std::string const& target) { return json::parse(served_bytes(target)).as_object(); }

std::vector<std::string> csv_columns(std::string const& csv)
{
    std::vector<std::string> names;
    std::string const line = csv.substr(0, csv.find('\n'));
    for (std::size_t i = 0; i <= line.size();) {
        auto const comma = std::min(line.find(',', i), line.size());
        names.push_back(line.substr(i, comma - i));
        i = comma + 1;
    }
    return names;
}

std::vector<std::string> described_columns(json::array const& columns)
{
    std::vector<std::string> names;
    for (auto const& c : columns)
        names.emplace_back(c.at("name").as_string());
    return names;
}

json::object const& package_resource(json::object const& package, std::string_view name)
{
    for (auto const& r : package.at("resources").as_array())
        if (r.at("name").as_string() == name)
            return r.as_object();
    FAIL("no resource " << name);
    throw std::logic_error("unreachable");
}

}

TEST_CASE("every dataset document names the CC BY 4.0 licence in one shape")
{
    json::object const expected{{"id", "CC-BY-4.0"}, {"url", "https://creativecommons.org/licenses/by/4.0/"}};
    CHECK(render::license_json() == expected);
    for (std::string const target : {"/v1/prices", "/v1/prices?vendor=amd", "/v1/sheets/2026-W49", "/v1/sheets/2026-W48",
                                     "/v1/sheets", "/v1/history", "/v1/history?tier=spot", "/v1/methodology",
                                     "/v1/methodology?lang=fr"}) {
        INFO(target);
        auto const doc = served_json(target);
        REQUIRE(doc.contains("license"));
        CHECK(doc.at("license") == expected);
    }
}

TEST_CASE("a sheet's JSON with its licence still parses back to the sheet that was signed")
{
    auto const snap = testing::fixture_snapshot();
    auto const* sheet = snap->find_sheet({2026, 49});
    REQUIRE(sheet);
    auto const parsed = mirror::parse_sheet(served_bytes("/v1/sheets/2026-W49"));
    REQUIRE(parsed);
    CHECK(pricing::signed_bytes(*parsed) == pricing::signed_bytes(*sheet));
    CHECK(parsed->signature == sheet->signature);
}

TEST_CASE("a week's datapackage.json gives each CSV's length and SHA-256 as served, and its schema")
{
    auto const res = testing::fixture_request("/v1/sheets/2026-W49/datapackage.json");
    REQUIRE(res.result() == bh::status::ok);
    CHECK(res[bh::field::content_type].starts_with("application/json"));
    auto const package = json::parse(res.body().str()).as_object();
    CHECK(package.at("profile") == "tabular-data-package");
    auto const& licence = package.at("licenses").as_array().at(0).as_object();
    CHECK(licence.at("name") == "CC-BY-4.0");
    CHECK(licence.at("path").as_string() == render::data_license_url);

    std::string const sheet_csv = served_bytes("/v1/sheets/2026-W49.csv");
    auto const& sheet = package_resource(package, "sheet");
    CHECK(sheet.at("path") == "/v1/sheets/2026-W49.csv");  // the fixture has no public URL
    CHECK(sheet.at("hash").as_string() == "sha256:" + digest::sha256_hex(sheet_csv));
    CHECK(sheet.at("bytes").as_int64() == static_cast<std::int64_t>(sheet_csv.size()));
    CHECK(sheet.at("mediatype") == "text/csv");
    CHECK(described_columns(sheet.at("schema").at("fields").as_array()) == csv_columns(sheet_csv));

    std::string const inputs_csv = served_bytes("/v1/sheets/2026-W49/observations.csv");
    auto const& inputs = package_resource(package, "observations");
    CHECK(inputs.at("path") == "/v1/sheets/2026-W49/observations.csv");
    CHECK(inputs.at("hash").as_string() == "sha256:" + digest::sha256_hex(inputs_csv));
    CHECK(inputs.at("bytes").as_int64() == static_cast<std::int64_t>(inputs_csv.size()));
    CHECK(described_columns(inputs.at("schema").at("fields").as_array()) == csv_columns(inputs_csv));

    // Money is typed and carries its unit; every field says what it is.
    for (auto const* r : {&sheet, &inputs})
        for (auto const& f : r->at("schema").at("fields").as_array()) {
            std::string const name(f.at("name").as_string());
            INFO(name);
            CHECK_FALSE(f.at("description").as_string().empty());
            bool const money = name == "median" || name == "on_demand" || name == "price_per_gpu_hour" ||
                               name == "market_p25";
            if (money) {
                CHECK(f.at("type") == "number");
                CHECK(f.at("unit") == "USD per GPU-hour");
            }
            if (name == "observations")
                CHECK(f.at("type") == "integer");
        }
}

TEST_CASE("latest names the newest week's datapackage.json, and an unknown week is 404")
{
    CHECK(served_bytes("/v1/sheets/latest/datapackage.json") == served_bytes("/v1/sheets/2026-W49/datapackage.json"));
    CHECK(testing::fixture_request("/v1/sheets/2026-W30/datapackage.json").result() == bh::status::not_found);
    CHECK(testing::fixture_request("/v1/sheets/2026-W49/datapackage.json", {}, bh::verb::head).result() == bh::status::ok);
}

TEST_CASE("a week's CSVW metadata names each CSV's columns exactly as its header")
{
    auto const res = testing::fixture_request("/v1/sheets/2026-W48/csv-metadata.json");
    REQUIRE(res.result() == bh::status::ok);
    CHECK(res[bh::field::content_type] == "application/csvm+json");
    auto const meta = json::parse(res.body().str()).as_object();
    CHECK(meta.at("@context") == "http://www.w3.org/ns/csvw");
    CHECK(meta.at("dc:license").at("@id").as_string() == render::data_license_url);
    auto const& tables = meta.at("tables").as_array();
    REQUIRE(tables.size() == 2);
    for (auto const& t : tables) {
        std::string const url(t.at("url").as_string());
        INFO(url);
        auto const csv = served_bytes(url);
        auto const& columns = t.at("tableSchema").at("columns").as_array();
        CHECK(described_columns(columns) == csv_columns(csv));
        for (auto const& c : columns)
            CHECK(c.at("titles") == c.at("name"));
    }
    CHECK(csv_columns(std::string(pricing::observations_csv_header)) ==
          described_columns(tables.at(1).at("tableSchema").at("columns").as_array()));
}

TEST_CASE("/.well-known/api-catalog is an RFC 9727 linkset whose links answer")
{
    auto const res = testing::fixture_request("/.well-known/api-catalog");
    REQUIRE(res.result() == bh::status::ok);
    CHECK(res[bh::field::content_type] ==
          R"(application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727")");
    auto const head = testing::fixture_request("/.well-known/api-catalog", {}, bh::verb::head);
    CHECK(head.result() == bh::status::ok);
    auto const doc = json::parse(res.body().str()).as_object();
    auto const& sets = doc.at("linkset").as_array();
    REQUIRE(sets.size() == 1);
    auto const& api = sets.at(0).as_object();
    CHECK(api.at("anchor") == "/");
    CHECK(api.at("service-desc").at(0).at("href") == "/openapi.json");
    std::vector<std::string> hrefs;
    for (auto const& link : api) {
        if (link.key() == "anchor")
            continue;
        for (auto const& l : link.value().as_array())
            hrefs.emplace_back(l.at("href").as_string());
    }
    for (std::string const wanted : {"/openapi.json", "/llms.txt", "/mcp/server-card", "/readyz"}) {
        INFO(wanted);
        CHECK(std::find(hrefs.begin(), hrefs.end(), wanted) != hrefs.end());
    }
    for (auto const& h : hrefs)
        if (h.starts_with("/")) {
            INFO(h);
            CHECK(testing::fixture_request(h).result() != bh::status::not_found);  // /readyz is 503 without a database
        }
}

namespace {

// The one JSON-LD data block of an HTML page, parsed.
json::object linked_data_of(std::string const& target)
{
    std::string const html = served_bytes(target, {{"Accept", "text/html"}});
    std::string const open = "<script type=\"application/ld+json\">";
    auto const start = html.find(open);
    REQUIRE_MESSAGE(start != std::string::npos, target);
    auto const end = html.find("</script>", start);
    REQUIRE(end != std::string::npos);
    CHECK(html.find(open, end) == std::string::npos);
    CHECK(start < html.find("</head>"));
    return json::parse(html.substr(start + open.size(), end - start - open.size())).as_object();
}

std::vector<std::string> downloads_of(json::object const& ld)
{
    std::vector<std::string> urls;
    for (auto const& d : ld.at("distribution").as_array()) {
        CHECK(d.at("@type") == "DataDownload");
        CHECK_FALSE(d.at("encodingFormat").as_string().empty());
        urls.emplace_back(d.at("contentUrl").as_string());
    }
    return urls;
}

}

TEST_CASE("the sheet's HTML page and the home page describe a schema.org Dataset that names the licence")
{
    for (std::string const target : {"/v1/sheets/2026-W49", "/v1/sheets/2026-W49?lang=fr", "/v1/prices", "/"}) {
        INFO(target);
        auto const ld = linked_data_of(target);
        CHECK(ld.at("@context") == "https://schema.org");
        CHECK(ld.at("@type") == "Dataset");
        CHECK(ld.at("license").as_string() == render::data_license_url);
        CHECK(ld.at("creator").at("name") == "LowCostGPU");
        CHECK(ld.at("isAccessibleForFree") == true);
        CHECK(ld.at("name").as_string().find("2026-W49") != std::string::npos);
        CHECK_FALSE(ld.at("description").as_string().empty());
        auto const urls = downloads_of(ld);
        CHECK(urls.size() == 3);
        for (auto const& u : urls) {
            INFO(u);
            CHECK(testing::fixture_request(u).result() == bh::status::ok);
        }
    }
    auto const sheet = linked_data_of("/v1/sheets/2026-W49");
    CHECK(sheet.at("temporalCoverage") == "2026-11-30T00:00:00Z/2026-12-07T00:00:00Z");
    CHECK(linked_data_of("/").at("temporalCoverage") == "2026-W49");
}

TEST_CASE("a week's CSVs link their CSVW metadata, and / links the API catalog")
{
    std::string const described = R"(</v1/sheets/2026-W49/csv-metadata.json>; rel="describedby"; type="application/csvm+json")";
    for (std::string const target : {"/v1/sheets/2026-W49.csv", "/v1/sheets/2026-W49/observations.csv"}) {
        INFO(target);
        auto const res = testing::fixture_request(target);
        REQUIRE(res.result() == bh::status::ok);
        std::string const link(res[bh::field::link]);
        CHECK(link.find(described) != std::string::npos);
        CHECK(link.find("rel=\"alternate\"") != std::string::npos);  // beside the other formats, not instead
    }
    // Only the CSV is described by CSVW.
    CHECK(std::string(testing::fixture_request("/v1/sheets/2026-W49.json")[bh::field::link]).find("describedby") ==
          std::string::npos);
    for (std::string const target : {"/", "/?lang=fr", "/index.md"}) {
        INFO(target);
        std::string const link(testing::fixture_request(target)[bh::field::link]);
        CHECK(link.find(R"(</.well-known/api-catalog>; rel="api-catalog")") != std::string::npos);
    }
}
