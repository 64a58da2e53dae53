// Every sheet row shows its market (rules version 2: listings, sources, the spread of the listings'
// prices and each source's price) in JSON, CSV, Markdown and HTML, and every document built from
// synthetic sample data says so (`sample`, a banner on its pages, llms.txt), on HTTP and MCP alike;
// a sheet of real sources says nothing of the kind. The fixture's sheets are synthetic: its H100 SXM
// has 5 listings from 3 sources (alpha 2.300; bravo 2.350, 2.400, 2.500; charlie 2.450).
#include "fixture.hpp"

#include <boost/json.hpp>
#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace lcg;
using namespace lcg::testing;
namespace bh = http::beast_http;
namespace json = boost::json;

namespace {

constexpr std::string_view banner_en =
    "> **Synthetic sample data** — these prices are computed from made-up listings, not from the GPU market.\n";
constexpr std::string_view banner_fr =
    "> **Données d’exemple synthétiques** — ces prix sont calculés à partir d’annonces inventées, et non à partir du "
    "marché des GPU.\n";
constexpr std::string_view banner_html = "<blockquote>\n<p><strong>Synthetic sample data</strong> — these prices";

// The fixture's sheets with every source's "synthetic-" replaced by `prefix`: the same figures, as
// a deployment fed by real market files would publish them.
std::shared_ptr<const snapshot::snapshot> with_sources_renamed(std::string const& prefix)
{
    auto const& fixture = *fixture_snapshot();
    auto sheets = fixture.sheets;
    for (auto& sheet : sheets)
        for (auto& row : sheet.rows)
            for (auto& s : row.by_source)
                s.source.replace(0, std::string_view("synthetic-").size(), prefix);
    return snapshot::build(fixture.catalog, std::move(sheets), nullptr, fixture_now(), {fixture.keys, ""});
}

std::shared_ptr<const snapshot::snapshot> market_snapshot()
{
    static auto const snap = with_sources_renamed("market-");
    return snap;
}

http::response request_on(std::shared_ptr<const snapshot::snapshot> const& snap, std::string const& target,
                          bh::verb method = bh::verb::get, std::string const& body = {})
{
    http::request req{method, target, 11};
    req.set(bh::field::host, "127.0.0.1");
    if (!body.empty()) {
        req.set(bh::field::content_type, "application/json");
        req.set(bh::field::accept, "application/json, text/event-stream");
        req.body() = body;
        req.prepare_payload();
    }
    http::request_context ctx{snap, fixture_now()};
    return http::handle(req, ctx);
}

std::string body_on(std::shared_ptr<const snapshot::snapshot> const& snap, std::string const& target)
{
    auto const res = request_on(snap, target);
    REQUIRE(res.result() == bh::status::ok);
    return res.body().str();
}

json::object document_on(std::shared_ptr<const snapshot::snapshot> const& snap, std::string const& target)
{
    return json::parse(body_on(snap, target)).as_object();
}

// The structuredContent of the MCP tool `tool` called with `arguments`, over POST /mcp.
json::value tool_result(std::shared_ptr<const snapshot::snapshot> const& snap, std::string const& tool,
                        json::object const& arguments)
{
    json::object const message{{"jsonrpc", "2.0"},
                               {"id", 7},
                               {"method", "tools/call"},
                               {"params", {{"name", tool}, {"arguments", arguments}}}};
    auto const res = request_on(snap, "/mcp", bh::verb::post, json::serialize(message));
    REQUIRE(res.result() == bh::status::ok);
    auto const reply = json::parse(res.body().str());
    auto const& result = reply.at("result").as_object();
    REQUIRE(result.at("isError") == false);
    return result.at("structuredContent");
}

json::object const& h100_of(json::array const& rows)
{
    for (auto const& r : rows)
        if (r.at("gpu") == "h100-sxm")
            return r.as_object();
    FAIL("no h100-sxm row");
    return rows.front().as_object();
}

// The members every document's H100 SXM row carries in the fixture's current week.
void check_h100_market(json::object const& row)
{
    CHECK(row.at("observations") == 5);
    CHECK(row.at("listings") == 5);
    CHECK(row.at("sources") == 3);
    CHECK(row.at("median") == "2.400");
    CHECK(row.at("market") == json::parse(R"({"min":"2.300","p25":"2.350","median":"2.400","p75":"2.450","max":"2.500"})"));
    CHECK(row.at("by_source") == json::parse(R"([{"source":"synthetic-alpha","price":"2.300","listings":1},
                                                 {"source":"synthetic-bravo","price":"2.400","listings":3},
                                                 {"source":"synthetic-charlie","price":"2.450","listings":1}])"));
}

// Every price-bearing document, as HTTP serves it and as the MCP tool that returns it.
struct price_document {
    std::string target;  // GET, JSON
    std::string tool;    // empty: no tool returns it
    json::object arguments;
};

std::vector<price_document> price_documents()
{
    return {{"/v1/prices", "get_prices", {}},
            {"/v1/prices?vendor=nvidia&sort=price", "get_prices", {{"vendor", "nvidia"}, {"sort", "price"}}},
            {"/v1/sheets/2026-W49", "get_prices", {{"week", "2026-W49"}}},
            {"/v1/prices/h100-sxm", "", {}},
            {"/v1/prices/h100-sxm/history", "get_price_history", {{"gpu", "h100-sxm"}}},
            {"/v1/history", "get_history", {}},
            {"/v1/gpus", "list_gpus", {}},
            {"/v1/gpus?vendor=nvidia", "list_gpus", {{"vendor", "nvidia"}}},
            {"/v1/gpus/h100-sxm", "get_gpu", {{"gpu", "h100-sxm"}}},
            {"/v1/compare?gpus=h100-sxm,mi300x", "compare_gpus", {{"gpus", json::array{"h100-sxm", "mi300x"}}}},
            {"/v1/estimate?gpu=h100-sxm&hours=2", "estimate_job_cost", {{"gpu", "h100-sxm"}, {"hours", 2}}},
            {"/v1/sizing?params_b=70&precision=fp8", "size_model", {{"params_b", 70}, {"precision", "fp8"}}},
            {"/v1/cheapest?params_b=70&precision=fp8", "find_cheapest", {{"params_b", 70}, {"precision", "fp8"}}},
            {"/v1/glossary?q=spot", "search_glossary", {{"q", "spot"}}},
            {"/v1/glossary/interruptible-instance", "explain_term", {{"term", "interruptible-instance"}}},
            {"/index.json", "", {}}};
}

}

