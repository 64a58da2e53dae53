#include "render/markdown_text.hpp"

#include "render/html.hpp"

#include "pricing/money.hpp"

#include <cctype>
#include <optional>
#include <utility>

namespace lcg::render::md {

namespace json = boost::json;

json::value const& at(json::object const& o, std::string_view key)
{
    static json::value const null;
    auto const* v = o.if_contains(key);
    return v ? *v : null;
}

json::object const& object_at(json::object const& o, std::string_view key)
{
    static json::object const empty;
    auto const& v = at(o, key);
    return v.is_object() ? v.get_object() : empty;
}

json::array const& array_at(json::object const& o, std::string_view key)
{
    static json::array const empty;
    auto const& v = at(o, key);
    return v.is_array() ? v.get_array() : empty;
}

std::string text(json::value const& v)
{
    switch (v.kind()) {
    case json::kind::string: return std::string(v.get_string());
    case json::kind::int64: return std::to_string(v.get_int64());
    case json::kind::uint64: return std::to_string(v.get_uint64());
    case json::kind::bool_: return v.get_bool() ? "yes" : "no";
    case json::kind::null: return "—";
    default: return "";
    }
}

std::string text(json::object const& o, std::string_view key) { return text(at(o, key)); }

std::string escape(std::string_view s)
{
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size(); ++i) {
        char const c = s[i];
        if (auto const n = xml_forbidden_length(s, i)) {  // nor would the HTML page be well-formed
            i += n - 1;
            continue;
        }
        // A line break would let echoed input start a block (a heading, a list): inline text has none.
        if (c == '\n' || c == '\r') {
            out += ' ';
            continue;
        }
        bool special = c == '\\' || c == '*' || c == '[' || c == ']' || c == '<' || c == '>' || c == '|' || c == '`' ||
                       c == '#';
        if (c == '_') {
            // Only an underscore at a word boundary can open or close emphasis ("on_demand" is safe).
            bool const before = i > 0 && std::isalnum(static_cast<unsigned char>(s[i - 1]));
            bool const after = i + 1 < s.size() && std::isalnum(static_cast<unsigned char>(s[i + 1]));
            special = !(before && after);
        }
        if (special)
            out += '\\';
        out += c;
    }
    return out;
}

std::string link(std::string_view label, std::string_view url)
{
    std::string out = "[";
    out += escape(label);
    out += "](";
    out += url;
    out += ')';
    return out;
}

std::string code(std::string_view s)
{
    std::string out = "`";
    out += s;
    out += '`';
    return out;
}

std::string when(std::string_view t)
{
    if (t.size() != 20 || t[10] != 'T' || t[19] != 'Z')
        return std::string(t);
    std::string out(t.substr(0, 10));
    out += ' ';
    out += t.substr(11, 5);
    out += " UTC";
    return out;
}

std::string figure(language lang, json::value const& v)
{
    if (!v.is_object())
        return "—";
    auto const& o = v.get_object();
    std::string out = shown(lang, o, "value");
    if (auto const* c = o.if_contains("confirmed"); c && c->is_bool() && !c->get_bool())
        out += '?';
    return out;
}

std::string list(json::array const& items)
{
    std::string out;
    for (auto const& item : items) {
        if (!out.empty())
            out += ", ";
        out += escape(text(item));
    }
    return out.empty() ? "—" : out;
}

table::table(std::initializer_list<std::string_view> columns) : table(std::vector<std::string>(columns.begin(), columns.end())) {}

table::table(std::vector<std::string> const& columns)
{
    for (std::string_view c : columns) {
        bool const right = c.starts_with('>');
        right_.push_back(right);
        header_.emplace_back(right ? c.substr(1) : c);
    }
}

void table::row(std::vector<std::string> cells)
{
    cells.resize(header_.size());
    rows_.push_back(std::move(cells));
}

std::string table::str() const
{
    auto line = [](std::vector<std::string> const& cells) {
        std::string out = "|";
        for (auto const& c : cells) {
            out += ' ';
            for (char ch : c) {
                if (ch == '\n')
                    ch = ' ';
                if (ch == '|' && (out.empty() || out.back() != '\\'))
                    out += '\\';
                out += ch;
            }
            out += " |";
        }
        return out + "\n";
    };
    std::string out = line(header_);
    out += '|';
    for (bool r : right_)
        out += r ? " ---: |" : " --- |";
    out += '\n';
    for (auto const& r : rows_)
        out += line(r);
    return out;
}

std::string percent(language lang, pricing::rules::ratio r)
{
    return locale::percent(lang, std::to_string(r.numerator * 100 / r.denominator));
}

std::string shown(language lang, json::value const& v)
{
    if (lang == language::en)
        return text(v);
    if (v.is_bool())
        return say(lang, v.get_bool() ? "yes" : "no");
    return number(lang, text(v));
}

