#include "render/chart.hpp"

#include "render/html.hpp"

#include "pricing/money.hpp"
#include "pricing/rules.hpp"
#include "pricing/trend.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

namespace lcg::render {

namespace {

namespace json = boost::json;

// Figures are read as integers of the finest unit a figure is published in: coordinates are computed
// without floating point, like every other use of a published figure.
constexpr int scale = pricing::rules::finest_figure_decimals;

struct series {
    std::string_view key;    // member of a week in the history document
    std::string_view label;  // the legend's message (render/words)
    std::string_view colour;
};
constexpr std::array<series, 4> all_series{{{"median", "col.market_median", "#6b7280"},
                                            {"on_demand", "rate.on_demand", "#1d4ed8"},
                                            {"reserved", "col.reserved", "#b45309"},
                                            {"spot", "col.spot", "#047857"}}};

std::optional<std::int64_t> units(json::object const& week, std::string_view key)
{
    auto const* v = week.if_contains(key);
    if (!v || !v->is_string())
        return std::nullopt;
    auto const parsed = pricing::parse_decimal_units(v->get_string(), scale);
    return parsed ? std::optional(*parsed) : std::nullopt;
}

// The largest figure plotted, in units.
std::int64_t largest_figure(json::array const& weeks)
{
    std::int64_t top = 0;
    for (auto const& w : weeks)
        for (auto const& s : all_series)
            top = std::max(top, units(w.as_object(), s.key).value_or(0));
    return top;
}

// A step of the value axis that gives 4 to 8 gridlines: 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5 … dollars.
std::int64_t axis_step(std::int64_t top)
{
    std::int64_t step = 5'000'000;  // $0.05
    for (int i = 0; top / step > 8 && i < 24; ++i)
        step = i % 3 == 1 ? step * 5 / 2 : step * 2;
    return step;
}

// The top of the value axis: the largest figure rounded up to a whole number of steps.
std::int64_t axis_top(std::int64_t top, std::int64_t step) { return std::max<std::int64_t>(step, (top + step - 1) / step * step); }

std::string number(std::int64_t n) { return std::to_string(n); }

struct frame {
    int left, top, width, height;
    std::int64_t max_units;
    std::size_t points;
    std::int64_t min_units = 0;  // the value at the bottom: $0 on the chart, the series' own low on a sparkline
    int x(std::size_t i) const
    {
        return left + (points <= 1 ? width / 2 : static_cast<int>(static_cast<std::int64_t>(i) * width / static_cast<std::int64_t>(points - 1)));
    }
    int y(std::int64_t v) const { return top + height - static_cast<int>((v - min_units) * height / (max_units - min_units)); }
};

// One series as polylines (broken where a week has no figure) and its points.
std::string plot(json::array const& weeks, series const& s, frame const& f, bool with_points, language l)
{
    std::string lines, points, run;
    auto const flush = [&] {
        if (!run.empty())
            lines += "<polyline data-series=\"" + std::string(s.key) + "\" fill=\"none\" stroke=\"" + std::string(s.colour) +
                     "\" stroke-width=\"2\" points=\"" + run + "\"/>\n";
        run.clear();
    };
    for (std::size_t i = 0; i < weeks.size(); ++i) {
        auto const& w = weeks[i].as_object();
        auto const v = units(w, s.key);
        if (!v) {
            flush();
            continue;
        }
        run += (run.empty() ? "" : " ") + number(f.x(i)) + "," + number(f.y(*v));
        if (with_points) {
            std::string const week(w.at("week").as_string());
            std::string const value(w.at(s.key).as_string());
            points += "<circle data-series=\"" + std::string(s.key) + "\" data-week=\"" + week + "\" data-value=\"" +
                      value + "\" cx=\"" + number(f.x(i)) + "\" cy=\"" + number(f.y(*v)) + "\" r=\"3\" fill=\"" +
                      std::string(s.colour) + "\"><title>" + week + " " + say(l, s.label) + say(l, "colon") +
                      dollars(l, value) + "</title></circle>\n";
        }
    }
    flush();
    return lines + points;
}

}

std::string history_chart_svg(json::object const& history, language l)
{
    auto const& weeks = history.at("weeks").as_array();
    auto const top = largest_figure(weeks);
    auto const step = axis_step(top);
    frame const f{64, 36, 520, 220, axis_top(top, step), weeks.size()};
    std::string const name = html_escape(history.at("name").as_string());
    std::string out = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 760 320\" width=\"760\" height=\"320\" "
                      "role=\"img\" aria-labelledby=\"chart-title\" font-family=\"sans-serif\" font-size=\"12\">\n";
    out += "<title id=\"chart-title\">" + say(l, "chart.title", {{"model", name}}) + "</title>\n";
    out += "<rect width=\"760\" height=\"320\" fill=\"#ffffff\"/>\n";
    out += "<text x=\"" + number(f.left) + "\" y=\"20\" font-size=\"14\" font-weight=\"bold\">" +
           say(l, "chart.heading", {{"model", name}}) + "</text>\n";
    // The value axis: a labelled gridline per step, from $0.
    for (std::int64_t v = 0; v <= f.max_units; v += step) {
        auto const y = number(f.y(v));
        out += "<line x1=\"" + number(f.left) + "\" x2=\"" + number(f.left + f.width) + "\" y1=\"" + y + "\" y2=\"" + y +
               "\" stroke=\"#e5e7eb\"/>\n";
        out += "<text class=\"y-label\" x=\"" + number(f.left - 6) + "\" y=\"" + number(f.y(v) + 4) +
               "\" text-anchor=\"end\">" + locale::number(l, pricing::decimal_string(v, scale, 2)) + "</text>\n";
    }
    // The week axis: up to 7 labels, counted back from the newest week, which is always labelled.
    std::size_t const every = std::max<std::size_t>(1, (weeks.size() + 6) / 7);
    for (std::size_t i = 0; i < weeks.size(); ++i)
        if ((weeks.size() - 1 - i) % every == 0)
            out += "<text class=\"x-label\" x=\"" + number(f.x(i)) + "\" y=\"" + number(f.top + f.height + 18) +
                   "\" text-anchor=\"middle\">" + std::string(weeks[i].at("week").as_string()) + "</text>\n";
    out += "<line x1=\"" + number(f.left) + "\" x2=\"" + number(f.left) + "\" y1=\"" + number(f.top) + "\" y2=\"" +
           number(f.top + f.height) + "\" stroke=\"#374151\"/>\n";
    for (auto const& s : all_series)
        out += plot(weeks, s, f, true, l);
    // The legend, to the right of the plot.
    int y = f.top + 8;
    for (auto const& s : all_series) {
        out += "<rect x=\"600\" y=\"" + number(y - 9) + "\" width=\"14\" height=\"4\" fill=\"" + std::string(s.colour) + "\"/>";
        out += "<text x=\"620\" y=\"" + number(y - 4) + "\">" + html_escape(say(l, s.label)) + "</text>\n";
        y += 20;
    }
    if (weeks.empty())
        out += "<text x=\"324\" y=\"150\" text-anchor=\"middle\">" + say(l, "chart.empty") + "</text>\n";
    return out + "</svg>\n";
}

std::optional<std::string> on_demand_change(json::array const& weeks, std::size_t i, language l)
{
    auto const rate = [&](std::size_t at) -> std::optional<pricing::money> {
        auto const* v = weeks[at].as_object().if_contains(all_series[1].key);
        auto const parsed = v && v->is_string() ? std::optional(pricing::parse_money(v->get_string())) : std::nullopt;
        return parsed && *parsed ? std::optional(**parsed) : std::nullopt;
    };
    if (i == 0 || i >= weeks.size())
        return std::nullopt;
    auto const before = rate(i - 1), now = rate(i);
    auto const percent = before && now ? pricing::week_on_week_percent(*before, *now) : std::nullopt;
    return percent ? std::optional(locale::percent(l, *percent)) : std::nullopt;
}

std::string history_sparkline_svg(json::object const& history, language l)
{
    auto const& weeks = history.at("weeks").as_array();
    std::vector<std::int64_t> rates;
    for (auto const& w : weeks)
        if (auto const v = units(w.as_object(), all_series[1].key))
            rates.push_back(*v);
    auto const span = pricing::sparkline_span(rates);
    frame const f{2, 2, 96, 20, span.high, weeks.size(), span.low};
    std::string const name = html_escape(history.at("name").as_string());
    auto const change = weeks.empty() ? std::nullopt : on_demand_change(weeks, weeks.size() - 1, l);
    std::string const title = change ? say(l, "chart.sparkline_change", {{"model", name}, {"change", *change}})
                                     : say(l, "chart.sparkline", {{"model", name}});
    std::string out = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 150 24\" width=\"150\" height=\"24\" "
                      "role=\"img\" font-family=\"sans-serif\">\n<title>" + title + "</title>\n";
    out += plot(weeks, all_series[1], f, false, l);
    // The change since the week before, to the right of the line.
    out += "<text class=\"change\" x=\"148\" y=\"16\" font-size=\"11\" text-anchor=\"end\" fill=\"#374151\">" +
           change.value_or("—") + "</text>\n";
    return out + "</svg>\n";
}

}
