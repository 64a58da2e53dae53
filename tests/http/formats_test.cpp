// Every route of the table in every format it offers, through http::handle on the fixture: the
// routes come from http::route_list(), so a new route is tested (or fails for want of an example).
#include "fixture.hpp"

#include "server/http/query.hpp"

#include "api/operation.hpp"

#include "render/csv.hpp"
#include "locale/words.hpp"
#include "render/format.hpp"
#include "render/html.hpp"

#include <boost/json.hpp>
#include <doctest/doctest.h>

#include <string>
#include <utility>

using namespace lcg;
using namespace lcg::testing;
using render::format;
namespace bh = http::beast_http;

namespace {

std::string header(http::response const& r, std::string_view name) { return std::string(r[name]); }

std::pair<std::string, std::string> split_target(std::string const& target)
{
    auto const q = target.find('?');
    return {target.substr(0, q), q == std::string::npos ? "" : target.substr(q)};
}

}

TEST_CASE("every route has an example target and answers GET")
{
    for (auto const& r : http::route_list()) {
        CAPTURE(r.pattern);
        auto const target = example_target(r.pattern);
        REQUIRE_MESSAGE(target, "add an example target for the new route to tests/http/fixture.cpp");
        if (r.methods.find("GET") == std::string_view::npos)
            continue;  // /mcp: POST and OPTIONS, tested in mcp_handler_test.cpp
        CHECK(fixture_request(*target).result() == bh::status::ok);
    }
}

