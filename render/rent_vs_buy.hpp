#pragma once

#include "pricing/rent_vs_buy.hpp"

#include "render/format.hpp"
#include "render/language.hpp"

#include <boost/json/object.hpp>

#include <string>

// The answer of rent_vs_buy (/v1/rent-vs-buy), as JSON and as Markdown.
namespace lcg::render {

// {"gpu", "name", "gpus", "tier", "per_gpu_hour", "week", "effective_from", "inputs": {every figure
//  given, as given: "purchase_price", "power_watts", "electricity_price", "hosting_per_month",
//  "utilisation_percent", "months"}, "used_hours", "rent": {"total"}, "own": {"purchase", "hosting",
//  "energy", "total"}, "difference" (rent minus own: what buying saves, negative when it costs more),
//  "verdict" (rent, buy, even), "break_even_months" and "break_even_utilisation_percent": {"state"
//  (within, beyond, never), "value" (a decimal rounded up to the hundredth, or null)}, "assumptions"
//  (sentences in `lang`), "note" (one sentence in `lang`), "currency", "lang", "sample"}. Money as
// decimal strings.
boost::json::object rent_vs_buy_json(pricing::rent_vs_buy_answer const& answer, language lang);

std::string rent_vs_buy_markdown(boost::json::object const& answer, links const& to);

}
