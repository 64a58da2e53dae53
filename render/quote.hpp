#pragma once

#include "pricing/catalog.hpp"
#include "pricing/quote.hpp"

#include "render/format.hpp"
#include "render/language.hpp"

#include <boost/json/object.hpp>

#include <string>

// The answer of verify_quote (/v1/quotes/verify), as JSON and as Markdown.
namespace lcg::render {

// {"gpu", "name", "tier", "quoted", "published" (null when the model is not priced that week),
//  "verdict" (published, above, below, not_priced), "matches", "difference" (quoted minus published,
//  signed; null when not priced), "reason" (why it is not priced, else null), "week", "effective_from",
//  "effective_until", "sheet": {"url", "published_at", "inputs_sha256", "key_id", "signature",
//  "signed_bytes"}, "currency", "unit", "note" (one sentence in `lang`), "lang", "sample"}. Money as
// decimal strings; key_id and signature null on an unsigned sheet.
boost::json::object quote_check_json(pricing::quote_check const& check, language lang);

std::string quote_check_markdown(boost::json::object const& check, links const& to);

}