TEST_CASE("every route × every format it offers: by Accept, by suffix, cached, compressed, HEAD")
{
    for (auto const& r : http::route_list()) {
        if (r.formats.empty())
            continue;
        auto const target = *example_target(r.pattern);
        auto const [path, query] = split_target(target);
        r.formats.for_each([&, &path = path, &query = query](format f) {
            CAPTURE(target);
            CAPTURE(render::media_type(f));
            auto const res = fixture_request(target, {{"Accept", std::string(render::media_type(f))}});
            REQUIRE(res.result() == bh::status::ok);
            CHECK(header(res, "Content-Type") == render::content_type(f));
            CHECK_FALSE(res.body().empty());
            CHECK(header(res, "Vary").find("Accept") != std::string::npos);
            CHECK(header(res, "Access-Control-Allow-Origin") == "*");
            CHECK(header(res, "X-Content-Type-Options") == "nosniff");
            CHECK_FALSE(header(res, "Last-Modified").empty());
            CHECK_FALSE(header(res, "Cache-Control").empty());
            auto const etag = header(res, "ETag");
            REQUIRE(etag.size() > 2);
            CHECK(etag.front() == '"');

            // The suffix names the same body (JSON-only and text-only resources are their own URL).
            if (f != format::text && r.formats != render::json_only) {
                auto const suffixed = fixture_request(render::suffixed_url(path, f, query));
                CHECK(suffixed.result() == bh::status::ok);
                CHECK(suffixed.body() == res.body());
                CHECK(header(suffixed, "Content-Type") == render::content_type(f));
            }
            // Link names every other format, and each answers.
            auto const links = header(res, "Link");
            r.formats.for_each([&](format other) {
                if (other == f || other == format::text)
                    return;
                auto const url = render::suffixed_url(path, other, http::reencoded_query(query));
                CHECK(links.find("<" + url + ">; rel=\"alternate\"; type=\"" + std::string(render::media_type(other)) +
                                 "\"") != std::string::npos);
            });

            // Validators: If-None-Match and If-Modified-Since give 304 without a body.
            auto const by_etag =
                fixture_request(target, {{"Accept", std::string(render::media_type(f))}, {"If-None-Match", etag}});
            CHECK(by_etag.result() == bh::status::not_modified);
            CHECK(by_etag.body().empty());
            CHECK(header(by_etag, "ETag") == etag);
            auto const by_date = fixture_request(
                target, {{"Accept", std::string(render::media_type(f))}, {"If-Modified-Since", header(res, "Last-Modified")}});
            CHECK(by_date.result() == bh::status::not_modified);
            auto const stale = fixture_request(target, {{"Accept", std::string(render::media_type(f))},
                                                        {"If-Modified-Since", "Sun, 06 Nov 1994 08:49:37 GMT"}});
            CHECK(stale.result() == bh::status::ok);

            // gzip when allowed, with its own ETag; never when refused.
            auto const zipped =
                fixture_request(target, {{"Accept", std::string(render::media_type(f))}, {"Accept-Encoding", "gzip"}});
            // A week's CSV and JSON are sent as they are read, never compressed (a CDN in front
            // compresses an immutable week once).
            bool const in_parts = path.ends_with("/observations") && (f == format::csv || f == format::json);
            if (res.body().size() >= 256 && !in_parts) {
                CHECK(header(zipped, "Content-Encoding") == "gzip");
                CHECK(header(zipped, "ETag") == etag.substr(0, etag.size() - 1) + "-gz\"");
                CHECK(gunzip(zipped.body().str()) == res.body());
                auto const zipped_304 = fixture_request(target, {{"Accept", std::string(render::media_type(f))},
                                                                 {"Accept-Encoding", "gzip"},
                                                                 {"If-None-Match", header(zipped, "ETag")}});
                CHECK(zipped_304.result() == bh::status::not_modified);
            }
            auto const refused = fixture_request(
                target, {{"Accept", std::string(render::media_type(f))}, {"Accept-Encoding", "gzip;q=0, br"}});
            CHECK(header(refused, "Content-Encoding").empty());
            CHECK(refused.body() == res.body());

            // HEAD: answered as GET here; the connection sends the head alone (connection_test.cpp).
            auto const head = fixture_request(target, {{"Accept", std::string(render::media_type(f))}}, bh::verb::head);
            CHECK(head.result() == bh::status::ok);
            if (in_parts) {
                // A week's CSV and JSON: nothing is read for a HEAD; the CSV's length is the signed
                // index's (the JSON's framing is the connection's: connection_test.cpp, mirror_test.cpp).
                CHECK(head.body().empty());
                if (f == format::csv)
                    CHECK(header(head, "Content-Length") == std::to_string(res.body().size()));
            } else {
                CHECK(head.body() == res.body());
                CHECK(header(head, "Content-Length") == std::to_string(res.body().size()));
            }
            CHECK(header(head, "ETag") == etag);

            // Format-specific headers and shapes.
            if (f == format::html) {
                CHECK(header(res, "Content-Security-Policy").find("default-src 'none'") != std::string::npos);
                CHECK(res.body().starts_with("<!DOCTYPE html>"));
                // No script runs: the only <script> a page may hold is a JSON-LD data block.
                std::string const body = res.body().str();
                for (auto at = body.find("<script"); at != std::string::npos; at = body.find("<script", at + 1))
                    CHECK(body.compare(at, 35, R"(<script type="application/ld+json">)") == 0);
            }
            if (f == format::markdown) {
                CHECK(header(res, "Content-Disposition") == "inline");
                CHECK(res.body().starts_with("# "));
            }
            if (f == format::json)
                CHECK_NOTHROW(boost::json::parse(res.body()));
            if (f == format::csv)
                CHECK(res.body().find('\n') != std::string::npos);
        });

        // Any other format is 406, listing those available.
        for (auto f : render::all_formats) {
            if (r.formats.contains(f))
                continue;
            CAPTURE(target);
            CAPTURE(render::media_type(f));
            auto const res = fixture_request(target, {{"Accept", std::string(render::media_type(f))}});
            CHECK(res.result() == bh::status::not_acceptable);
            CHECK(header(res, "Content-Type") == "application/problem+json");
            auto const problem = boost::json::parse(res.body()).as_object();
            CHECK(problem.at("available").as_array().size() > 0);
            for (auto const& url : problem.at("alternates").as_array())  // each alternate answers
                CHECK(fixture_request(std::string(url.as_string())).result() == bh::status::ok);
        }
    }
}

