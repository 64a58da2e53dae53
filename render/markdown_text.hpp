#pragma once

// Helpers shared by the Markdown writers (markdown_*.cpp): reading the JSON documents they lay out
// and writing escaped text, links and tables. Private to render.

#include <boost/json/array.hpp>
#include "pricing/rules.hpp"
#include "render/format.hpp"
#include "render/language.hpp"

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace lcg::render::md {

// A member of `o`, or null when absent, so that a writer reads optional members plainly.
boost::json::value const& at(boost::json::object const& o, std::string_view key);
boost::json::object const& object_at(boost::json::object const& o, std::string_view key);  // empty if absent
boost::json::array const& array_at(boost::json::object const& o, std::string_view key);    // empty if absent

// A scalar as text: strings as they are, numbers in decimal, true/false as yes/no, null as "—".
std::string text(boost::json::value const& v);
std::string text(boost::json::object const& o, std::string_view key);

// Inline text with Markdown's punctuation escaped, so names and user input print as written.
std::string escape(std::string_view text);
std::string link(std::string_view label, std::string_view url);
std::string code(std::string_view text);
// "2026-11-30T00:00:00Z" → "2026-11-30 00:00 UTC".
std::string when(std::string_view rfc3339);
// A datasheet figure {"value", "confirmed"}: "25.8", or "25.8?" when unconfirmed.
// Its number as `lang` writes it.
std::string figure(language lang, boost::json::value const& v);
// "70 %": a ratio of the methodology as a whole percentage, as `lang` writes it.
std::string percent(language lang, pricing::rules::ratio r);
// A value as a page in `lang` shows it: decimal numbers as the language writes them (number()),
// true/false as yes/no or oui/non, null as "—", other strings as they are. English is text().
std::string shown(language lang, boost::json::value const& v);
std::string shown(language lang, boost::json::object const& o, std::string_view key);
// A money figure of `o` as the page `to` writes it. On an HTML page, for people, rounded to the mill
// (pricing::to_shown) and, when rounding dropped digits, a link to `exact_url` (a JSON document that
// publishes the figure) titled with the exact figure; in Markdown, which programs and auditors read,
// exact as published (shown()). A figure that is not a plain decimal is shown() as it is.
std::string amount(links const& to, boost::json::object const& o, std::string_view key, std::string_view exact_url);
// The sentence that tells how amount() rounds, with a leading space; empty unless `to` is HTML.
std::string rounding_note(links const& to);
// Why a row of a sheet is not priced, escaped. The sheet's reason is English, as it was published
// (and as audits compare it); a French page gives the rules' reason for too few observations in
// French, and any other reason as published.
std::string unpriced_reason(language lang, boost::json::object const& row);
// Whether a document was built from synthetic sample data (its `sample` member is true), and the
// blockquote that says so on its pages, its line included.
bool is_sample(boost::json::object const& doc);
std::string sample_banner(language lang);
// The table of the market sources (sources_list_json): name, kind, homepage (a link) and format.
std::string sources_table(language lang, boost::json::array const& sources);
// A comma-separated list of the strings of an array, escaped.
std::string list(boost::json::array const& items);

// A GitHub-flavoured Markdown table. Columns whose name starts with '>' are right-aligned (numbers).
class table {
public:
    table(std::initializer_list<std::string_view> columns);
    explicit table(std::vector<std::string> const& columns);
    void row(std::vector<std::string> cells);  // cells already escaped; '|' inside them is escaped here
    std::string str() const;
    bool empty() const { return rows_.empty(); }

private:
    std::vector<std::string> header_;
    std::vector<bool> right_;
    std::vector<std::vector<std::string>> rows_;
};

// What a writer reads its document with on nearly every line, taken unqualified by each writer with
// one `using namespace md::reading;`.
namespace reading {
using md::at;
using md::escape;
using md::shown;
using md::text;
}

}
