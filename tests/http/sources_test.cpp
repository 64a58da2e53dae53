// /v1/sources: the market sources the methodology counts, in every format of a table document and
// both languages; the methodology carries the same list and states rules version 2, and MCP (the
// get_methodology tool, the lowcostgpu://sources and lowcostgpu://methodology resources) returns
// the same documents as HTTP.
#include "fixture.hpp"

#include "pricing/rules.hpp"

#include <boost/json.hpp>
#include <doctest/doctest.h>

#include <string>

using namespace lcg;
using namespace lcg::testing;
namespace bh = http::beast_http;
namespace json = boost::json;
namespace rules = pricing::rules;

namespace {

json::object document(std::string const& target)
{
    auto const res = fixture_request(target);
    REQUIRE(res.result_int() == 200);
    return json::parse(res.body().str()).as_object();
}

// The result of one JSON-RPC request over POST /mcp.
json::object mcp_result(std::string const& method, json::object params)
{
    json::object const message{{"jsonrpc", "2.0"}, {"id", 1}, {"method", method}, {"params", std::move(params)}};
    http::request req{bh::verb::post, "/mcp", 11};
    req.set(bh::field::host, "127.0.0.1");
    req.set(bh::field::content_type, "application/json");
    req.set(bh::field::accept, "application/json, text/event-stream");
    req.body() = json::serialize(message);
    req.prepare_payload();
    auto const snap = fixture_snapshot();
    http::request_context ctx{snap, fixture_now()};
    auto const res = http::handle(req, ctx);
    REQUIRE(res.result() == bh::status::ok);
    auto const reply = json::parse(res.body().str());
    REQUIRE(reply.as_object().contains("result"));
    return reply.at("result").as_object();
}

json::object const* rule_of(json::object const& methodology, std::string_view id)
{
    for (auto const& r : methodology.at("rules").as_array())
        if (r.at("id").as_string() == id)
            return &r.as_object();
    return nullptr;
}

}

TEST_CASE("JSON: /v1/sources names the rules version and the catalog's sources by name")
{
    auto const doc = document("/v1/sources");
    CHECK(doc.at("rules_version") == rules::rules_version);
    CHECK(doc.at("count") == 6);
    CHECK(doc.at("sources") == json::parse(R"([
        {"name":"lambda","kind":"cloud","homepage":"https://lambda.ai","format":"skypilot-vms"},
        {"name":"synthetic-alpha","kind":"synthetic","homepage":null,"format":"observations-csv"},
        {"name":"synthetic-bravo","kind":"synthetic","homepage":null,"format":"observations-csv"},
        {"name":"synthetic-charlie","kind":"synthetic","homepage":null,"format":"observations-csv"},
        {"name":"synthetic-delta","kind":"synthetic","homepage":null,"format":"observations-csv"},
        {"name":"vast","kind":"marketplace","homepage":"https://vast.ai","format":"skypilot-vms"}])"));
    std::string const note(doc.at("note").as_string());
    CHECK(note.find("lower median") != std::string::npos);
    CHECK(note.find("at least " + std::to_string(rules::min_sources) + " sources and " +
                    std::to_string(rules::min_observations) + " listings") != std::string::npos);
    CHECK(note.find("synthetic") != std::string::npos);
    // Every source the fixture's observations name is listed.
    auto const sheet = document("/v1/sheets/2026-W49");
    for (auto const& row : sheet.at("prices").as_array())
        for (auto const& s : row.as_object().contains("by_source") ? row.at("by_source").as_array() : json::array{}) {
            bool listed = false;
            for (auto const& src : doc.at("sources").as_array())
                listed = listed || src.at("name") == s.at("source");
            CHECK_MESSAGE(listed, s.at("source"));
        }
    auto const fr = document("/v1/sources?lang=fr");
    CHECK(fr.at("sources") == doc.at("sources"));
    CHECK(std::string(fr.at("note").as_string()).find("médiane inférieure") != std::string::npos);
}