TEST_CASE("no Accept or */* gives JSON, a browser gets HTML, the root's formats are /index.*")
{
    auto const plain = fixture_request("/v1/prices");
    CHECK(header(plain, "Content-Type") == "application/json");
    CHECK(header(fixture_request("/v1/prices", {{"Accept", "*/*"}}), "Content-Type") == "application/json");
    auto const browser = fixture_request(
        "/v1/prices", {{"Accept", "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,*/*;q=0.8"}});
    CHECK(header(browser, "Content-Type") == "text/html; charset=utf-8");
    CHECK(fixture_request("/index.md").body() == fixture_request("/", {{"Accept", "text/markdown"}}).body());
    CHECK(fixture_request("/index.json").body() == fixture_request("/").body());
}

TEST_CASE("the canonical observations CSV keeps its URL and its bytes")
{
    auto const csv = fixture_request("/v1/sheets/2026-W49/observations.csv");
    REQUIRE(csv.result() == bh::status::ok);
    CHECK(csv.body().starts_with("observed_at,gpu,price_per_gpu_hour,source,listing_id\n"));
    CHECK(fixture_request("/v1/sheets/2026-W49/observations", {{"Accept", "text/csv"}}).body() == csv.body());
    auto const sheet = boost::json::parse(fixture_request("/v1/sheets/2026-W49").body()).as_object();
    CHECK(header(csv, "Last-Modified") == "Mon, 30 Nov 2026 00:00:04 GMT");  // the sheet's publication
    CHECK(sheet.at("observations").as_int64() == 19);
}

TEST_CASE("a suffix the resource does not have is 406, an unknown suffix is no resource")
{
    auto const csv = fixture_request("/v1/prices/h100-sxm.csv");
    CHECK(csv.result() == bh::status::not_acceptable);
    CHECK(csv.body().find("text/markdown") != std::string::npos);  // it names the formats it has
    CHECK(fixture_request("/v1/prices.xml").result() == bh::status::not_found);
    CHECK(fixture_request("/healthz.json").result() == bh::status::not_found);
    CHECK(fixture_request("/v1/gpus/nope.md").result() == bh::status::not_found);
    // A short path (held inline by std::string) keeps its captures valid.
    auto const short_path = fixture_request("/v1/gpus/mi300x.md");
    CHECK(short_path.result() == bh::status::ok);
    CHECK(short_path.body().starts_with("# Instinct MI300X\n"));
}

TEST_CASE("Markdown by Accept and by suffix are the same, with the same numbers as the JSON")
{
    auto const md = fixture_request("/v1/prices.md").body();
    CHECK(fixture_request("/v1/prices", {{"Accept", "text/markdown"}}).body() == md);
    auto const row = boost::json::parse(fixture_request("/v1/prices/h100-sxm").body()).as_object();
    CHECK(row.at("on_demand").as_string() == "1.680");
    CHECK(md.find("| [H100 SXM](/v1/gpus/h100-sxm.md) | 2.400 | 1.680 | 1.680 | 0.840 | 1.092 |") != std::string::npos);
    auto const html = fixture_request("/v1/prices.html").body();
    CHECK(html.find("<div class=\"table\"><table>") != std::string::npos);
    // An HTML page's links keep the reader's language from page to page.
    CHECK(html.find("<a href=\"/v1/gpus/h100-sxm.html?lang=en\">H100 SXM</a>") != std::string::npos);
    CHECK(html.find("<td align=\"right\">1.092</td>") != std::string::npos);
    auto const csv = fixture_request("/v1/prices.csv").body();
    CHECK(csv.find("\n2026-W49,h100-sxm,H100 SXM,true,5,2.400,1.680,1.680,0.840,1.092,0.000,USD,per GPU-hour,,") !=
          std::string::npos);
}