TEST_CASE("JSON: every document with a sheet row carries its market, on HTTP and MCP alike")
{
    auto const snap = fixture_snapshot();
    auto const sheet = document_on(snap, "/v1/prices");
    CHECK(sheet.at("rules_version") == 2);
    check_h100_market(h100_of(sheet.at("prices").as_array()));
    check_h100_market(h100_of(document_on(snap, "/v1/sheets/2026-W49").at("prices").as_array()));
    check_h100_market(document_on(snap, "/v1/prices/h100-sxm"));
    check_h100_market(document_on(snap, "/v1/gpus/h100-sxm").at("prices").as_object());
    auto const catalog = document_on(snap, "/v1/gpus");
    for (auto const& g : catalog.at("gpus").as_array())
        if (g.at("id") == "h100-sxm")
            check_h100_market(g.at("prices").as_object());
    auto const history = document_on(snap, "/v1/prices/h100-sxm/history");
    check_h100_market(history.at("weeks").as_array().back().as_object());
    CHECK(history.at("weeks").as_array().front().at("week") == "2026-W48");
    CHECK(history.at("weeks").as_array().front().at("sources") == 3);

    // A model with too few listings shows them all the same, and says why it is not priced.
    json::object const* mi300x = nullptr;
    for (auto const& r : sheet.at("prices").as_array())
        if (r.at("gpu") == "mi300x")
            mi300x = &r.as_object();
    REQUIRE(mi300x);
    CHECK(mi300x->at("available") == false);
    CHECK(mi300x->at("listings") == 3);
    CHECK(mi300x->at("sources") == 3);
    CHECK(mi300x->at("market").at("median") == "3.000");
    CHECK(mi300x->at("reason") == "3 listings from 3 sources in the window; at least 5 listings from 3 sources are needed");

    // The MCP tools return the same rows: the same document.
    CHECK(tool_result(snap, "get_prices", {}) == json::value(sheet));
    CHECK(tool_result(snap, "get_gpu", {{"gpu", "h100-sxm"}}).at("prices") ==
          document_on(snap, "/v1/gpus/h100-sxm").at("prices"));
}

