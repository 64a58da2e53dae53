#pragma once

#include "render/language.hpp"

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

// Charts of a model's price history as SVG, drawn on the server from the history document
// (render::price_history_json) so every plotted value is a published figure. No script, no external
// resource: an <img> of the HTML pages shows them under their Content-Security-Policy.
namespace lcg::render {

inline constexpr std::string_view svg_content_type = "image/svg+xml";

// The median and the three rates over the weeks, with labelled axes and a legend. Each point is a
// <circle> carrying data-series, data-week and data-value (the decimal string of the document) and
// a <title> a screen reader or a tooltip shows. Its words and labels are in `lang`.
std::string history_chart_svg(boost::json::object const& history, language lang = language::en);

// The on-demand rate over the weeks in a small line without axes, for a table cell, with its change
// from the week before printed to its right. Its height spans the model's own lowest to highest
// rate (pricing::sparkline_span: a flat series is a line across the middle).
std::string history_sparkline_svg(boost::json::object const& history, language lang = language::en);

// The change of week `i`'s on-demand rate from week i − 1's, as a percentage in `lang` ("+2.1 %",
// "−0,4 %" in French), from the exact rates (pricing::week_on_week_percent); empty unless both
// weeks are priced. `weeks` is the `weeks` array of a history document.
std::optional<std::string> on_demand_change(boost::json::array const& weeks, std::size_t i, language lang = language::en);

}