TEST_CASE("the sheet in French: French words and numbers in its pages, the same JSON and CSV")
{
    auto const md = fixture_request("/v1/prices.md?lang=fr");
    CHECK(md.result_int() == 200);
    CHECK(md[bh::field::content_language] == "fr");
    CHECK(md.body().starts_with("# Fiche de prix GPU 2026-W49\n"));
    // Decimal commas in the French table; "0,001 $" with a narrow no-break space before the sign.
    CHECK(md.body().find("| [H100 SXM](/v1/gpus/h100-sxm.md?lang=fr) | 2,400 | 1,680 | 1,680 | 0,840 | 1,092 |") !=
          std::string::npos);
    CHECK(md.body().find("(0,001\u202F$)") != std::string::npos);
    // Accept-Language chooses when lang is absent; lang wins over it.
    CHECK(fixture_request("/v1/prices.md", {{"Accept-Language", "fr-FR, en;q=0.5"}}).body() == md.body());
    auto const english = fixture_request("/v1/prices.md?lang=en", {{"Accept-Language", "fr"}});
    CHECK(english[bh::field::content_language] == "en");
    CHECK(english.body().starts_with("# GPU price sheet 2026-W49\n"));
    // Data are language-neutral: the JSON's rows (figures, money strings, the published reasons) are the
    // same, only its notes are French; the CSV is the same bytes.
    auto const fr_json = boost::json::parse(fixture_request("/v1/prices?lang=fr").body()).as_object();
    auto const en_json = boost::json::parse(fixture_request("/v1/prices").body()).as_object();
    CHECK(fr_json.at("prices") == en_json.at("prices"));
    CHECK(fr_json.at("billing").at("storage_per_gb_month") == en_json.at("billing").at("storage_per_gb_month"));
    CHECK(fr_json.at("billing").at("regions_note") == "les mêmes prix dans toutes les régions");
    CHECK(fixture_request("/v1/prices.csv?lang=fr").body() == fixture_request("/v1/prices.csv").body());
    // The HTML page's navigation is French and links to the same page in English.
    auto const html = fixture_request("/v1/prices.html?lang=fr").body();
    CHECK(html.find("<html lang=\"fr\">") != std::string::npos);
    CHECK(html.find("<a href=\"/v1/gpus.html?lang=fr\">Catalogue</a>") != std::string::npos);
    CHECK(html.find("<a href=\"/v1/prices.html?lang=en\" hreflang=\"en\" lang=\"en\">In English</a>") !=
          std::string::npos);
    CHECK(fixture_request("/v1/prices.html").body().find(
              "<a href=\"/v1/prices.html?lang=fr\" hreflang=\"fr\" lang=\"fr\">En français</a>") != std::string::npos);
}

TEST_CASE("an unknown language is a 400 naming the accepted ones, on operations and other documents alike")
{
    for (auto const* target : {"/v1/prices?lang=de", "/v1/sheets?lang=de", "/v1/estimate?gpu=h100-sxm&hours=1&lang=de",
                               "/index.md?lang=fr-CA"}) {
        auto const res = fixture_request(target);
        INFO(target);
        CHECK(res.result_int() == 400);
        auto const body = boost::json::parse(res.body()).as_object();
        CHECK(body.at("parameter").as_string() == "lang");
        CHECK(std::string(body.at("detail").as_string()).find("accepted: en, fr") != std::string::npos);
    }
}

