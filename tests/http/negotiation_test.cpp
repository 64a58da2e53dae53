#include "server/http/negotiation.hpp"

#include <doctest/doctest.h>

#include <array>
#include <string_view>

using namespace lcg::http;
using lcg::render::format;
using lcg::render::format_set;

namespace {

format_set const table{format::json, format::markdown, format::html, format::csv};
format_set const document{format::json, format::markdown, format::html};

}

TEST_CASE("negotiate_format: no preference, */* and malformed headers give the first offered format")
{
    CHECK(negotiate_format("", table) == format::json);
    CHECK(negotiate_format("*/*", table) == format::json);
    CHECK(negotiate_format("nonsense", table) == format::json);  // no valid range: as if absent
    CHECK(negotiate_format("*/*", format_set{format::text}) == format::text);
}

TEST_CASE("negotiate_format: exact types, q-values and specificity")
{
    CHECK(negotiate_format("text/markdown", table) == format::markdown);
    CHECK(negotiate_format("text/csv", table) == format::csv);
    CHECK(negotiate_format("TEXT/Markdown; charset=utf-8", table) == format::markdown);
    CHECK(negotiate_format("application/json;q=0.5, text/csv", table) == format::csv);
    CHECK(negotiate_format("text/csv;q=0.4, application/json;q=0.9", table) == format::json);
    CHECK(negotiate_format("text/*", table) == format::markdown);  // server order among text types
    CHECK(negotiate_format("text/*;q=0.5, text/html", table) == format::html);
    // The more specific range sets the q-value even when a broader one is higher.
    CHECK(negotiate_format("text/*, text/markdown;q=0", table) == format::html);
    CHECK(negotiate_format("text/markdown;q=0", format_set{format::markdown}) == std::nullopt);
    CHECK(negotiate_format("text/markdown;q=1.5", table) == format::json);  // malformed q: range ignored
}

TEST_CASE("negotiate_format: a browser gets HTML where there is some, JSON elsewhere")
{
    std::string_view const chrome =
        "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,"
        "application/signed-exchange;v=b3;q=0.7";
    CHECK(negotiate_format(chrome, table) == format::html);
    CHECK(negotiate_format(chrome, format_set{format::json}) == format::json);
    CHECK(negotiate_format(chrome, format_set{format::text}) == format::text);
}

TEST_CASE("negotiate_format: nothing acceptable")
{
    CHECK(negotiate_format("text/csv", document) == std::nullopt);
    CHECK(negotiate_format("image/png", table) == std::nullopt);
    CHECK(negotiate_format("application/json", format_set{format::text}) == std::nullopt);
}

TEST_CASE("negotiate_type: the server card's own type first, plain JSON when only that is accepted")
{
    std::array<std::string_view, 2> const card{"application/mcp-server-card+json", "application/json"};
    CHECK(negotiate_type("", card) == card[0]);
    CHECK(negotiate_type("*/*", card) == card[0]);
    CHECK(negotiate_type("application/*", card) == card[0]);
    CHECK(negotiate_type("application/mcp-server-card+json", card) == card[0]);
    CHECK(negotiate_type("application/json", card) == card[1]);
    CHECK(negotiate_type("application/json, application/mcp-server-card+json;q=0.5", card) == card[1]);
    CHECK(negotiate_type("application/mcp-server-card+json;q=0, */*", card) == card[1]);
    CHECK_FALSE(negotiate_type("text/html", card));
    CHECK_FALSE(negotiate_type("application/*;q=0", card));
}

TEST_CASE("accepts_gzip follows q-values")
{
    CHECK(accepts_gzip("gzip"));
    CHECK(accepts_gzip("gzip, deflate, br"));
    CHECK(accepts_gzip("br;q=1.0, gzip;q=0.8, *;q=0.1"));
    CHECK(accepts_gzip("*"));
    CHECK(accepts_gzip("x-gzip"));
    CHECK_FALSE(accepts_gzip(""));
    CHECK_FALSE(accepts_gzip("identity"));
    CHECK_FALSE(accepts_gzip("br"));
    CHECK_FALSE(accepts_gzip("gzip;q=0"));
    CHECK_FALSE(accepts_gzip("gzip;q=0, *"));  // named beats the wildcard
    CHECK_FALSE(accepts_gzip("*;q=0"));
}

TEST_CASE("alternate_links names the other formats by suffix")
{
    CHECK(alternate_links("/v1/prices", "", table, format::json) ==
          "</v1/prices.md>; rel=\"alternate\"; type=\"text/markdown\", </v1/prices.html>; rel=\"alternate\"; "
          "type=\"text/html\", </v1/prices.csv>; rel=\"alternate\"; type=\"text/csv\"");
    CHECK(alternate_links("/", "", document, format::html) ==
          "</index.json>; rel=\"alternate\"; type=\"application/json\", </index.md>; rel=\"alternate\"; "
          "type=\"text/markdown\"");
    CHECK(alternate_links("/v1/glossary", "?lang=fr", format_set{format::json, format::csv}, format::json) ==
          "</v1/glossary.csv?lang=fr>; rel=\"alternate\"; type=\"text/csv\"");
    CHECK(alternate_links("/openapi.json", "", format_set{format::json}, format::json).empty());
}

TEST_CASE("suffixes: split_suffix inverts suffixed_url")
{
    using lcg::render::split_suffix;
    using lcg::render::suffixed_url;
    for (auto f : {format::json, format::markdown, format::html, format::csv})
        for (std::string path : {"/", "/v1/prices", "/v1/sheets/2026-W49/observations"}) {
            auto const split = split_suffix(suffixed_url(path, f));
            REQUIRE(split);
            CHECK(split->first == path);
            CHECK(split->second == f);
        }
    CHECK_FALSE(split_suffix("/v1/prices"));
    CHECK_FALSE(split_suffix("/v1/prices.xml"));
    CHECK_FALSE(split_suffix("/.md"));
    CHECK_FALSE(split_suffix("/v1.md/prices"));
}
