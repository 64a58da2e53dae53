#pragma once

// How the Markdown pages write a model's prices (markdown_sheet.cpp, markdown_history.cpp,
// markdown_catalog.cpp): its rates, its market, its money figures and the link to its page.
// Private to render.

#include "render/format.hpp"
#include "render/markdown_text.hpp"
#include "render/resources.hpp"

#include <boost/json/object.hpp>

#include <string>
#include <string_view>

namespace lcg::render::md {

std::string gpu_link(boost::json::object const& row, links const& to, std::string_view id_key = "gpu");

// A tier's name as the pages write it ("on_demand" → "on-demand", "à la demande").
std::string tier_name(language l, std::string_view tier);

// The three rates of a priced model, as a table.
std::string rates_table(boost::json::object const& p, language l);

// A rules version 2 row's market (sheet_row_json: `market`, `by_source`), as the pages show it.
bool has_market(boost::json::object const& row);

// How a page writes the money figures of one model's week (md::amount): rounded to the mill on an
// HTML page, with a link to that week's price of the model as JSON, where every figure is exact.
struct amounts {
    links const& to;
    std::string exact_url;
    amounts(links const& page, std::string_view gpu, std::string_view week)
        : to(page), exact_url(suffixed_url(path_of(resource::price, gpu), format::json, week.empty() ? "" : "?week=" + std::string(week)))
    {
    }
    std::string operator()(boost::json::object const& o, std::string_view key) const { return md::amount(to, o, key, exact_url); }
};

// "2.300–2.500": the lowest and highest listing.
std::string market_range(amounts const& money, boost::json::object const& row);

// "min 2.300 · p25 2.350 · median 2.400 · p75 2.450 · max 2.500".
std::string market_figures(amounts const& money, boost::json::object const& row);

// The market of one model's page: its figures, then a table of its sources.
std::string market_section(boost::json::object const& row, amounts const& money);

}