TEST_CASE("computed responses: every format, from the same JSON")
{
    auto const json = boost::json::parse(
                          fixture_request("/v1/estimate?gpu=h100-sxm&hours=0.2").body())
                          .as_object();
    CHECK(json.at("total").as_string() == "0.336");
    auto const md = fixture_request("/v1/estimate.md?gpu=h100-sxm&hours=0.2").body();
    CHECK(md.find("**0.336**") != std::string::npos);
    auto const html = fixture_request("/v1/estimate.html?gpu=h100-sxm&hours=0.2");
    CHECK(html.body().find("<strong>0.336</strong>") != std::string::npos);
    CHECK(html.body().find("/v1/estimate.md?gpu=h100-sxm&amp;hours=0.2") != std::string::npos);
    auto const search = fixture_request("/v1/glossary.csv?q=spot");
    CHECK(header(search, "Content-Type") == "text/csv; charset=utf-8; header=present");
    CHECK(search.body().starts_with("lang,slug,name,category,category_name,definition,aliases,related\n"));
    auto const filtered = fixture_request("/v1/gpus.md?vendor=amd");
    CHECK(filtered.body().find("Instinct MI300X") != std::string::npos);
    CHECK(filtered.body().find("H100") == std::string::npos);
    // A bad parameter is a problem whatever the format asked.
    auto const bad = fixture_request("/v1/estimate.md?gpu=h100-sxm");
    CHECK(bad.result() == bh::status::bad_request);
    CHECK(header(bad, "Content-Type") == "application/problem+json");
}

TEST_CASE("calculators: a GET form pre-filled from the query, blank fields not given, refusals under the form")
{
    // Before its first use: the form alone, 200.
    auto const empty = fixture_request("/v1/estimate.html");
    CHECK(empty.result() == bh::status::ok);
    CHECK(empty.body().find("<form class=\"calculator\" method=\"get\" action=\"/v1/estimate.html\">") !=
          std::string::npos);
    CHECK(header(empty, "Content-Security-Policy").find("form-action 'self'") != std::string::npos);
    CHECK(empty.body().find("<script") == std::string::npos);
    // Submitted as a browser does, with its blank fields: the result under the form, filled as sent,
    // and the other formats' links without the blanks.
    auto const filled = fixture_request("/v1/estimate.html?gpu=h100-sxm&gpus=2&seconds=&hours=10&tier=spot&storage_gb=");
    CHECK(filled.result() == bh::status::ok);
    auto const& body = filled.body();
    CHECK(body.find("<option value=\"h100-sxm\" selected>") != std::string::npos);
    CHECK(body.find("name=\"hours\" value=\"10\"") != std::string::npos);
    CHECK(body.find("<option value=\"spot\" selected>") != std::string::npos);
    CHECK(body.find("</form>") < body.find("<td align=\"right\">16.800</td>"));
    CHECK(body.find("/v1/estimate.json?gpu=h100-sxm&amp;gpus=2&amp;hours=10&amp;tier=spot\"") != std::string::npos);
    // A refusal: the form as sent and the problem, with its status, in HTML.
    auto const bad = fixture_request("/v1/sizing.html?params_b=70&precision=fp7");
    CHECK(bad.result() == bh::status::bad_request);
    CHECK(header(bad, "Content-Type") == "text/html; charset=utf-8");
    CHECK(bad.body().find("name=\"params_b\" value=\"70\"") != std::string::npos);
    CHECK(bad.body().find("<div class=\"problem\" role=\"alert\"><p><strong>400 Bad Request</strong> "
                          "(<code>precision</code>)") != std::string::npos);
    // Only the calculators have a form; their other formats keep refusing blanks.
    CHECK(fixture_request("/v1/prices.html").body().find("<form") == std::string::npos);
    CHECK(fixture_request("/v1/estimate?gpu=h100-sxm&hours=10&seconds=").result() == bh::status::bad_request);
    for (auto const* page : {"/v1/sizing.html", "/v1/compare.html", "/v1/cheapest.html", "/v1/instances/check.html"})
        CHECK(fixture_request(page).body().find("<form class=\"calculator\"") != std::string::npos);
}