std::string shown(language lang, json::object const& o, std::string_view key) { return shown(lang, at(o, key)); }

std::string amount(links const& to, json::object const& o, std::string_view key, std::string_view exact_url)
{
    auto const& v = at(o, key);
    auto const units = to.target == format::html && v.is_string()
                           ? std::optional(pricing::parse_decimal_units(v.get_string(), pricing::rules::finest_figure_decimals))
                           : std::nullopt;
    if (!units || !*units)
        return shown(to.lang, v);
    std::string const rounded = pricing::to_shown(**units, pricing::rules::finest_figure_decimals);
    std::string const exact = pricing::decimal_string(**units, pricing::rules::finest_figure_decimals);
    if (exact == rounded)
        return number(to.lang, rounded);
    return "[" + number(to.lang, rounded) + "](" + std::string(exact_url) + " \"" +
           say(to.lang, "figure.exact", {{"value", dollars(to.lang, exact)}}) + "\")";
}

std::string rounding_note(links const& to)
{
    return to.target == format::html ? " " + say(to.lang, "figure.rounding", {{"mill", dollars(to.lang, "0.001")}}) : "";
}

namespace {

// The leading whole number of `s` and what follows it, or nothing.
std::optional<std::pair<std::int64_t, std::string_view>> leading_count(std::string_view s)
{
    auto const digits = s.substr(0, s.find_first_not_of("0123456789"));
    if (digits.empty() || digits.size() >= 10)
        return std::nullopt;
    return std::pair{std::stoll(std::string(digits)), s.substr(digits.size())};
}

// `s` without `word` (and a plural "s" after it) at its start, or nothing.
std::optional<std::string_view> after_word(std::string_view s, std::string_view word)
{
    if (!s.starts_with(word))
        return std::nullopt;
    s.remove_prefix(word.size());
    return s.starts_with("s ") ? s.substr(1) : s;
}

// The rules version 2 reason for too few listings or sources (pricing::compute_market_row):
// "3 listings from 2 sources in the window; at least …", as its two counts.
std::optional<std::pair<std::int64_t, std::int64_t>> too_few_listings(std::string_view reason)
{
    auto const listings = leading_count(reason);
    auto const rest = listings ? after_word(listings->second, " listing") : std::nullopt;
    if (!rest || !rest->starts_with(" from "))
        return std::nullopt;
    auto const sources = leading_count(rest->substr(6));
    auto const tail = sources ? after_word(sources->second, " source") : std::nullopt;
    if (!tail || !tail->starts_with(" in the window; at least "))
        return std::nullopt;
    return std::pair{listings->first, sources->first};
}

}

std::string unpriced_reason(language lang, json::object const& row)
{
    namespace rules = pricing::rules;
    std::string const reason = text(row, "reason");
    if (lang == language::en)
        return escape(reason);
    if (auto const counts = too_few_listings(reason);
        counts && (counts->first < rules::min_observations || counts->second < rules::min_sources))
        return say(lang, "reason.too_few_listings", {{"listings", std::to_string(counts->first)},
                                                     {"sources", std::to_string(counts->second)},
                                                     {"min", std::to_string(rules::min_observations)},
                                                     {"min_sources", std::to_string(rules::min_sources)}});
    if (!reason.starts_with("only "))
        return escape(reason);
    // The row's count of observations; a sizing's or comparison's row has none, and its reason,
    // the sheet's, starts with the count.
    std::int64_t count = -1;
    if (auto const& n = at(row, "observations"); n.is_int64())
        count = n.get_int64();
    else if (auto const c = leading_count(std::string_view(reason).substr(5)); c && c->second.starts_with(' '))
        count = c->first;
    if (count < 0 || count >= rules::min_observations)
        return escape(reason);
    return say(lang, "reason.too_few", {{"count", std::to_string(count)}, {"min", std::to_string(rules::min_observations)}});
}

bool is_sample(json::object const& doc)
{
    auto const& v = at(doc, "sample");
    return v.is_bool() && v.get_bool();
}

std::string sample_banner(language lang) { return "> " + say(lang, "sample.banner") + "\n"; }

std::string sources_table(language lang, boost::json::array const& sources)
{
    table t{say(lang, "col.source"), say(lang, "col.kind"), say(lang, "col.homepage"), say(lang, "col.format")};
    for (auto const& v : sources) {
        auto const& s = v.get_object();
        auto const& homepage = at(s, "homepage");
        t.row({code(text(s, "name")), code(text(s, "kind")),
               homepage.is_string() ? link(escape(homepage.get_string()), homepage.get_string()) : "—",
               code(text(s, "format"))});
    }
    return t.str();
}

}
