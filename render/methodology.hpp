#pragma once

#include "pricing/catalog.hpp"
#include "pricing/signing.hpp"

#include "render/language.hpp"

#include <boost/json/object.hpp>

#include <span>

namespace lcg::render {

// /v1/methodology: every constant, each rule as a sentence and as a formula, and how to audit.
// All numbers come from pricing/rules.hpp; `keys` are the public keys sheets are signed with, and
// `sources` the market sources counted (the catalog's, as /v1/sources lists them).
boost::json::object methodology_json(pricing::key_ring const& keys, std::span<const pricing::market_source> sources,
                                     language lang = language::en);

}