TEST_CASE("a calculator asked with a query it cannot read shows the refusal under its blank form")
{
    auto const page = fixture_request("/v1/estimate.html?gpu=%zz&hours=1");
    CHECK(page.result() == bh::status::bad_request);
    CHECK(header(page, "Content-Type") == "text/html; charset=utf-8");
    CHECK(page.body().find("<form class=\"calculator\"") != std::string::npos);
    CHECK(page.body().find("<strong>400 Bad Request</strong> (<code>gpu</code>)") != std::string::npos);
    CHECK(page.body().find("malformed %-escape") != std::string::npos);
    // In the language Accept-Language asks for (the query's `lang` cannot be read with the rest).
    auto const fr = fixture_request("/v1/sizing.html?params_b=70&params_b=80", {{"Accept-Language", "fr"}});
    CHECK(fr.result() == bh::status::bad_request);
    CHECK(fr.body().find("<html lang=\"fr\">") != std::string::npos);
    CHECK(fr.body().find("donné plusieurs fois") != std::string::npos);
    // The same query on a calculator's JSON, or on a page without a form, is the problem as before.
    auto const json = fixture_request("/v1/estimate?gpu=%zz&hours=1");
    CHECK(header(json, "Content-Type") == "application/problem+json");
    CHECK(header(fixture_request("/v1/prices.html?gpu=%zz"), "Content-Type") == "application/problem+json");
}

TEST_CASE("a calculator's fields are labelled in words, in the page's language, the parameter's name second")
{
    // Every parameter of every calculator has its words, in both languages (the catalog's own test
    // checks that every message has its French).
    std::vector<std::string> missing;
    for (auto const& op : api::operations())
        if (op.calculator)
            for (auto const& p : op.parameters())
                if (!locale::has_message("label." + std::string(p.name)))
                    missing.push_back("label." + std::string(p.name));
    CHECK_MESSAGE(missing.empty(), "no words for: ", [&] {
        std::string all;
        for (auto const& m : missing)
            all += m + " ";
        return all;
    }());
    CHECK(fixture_request("/v1/estimate.html").body().find(
              "<label for=\"field-storage_gb\">Storage (GB) <code>storage_gb</code></label>") != std::string::npos);
    CHECK(fixture_request("/v1/estimate.html?lang=fr").body().find(
              "<label for=\"field-storage_gb\">Stockage (Go) <code>storage_gb</code></label>") != std::string::npos);
    CHECK(fixture_request("/v1/estimate.html").body().find(
              "<label for=\"field-gpu\">GPU model * <code>gpu</code></label>") != std::string::npos);
}

TEST_CASE("French glossary pages: lang kept in the links, lang attribute on the HTML")
{
    auto const md = fixture_request("/v1/glossary/interruptible-instance.md?lang=fr");
    REQUIRE(md.result() == bh::status::ok);
    CHECK(header(md, "Content-Language") == "fr");
    CHECK(md.body().find("?lang=fr)") != std::string::npos);
    auto const html = fixture_request("/v1/glossary/interruptible-instance?lang=fr", {{"Accept", "text/html"}});
    CHECK(html.body().find("<html lang=\"fr\">") != std::string::npos);
    CHECK(header(html, "Link").find("</v1/glossary/interruptible-instance.md?lang=fr>") != std::string::npos);
}

TEST_CASE("every page names the Atom feed of new sheets in its head and links it in its footer, in its language")
{
    for (auto const& page : {std::pair{"/v1/prices", "/v1/sheets.atom"},
                             std::pair{"/v1/gpus?lang=fr", "/v1/sheets.atom?lang=fr"}}) {
        std::string const target = page.first;  // named: doctest's lambdas cannot capture a structured binding
        std::string const feed = page.second;
        CAPTURE(target);
        auto const html = fixture_request(target, {{"Accept", "text/html"}});
        REQUIRE(html.result() == bh::status::ok);
        auto const& body = html.body();
        auto const head_link = body.find(std::string("<link rel=\"alternate\" type=\"application/atom+xml\""));
        REQUIRE(head_link != std::string::npos);
        CHECK(head_link < body.find("</head>"));
        CHECK(body.find(std::string("href=\"") + feed + "\">", head_link) < body.find("</head>"));
        auto const footer = body.find("<footer>");
        CHECK(body.find(std::string("<a href=\"") + feed + "\" type=\"application/atom+xml\">", footer) !=
              std::string::npos);
    }
}