TEST_CASE("CSV, Markdown and HTML: /v1/sources as a table, in both languages")
{
    CHECK(fixture_request("/v1/sources.csv").body().str() ==
          "name,kind,homepage,format\n"
          "lambda,cloud,https://lambda.ai,skypilot-vms\n"
          "synthetic-alpha,synthetic,,observations-csv\n"
          "synthetic-bravo,synthetic,,observations-csv\n"
          "synthetic-charlie,synthetic,,observations-csv\n"
          "synthetic-delta,synthetic,,observations-csv\n"
          "vast,marketplace,https://vast.ai,skypilot-vms\n");
    auto const md = fixture_request("/v1/sources.md").body().str();
    CHECK(md.starts_with("# Market sources\n\n6 sources of market listings, counted by rules version 2 "
                         "([methodology](/v1/methodology.md)). A source's price"));
    CHECK(md.find("| Source | Kind | Homepage | Format |") != std::string::npos);
    CHECK(md.find("| `lambda` | `cloud` | [https://lambda.ai](https://lambda.ai) | `skypilot-vms` |") != std::string::npos);
    CHECK(md.find("| `synthetic-alpha` | `synthetic` | — | `observations-csv` |") != std::string::npos);
    auto const fr = fixture_request("/v1/sources.md?lang=fr").body().str();
    CHECK(fr.starts_with("# Sources du marché\n\n6 sources d’annonces du marché"));
    CHECK(fr.find("| Source | Type | Site | Format |") != std::string::npos);
    CHECK(fr.find("(/v1/methodology.md?lang=fr)") != std::string::npos);
    auto const html = fixture_request("/v1/sources.html").body().str();
    CHECK(html.find("<h1>Market sources</h1>") != std::string::npos);
    CHECK(html.find("<code>synthetic-delta</code>") != std::string::npos);
    CHECK(fixture_request("/v1/sources.html?lang=fr").body().str().find("<h1>Sources du marché</h1>") != std::string::npos);
}

TEST_CASE("the methodology states rules version 2 and lists the same sources as /v1/sources")
{
    for (auto const* lang : {"", "?lang=fr"}) {
        CAPTURE(lang);
        auto const m = document(std::string("/v1/methodology") + lang);
        CHECK(m.at("sources") == document(std::string("/v1/sources") + lang).at("sources"));
        auto const& c = m.at("constants").as_object();
        CHECK(c.at("rules_version") == rules::rules_version);
        CHECK(c.at("minimum_sources") == rules::min_sources);
        CHECK(c.at("minimum_observations") == rules::min_observations);
        for (auto const* id : {"per_gpu", "median", "minimum_observations", "rules_version"})
            CHECK_MESSAGE(rule_of(m, id), id);
    }
    auto const m = document("/v1/methodology");
    CHECK(rule_of(m, "per_gpu")->at("formula") == "per_gpu_micros = round_half_up(instance_price_micros / gpus)");
    CHECK(rule_of(m, "minimum_observations")->at("formula") == "sources < 3 or listings < 5 ⇒ available = false");
    CHECK(std::string(rule_of(m, "median")->at("rule").as_string()).starts_with("Rules version 2: "));
    CHECK(std::string(rule_of(m, "rules_version")->at("rule").as_string()).find("version 1 took the median of all") !=
          std::string::npos);
    auto const md = fixture_request("/v1/methodology.md").body().str();
    CHECK(md.find("## Sources\n\nThe sources whose listings are counted (also at [/v1/sources](/v1/sources.md)):") !=
          std::string::npos);
    CHECK(md.find("| `vast` | `marketplace` | [https://vast.ai](https://vast.ai) | `skypilot-vms` |") != std::string::npos);
    CHECK(fixture_request("/v1/methodology.md?lang=fr").body().str().find("## Sources\n\nLes sources dont les annonces") !=
          std::string::npos);
}

TEST_CASE("MCP returns the same documents: get_methodology, lowcostgpu://methodology and lowcostgpu://sources")
{
    auto const tool = mcp_result("tools/call", {{"name", "get_methodology"}, {"arguments", json::object{}}});
    CHECK(tool.at("isError") == false);
    CHECK(tool.at("structuredContent") == document("/v1/methodology"));
    CHECK(tool.at("structuredContent").at("sources") == document("/v1/sources").at("sources"));
    for (auto const* lang : {"", "?lang=fr"}) {
        CAPTURE(lang);
        auto const read = mcp_result("resources/read", {{"uri", std::string("lowcostgpu://sources") + lang}});
        auto const& contents = read.at("contents").as_array();
        REQUIRE(contents.size() == 2);
        CHECK(contents[0].at("mimeType") == "text/markdown");
        CHECK(contents[0].at("text").as_string() == fixture_request(std::string("/v1/sources.md") + lang).body().str());
        CHECK(contents[1].at("mimeType") == "application/json");
        CHECK(contents[1].at("text").as_string() == fixture_request(std::string("/v1/sources") + lang).body().str());
    }
    bool listed = false;
    auto const list = mcp_result("resources/list", {});
    for (auto const& r : list.at("resources").as_array())
        listed = listed || r.at("uri") == "lowcostgpu://sources";
    CHECK(listed);
}