TEST_CASE("JSON: every price-bearing document says whether it is sample data, the same on HTTP and MCP")
{
    for (auto const& each : {std::pair{fixture_snapshot(), true}, std::pair{market_snapshot(), false}}) {
        auto const& snap = each.first;  // not a structured binding: clang 14 cannot capture one in CHECK
        bool const sample = each.second;
        CAPTURE(sample);
        for (auto const& d : price_documents()) {
            CAPTURE(d.target);
            auto const doc = document_on(snap, d.target);
            CHECK(doc.at("sample") == sample);
            if (!d.tool.empty())
                CHECK(tool_result(snap, d.tool, d.arguments) == json::value(doc));
        }
    }
    // The renamed sources are the only difference.
    auto const real = h100_of(document_on(market_snapshot(), "/v1/prices").at("prices").as_array());
    CHECK(real.at("by_source").at(0).at("source") == "market-alpha");
    CHECK(real.at("market") == h100_of(document_on(fixture_snapshot(), "/v1/prices").at("prices").as_array()).at("market"));
}

TEST_CASE("CSV: the existing columns first, then the row's market and whether the sheet is sample data")
{
    std::string const market_columns =
        ",sources,listings,market_min,market_p25,market_median,market_p75,market_max,by_source,sample\n";
    auto const csv = fixture_request("/v1/prices.csv").body().str();
    CHECK(csv.starts_with("week,gpu,name,available,observations,median,cap,on_demand,spot,reserved,headroom,currency,unit,"
                          "reason" + market_columns));
    CHECK(csv.find("\n2026-W49,h100-sxm,H100 SXM,true,5,2.400,1.680,1.680,0.840,1.092,0.000,USD,per GPU-hour,,3,5,2.300,"
                   "2.350,2.400,2.450,2.500,synthetic-alpha:2.300:1 synthetic-bravo:2.400:3 synthetic-charlie:2.450:1,"
                   "true\n") != std::string::npos);
    // Too few listings: the reason, then the market all the same.
    CHECK(csv.find(",USD,per GPU-hour,3 listings from 3 sources in the window; at least 5 listings from 3 sources are "
                   "needed,3,3,2.900,2.900,3.000,3.100,3.100,synthetic-alpha:2.900:1 synthetic-bravo:3.000:1 "
                   "synthetic-charlie:3.100:1,true\n") != std::string::npos);
    CHECK(fixture_request("/v1/sheets/2026-W49.csv").body() == csv);

    auto const history = fixture_request("/v1/prices/h100-sxm/history.csv").body().str();
    CHECK(history.starts_with("gpu,week,effective_from,effective_until,available,observations,median,cap,on_demand,spot,"
                              "reserved,on_demand_change,spot_change,reserved_change,currency,unit,reason" +
                              market_columns));
    CHECK(history.find(",3,5,2.300,2.350,2.400,2.450,2.500,synthetic-alpha:2.300:1 synthetic-bravo:2.400:3 "
                       "synthetic-charlie:2.450:1,true\n") != std::string::npos);
    CHECK(fixture_request("/v1/gpus.csv").body().str().find(",1.680,0.840,1.092,true\n") != std::string::npos);

    auto const real = body_on(market_snapshot(), "/v1/prices.csv");
    CHECK(real.find(",3,5,2.300,2.350,2.400,2.450,2.500,market-alpha:2.300:1 market-bravo:2.400:3 market-charlie:2.450:1,"
                    "false\n") != std::string::npos);
    CHECK(real.find("synthetic") == std::string::npos);
    // A name with the separators in it still splits back.
    CHECK(body_on(with_sources_renamed("a market: 100% "), "/v1/prices.csv")
              .find(",a%20market%3A%20100%25%20alpha:2.300:1 a%20market%3A%20100%25%20bravo:2.400:3 ") != std::string::npos);
}