TEST_CASE("echoed input cannot add Markdown blocks: newlines in a glossary search stay inline")
{
    std::string const attack = "%0A%0A%23%20Injected%20heading%0A%0A-%20item%0D%0A";
    auto const md = fixture_request("/v1/glossary.md?q=spot" + attack);
    REQUIRE(md.result() == bh::status::ok);
    CAPTURE(md.body());
    CHECK(md.body().find("\n# Injected") == std::string::npos);
    CHECK(md.body().find("\n- item") == std::string::npos);
    CHECK(md.body().find("\\# Injected heading") != std::string::npos);  // echoed, as text
    auto const html = fixture_request("/v1/glossary.html?q=spot" + attack);
    REQUIRE(html.result() == bh::status::ok);
    CAPTURE(html.body());
    CHECK(html.body().find("<h1>Injected") == std::string::npos);
    CHECK(html.body().find("<li>item") == std::string::npos);
    CHECK(html.body().find("# Injected heading") != std::string::npos);
}

TEST_CASE("the Link header carries the query percent-encoded, whatever the client sent")
{
    auto const r = fixture_request("/v1/glossary?q=a%3E%3B%20rel%3D%22x%22%2C%3Chttp://evil/%3E&lang=en");
    REQUIRE(r.result() == bh::status::ok);
    std::string const link = header(r, "Link");
    CAPTURE(link);
    CHECK(link.find("evil") != std::string::npos);  // the value is kept, encoded
    CHECK(link.find("/v1/glossary.md?q=a%3E%3B%20rel%3D%22x%22%2C%3Chttp%3A%2F%2Fevil%2F%3E&lang=en>") !=
          std::string::npos);
    for (char c : {'"', ';', ' '}) {
        // Outside the quoted media types and the separators the header itself writes.
        std::string stripped = link;
        for (auto const* part : {"; rel=\"alternate\"; type=\"", "\", <", "\""})
            for (auto at = stripped.find(part); at != std::string::npos; at = stripped.find(part))
                stripped.erase(at, std::string_view(part).size());
        CAPTURE(c);
        CHECK(stripped.find(c) == std::string::npos);
    }
}

