#pragma once

#include "render/format.hpp"

#include "pricing/catalog.hpp"
#include "pricing/sheet.hpp"

#include <boost/json/object.hpp>

#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

// The documents that describe the whole service: the index at "/" and llms.txt (llmstxt.org).
namespace lcg::render {

// One operation of the registry as the index shows it: its title, an example call (path and query)
// and what it answers, with the MCP tool it also is.
struct operation_example {
    std::string title;
    std::string path;
    std::string query;  // "?params_b=70&precision=fp8", or empty
    std::string description;
    format_set formats;
};

// "/": every resource grouped in sections, each with its formats and the URL of each format;
// the optional sections are marked. Example URLs (a GPU page) use models of `catalog`; the
// operations section lists `operations` as given. Written in `lang`, its links to pages ask for it.
// {"name", "summary", "current_week", "formats": [...], "sections": [{"name", "optional",
// "resources": [{"title", "path", "query", "description", "formats": {media type: URL}}]}],
// "openapi", "llms_txt", "sample"}, `sample` true when the sheet in effect is synthetic sample data
// (then llms.txt says so too).
// How a client starts a local mirror of the instance at `url` over stdio: {"command": "lowcostgpu",
// "args": ["mcp", "--upstream", url]}, as the home page, llms.txt and the server card give it.
boost::json::object local_mirror_command(std::string_view url);

// `public_url`: where clients reach this instance (serve --public-url); empty, the client
// configurations say placeholder_url instead.
inline constexpr std::string_view placeholder_url = "https://YOUR-HOST";
boost::json::object index_json(pricing::catalog const& catalog, pricing::price_sheet const* current,
                               std::span<const operation_example> operations, std::string_view public_url,
                               language lang);
std::string index_markdown(boost::json::object const& index, links const& to);

// /llms.txt from the index: an H1, a blockquote summary, the sample data banner when the index's
// `sample` is true, a note on formats, and one section of
// "- [title](url): description" links per index section, links to the Markdown of each page;
// the optional sections come last under "## Optional".
std::string llms_txt(boost::json::object const& index, language lang);
// /llms-full.txt: the head of llms.txt, then every page given, as {url, markdown}, inline.
std::string llms_full_txt(boost::json::object const& index, std::vector<std::pair<std::string, std::string>> const& pages,
                          language lang);

}