TEST_CASE("Markdown and HTML: the sheet's table shows sources, listings and the market range, then each model's sources")
{
    auto const md = fixture_request("/v1/prices.md").body().str();
    CHECK(md.find("| GPU | Market median | Cap (70 % of median) | On-demand | Spot | Reserved | Headroom | Sources | "
                  "Listings | Market range |\n") != std::string::npos);
    CHECK(md.find("| [H100 SXM](/v1/gpus/h100-sxm.md) | 2.400 | 1.680 | 1.680 | 0.840 | 1.092 | 0.000 | 3 | 5 | "
                  "2.300–2.500 |\n") != std::string::npos);
    CHECK(md.find("\n## Market by model\n") != std::string::npos);
    CHECK(md.find("- [H100 SXM](/v1/gpus/h100-sxm.md): min 2.300 · p25 2.350 · median 2.400 · p75 2.450 · max 2.500. "
                  "Sources: synthetic-alpha 2.300 (1), synthetic-bravo 2.400 (3), synthetic-charlie 2.450 (1).\n") !=
          std::string::npos);
    // A model with listings but no price is in the market section too.
    CHECK(md.find("- [Instinct MI300X](/v1/gpus/mi300x.md): min 2.900") != std::string::npos);

    auto const fr = fixture_request("/v1/prices.md?lang=fr").body().str();
    CHECK(fr.find(" | Sources | Annonces | Fourchette du marché |\n") != std::string::npos);
    CHECK(fr.find(" | 3 | 5 | 2,300–2,500 |\n") != std::string::npos);
    CHECK(fr.find("\n## Le marché, modèle par modèle\n") != std::string::npos);
    CHECK(fr.find("médiane 2,400") != std::string::npos);
    // The rules version 2 reason, in French.
    CHECK(fr.find("sans prix\u202F: 3 annonces de 3 sources sur la période, alors qu’il en faut au moins 5 de 3 sources") !=
          std::string::npos);
    CHECK(fr.find("listings") == std::string::npos);

    auto const html = fixture_request("/v1/prices.html").body().str();
    CHECK(html.find("<th align=\"right\">Sources</th>\n<th align=\"right\">Listings</th>\n<th align=\"right\">Market "
                    "range</th>") != std::string::npos);
    CHECK(html.find("<td align=\"right\">2.300–2.500</td>") != std::string::npos);

    // One model's pages: its market and a table of its sources.
    for (auto const* target : {"/v1/prices/h100-sxm.md", "/v1/gpus/h100-sxm.md"}) {
        CAPTURE(target);
        auto const page = fixture_request(target).body().str();
        CHECK(page.find("Market: 5 listings from 3 sources; min 2.300 · p25 2.350 · median 2.400 · p75 2.450 · max "
                        "2.500.\n") != std::string::npos);
        CHECK(page.find("| Source | Price (USD per GPU-hour) | Listings |\n| --- | ---: | ---: |\n| synthetic-alpha | "
                        "2.300 | 1 |\n| synthetic-bravo | 2.400 | 3 |\n| synthetic-charlie | 2.450 | 1 |\n") !=
              std::string::npos);
    }
    auto const history = fixture_request("/v1/prices/h100-sxm/history.md").body().str();
    CHECK(history.find("| Week | Observations | Sources | Median | Market range | Cap |") != std::string::npos);
    CHECK(history.find("| 5 | 3 | 2.400 | 2.300–2.500 | 1.680 |") != std::string::npos);
}

TEST_CASE("pages built from sample data carry the banner under their title, in both languages, others do not")
{
    for (auto const& d : price_documents()) {
        auto const& target = d.target;
        auto const query = target.find('?');
        std::string path = target.substr(0, query);
        std::string const args = query == std::string::npos ? "" : target.substr(query + 1);
        if (path.ends_with(".json"))
            path.resize(path.size() - 5);
        auto const in = [&](std::string_view suffix, std::string_view lang) {
            std::string out = path + std::string(suffix) + "?" + args;
            return out + (args.empty() ? "" : "&") + "lang=" + std::string(lang);
        };
        CAPTURE(target);
        auto const md = fixture_request(in(".md", "en")).body().str();
        auto const title_end = md.find("\n\n");
        REQUIRE(md.starts_with("# "));
        CHECK(md.substr(title_end + 2, banner_en.size()) == banner_en);
        CHECK(fixture_request(in(".md", "fr")).body().str().find(banner_fr) != std::string::npos);
        CHECK(fixture_request(in(".html", "en")).body().str().find(banner_html) != std::string::npos);
        for (auto const* format : {".md", ".html"})
            CHECK(body_on(market_snapshot(), in(format, "en")).find("Synthetic sample data") == std::string::npos);
    }
    // Pages that show no price say nothing of it.
    for (auto const* target : {"/v1/methodology.md", "/v1/regions.md", "/v1/sheets.md"})
        CHECK(fixture_request(target).body().str().find("Synthetic sample data") == std::string::npos);
}

TEST_CASE("llms.txt says the sheet is a sample, after its summary, not when the sources are real")
{
    for (auto const* target : {"/llms.txt", "/llms-full.txt"}) {
        CAPTURE(target);
        auto const text = fixture_request(target).body().str();
        auto const summary_end = text.find("\n\n", text.find("\n\n> ") + 2);
        CHECK(text.substr(summary_end + 2, banner_en.size()) == banner_en);
        CHECK(body_on(market_snapshot(), target).find("Synthetic sample data") == std::string::npos);
    }
    CHECK(fixture_request("/llms.txt?lang=fr").body().str().find(banner_fr) != std::string::npos);
}
