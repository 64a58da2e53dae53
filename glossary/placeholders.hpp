#pragma once

#include "locale/language.hpp"

#include "pricing/catalog.hpp"
#include "pricing/money.hpp"
#include "pricing/outcome.hpp"
#include "pricing/sheet.hpp"

#include <span>
#include <string>
#include <string_view>
#include <vector>

// Live figures in the glossary's text. Two placeholders:
//
//   {{price:<gpu-id>:<on_demand|spot|reserved>}}   a per-GPU-hour rate of the sheet in force
//   {{fact:<name>}}                                a constant of pricing/rules.hpp, or a count of
//                                                  the catalog (see fact_names)
//
// Figures are written per language. English: "$1.680", "0.70", "70%", "99.9%". French: "1,680 $",
// "0,70", "70 %", "99,9 %" — decimal comma, and an ordinary space (U+0020) before "$" and "%",
// like the rest of the French content ("60 %"); no narrow no-break space anywhere. Rates keep
// their three decimals; fixed amounts show cents unless whole ("$0.08", "$40").
namespace lcg::glossary {

// The glossary is written in the service's languages, its figures as each writes them (locale/).
using locale::language;

// The names {{fact:…}} accepts, in the order the methodology states them.
std::span<const std::string_view> fact_names();

std::string format_rate(pricing::money rate, language lang);    // "$1.680" / "1,680 $"
std::string format_amount(pricing::money amount, language lang);  // "$0.08", "$40" / "0,08 $", "40 $" (U+202F)
std::string format_decimal(std::string_view decimal, language lang);  // "0.70" / "0,70"
std::string format_percent(std::string_view decimal, language lang);  // "99.9%" / "99,9 %" (U+202F)

// What placeholders are resolved against: the sheet in force and the catalog (for GPU ids and the
// number of regions). Both must outlive the call.
struct figures {
    pricing::price_sheet const& sheet;
    pricing::catalog const& catalog;
};

// The value of one placeholder, given without its braces ("price:h100-sxm:spot"). Errors:
// invalid_argument for an unknown kind, fact name or tier, or a malformed placeholder; not_found
// for a GPU id outside the catalog; unavailable for a model the sheet does not price (and for a
// catalog without regions). Never an empty string.
pricing::outcome<std::string> resolve_placeholder(std::string_view inner, language lang, figures const& with);

// `text` with every placeholder replaced; the first placeholder that does not resolve is the error,
// its message starting with the placeholder as written. An unclosed "{{" is invalid_argument.
pricing::outcome<std::string> resolve_text(std::string_view text, language lang, figures const& with);

// Checks what can be checked without a sheet: braces closed, known kinds, fact names and tiers, a
// slug-shaped GPU id. The first problem, or an empty string.
std::string check_placeholders(std::string_view text);

// Every placeholder of `text` as written, braces included, in order.
std::vector<std::string_view> placeholders_in(std::string_view text);

}
