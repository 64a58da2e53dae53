// Money on the pages for people (render/markdown_text.hpp, md::amount): shown to the mill, the exact
// figure a link away; Markdown keeps the exact figure, as the JSON publishes it.
#include "render/markdown_text.hpp"

#include "render/html.hpp"

#include "fixture.hpp"

#include <boost/json.hpp>
#include <doctest/doctest.h>

#include <string>

using namespace lcg;
using lcg::testing::fixture_request;
using render::format;
using locale::language;
namespace json = boost::json;

namespace {

json::object const figures{{"median", "2.4000005"}, {"cap", "1.68000035"}, {"on_demand", "1.680"},
                           {"round", "2.3800000"}, {"down", "2.4004999"}, {"none", "—"}};
constexpr std::string_view url = "/v1/prices/h100-sxm.json?week=2026-W49";

}

TEST_CASE("an HTML page rounds money to the mill, half up, and links a rounded figure to its exact value")
{
    render::links const html{format::html, language::en};
    CHECK(render::md::amount(html, figures, "median", url) ==
          "[2.400](/v1/prices/h100-sxm.json?week=2026-W49 \"exact value: $2.4000005\")");
    CHECK(render::md::amount(html, figures, "down", url) ==
          "[2.400](/v1/prices/h100-sxm.json?week=2026-W49 \"exact value: $2.4004999\")");
    CHECK(render::md::amount(html, figures, "cap", url).starts_with("[1.680]("));
    // Nothing to round: no link, and the figure to the mill.
    CHECK(render::md::amount(html, figures, "on_demand", url) == "1.680");
    CHECK(render::md::amount(html, figures, "round", url) == "2.380");
    CHECK(render::md::amount(html, figures, "none", url) == "—");
    CHECK(render::md::amount(html, figures, "absent", url) == "—");
}

TEST_CASE("a French page rounds the same and writes both figures the French way")
{
    render::links const html{format::html, language::fr};
    CHECK(render::md::amount(html, figures, "median", url) ==
          "[2,400](/v1/prices/h100-sxm.json?week=2026-W49 \"valeur exacte\u202F: 2,4000005\u202F$\")");
    CHECK(render::md::amount(html, figures, "on_demand", url) == "1,680");
}

TEST_CASE("Markdown keeps every figure exact, as the JSON publishes it")
{
    render::links const md{format::markdown, language::en};
    CHECK(render::md::amount(md, figures, "median", url) == "2.4000005");
    CHECK(render::md::amount(md, figures, "cap", url) == "1.68000035");
    CHECK(render::md::amount(md, figures, "round", url) == "2.3800000");
    CHECK(render::md::amount(render::links{format::markdown, language::fr}, figures, "median", url) == "2,4000005");
    CHECK(render::md::rounding_note(md).empty());
    CHECK(render::md::rounding_note(render::links{format::html, language::en}).find("to the mill ($0.001)") !=
          std::string::npos);
}

TEST_CASE("in HTML the rounded figure is a link to the exact JSON, titled with the exact value")
{
    render::links const html{format::html, language::en};
    auto const page = render::html_page("# t\n\n" + render::md::amount(html, figures, "median", url) + "\n",
                                        render::page{"/v1/prices", "", {}, language::en});
    CHECK(page.find("<a href=\"/v1/prices/h100-sxm.json?week=2026-W49\" title=\"exact value: $2.4000005\">2.400</a>") !=
          std::string::npos);
    // The sheet of the fixture says how it rounds, and only in HTML.
    CHECK(fixture_request("/v1/prices.html").body().find("rounded to the nearest, halves up") != std::string::npos);
    CHECK(fixture_request("/v1/prices.md").body().find("rounded to the nearest") == std::string::npos);
}