TEST_CASE("CSV meant for people neutralises cells a spreadsheet would run as formulas (OWASP)")
{
    CHECK(render::csv_record({"=1+2", "+SUM(A1)", "-2+3", "@cmd", "\tx", "\rx", "plain", "-1.500", "+2", "-"}) ==
          "'=1+2,'+SUM(A1),'-2+3,'@cmd,'\tx,\"'\rx\",plain,-1.500,+2,'-\n");
    CHECK(render::csv_record({"=HYPERLINK(\"http://x\",\"y\")"}) == "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"\n");
    // The canonical observations CSV is the audit's input and stays byte-exact (see the methodology).
    auto const csv = fixture_request("/v1/sheets/2026-W49/observations.csv");
    CHECK(csv.body().find(",'") == std::string::npos);
}

TEST_CASE("html_escape drops what XML 1.0 forbids, so SVG and Atom stay well-formed, and keeps the rest")
{
    using lcg::render::html_escape;
    CHECK(html_escape("H100\x01\x0b\x1f SXM") == "H100 SXM");
    CHECK(html_escape(std::string("a\0b", 3)) == "ab");
    CHECK(html_escape("tab\tline\nret\r") == "tab\tline\nret\r");
    CHECK(html_escape("x\xEF\xBF\xBEy\xEF\xBF\xBFz") == "xyz");        // U+FFFE, U+FFFF
    CHECK(html_escape("\xEF\xBF\xBD \xC3\xA9 <&\">") == "\xEF\xBF\xBD \xC3\xA9 &lt;&amp;&quot;&gt;");  // U+FFFD, é kept
    CHECK(html_escape("\xEF\xBF") == "\xEF\xBF");  // a cut sequence is not taken for one
}

TEST_CASE("If-Match and If-Unmodified-Since: a state the client does not expect is 412, before anything else")
{
    std::string const target = "/v1/prices";
    auto const plain = fixture_request(target);
    std::string const etag(plain[bh::field::etag]);
    auto const status_with = [&](std::map<std::string, std::string> const& headers) {
        return fixture_request(target, headers).result();
    };
    CHECK(status_with({{"If-Match", etag}}) == bh::status::ok);
    CHECK(status_with({{"If-Match", "\"a\", " + etag}}) == bh::status::ok);
    CHECK(status_with({{"If-Match", "*"}}) == bh::status::ok);
    // Strong comparison: the same tag marked weak never matches.
    CHECK(status_with({{"If-Match", "W/" + etag}}) == bh::status::precondition_failed);
    auto const refused = fixture_request(target, {{"If-Match", "\"other\""}});
    CHECK(refused.result() == bh::status::precondition_failed);
    CHECK(refused[bh::field::content_type] == "application/problem+json");
    CHECK(refused[bh::field::etag] == etag);
    // Either encoding's tag names the same state, even where the request asks for no gzip copy.
    std::string const estimate = "/v1/estimate?gpu=h100-sxm&hours=2";
    std::string const gzip_tag(fixture_request(estimate, {{"Accept-Encoding", "gzip"}})[bh::field::etag]);
    REQUIRE(gzip_tag.ends_with("-gz\""));
    CHECK(fixture_request(estimate, {{"If-Match", gzip_tag}}).result() == bh::status::ok);
    auto const zipped = fixture_request(target, {{"Accept-Encoding", "gzip"}});
    CHECK(status_with({{"If-Match", std::string(zipped[bh::field::etag])}}) == bh::status::ok);
    // If-Match decides alone; If-Unmodified-Since otherwise, a date that does not parse ignored.
    std::string const modified(plain[bh::field::last_modified]);
    CHECK(status_with({{"If-Unmodified-Since", modified}}) == bh::status::ok);
    CHECK(status_with({{"If-Unmodified-Since", "Thu, 01 Jan 1970 00:00:00 GMT"}}) == bh::status::precondition_failed);
    CHECK(status_with({{"If-Unmodified-Since", "yesterday"}}) == bh::status::ok);
    CHECK(status_with({{"If-Match", etag}, {"If-Unmodified-Since", "Thu, 01 Jan 1970 00:00:00 GMT"}}) == bh::status::ok);
    // Every line of If-Match is one list.
    http::request two_lines{bh::verb::get, target, 11};
    two_lines.set(bh::field::host, "127.0.0.1");
    two_lines.insert(bh::field::if_match, "\"zzz\"");
    two_lines.insert(bh::field::if_match, etag);
    http::request_context ctx{fixture_snapshot(), fixture_now()};
    ctx.metrics = &fixture_metrics();
    CHECK(http::handle(two_lines, ctx).result() == bh::status::ok);
    two_lines.set(bh::field::if_match, "\"zzz\"");
    CHECK(http::handle(two_lines, ctx).result() == bh::status::precondition_failed);
    // A request in error is refused for its error, not for its precondition.
    CHECK(fixture_request("/v1/sheets/2026-W49?foo=1", {{"If-Match", "\"x\""}}).result() == bh::status::bad_request);
    // Before If-None-Match: a client that expects another state is not told "not modified".
    CHECK(status_with({{"If-Match", "\"other\""}, {"If-None-Match", etag}}) == bh::status::precondition_failed);
}
