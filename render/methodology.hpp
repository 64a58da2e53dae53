#pragma once

#include "pricing/signing.hpp"

#include "render/words.hpp"

#include <boost/json/object.hpp>

namespace lcg::render {

// /v1/methodology: every constant, each rule as a sentence and as a formula, and how to audit.
// All numbers come from pricing/rules.hpp; `keys` are the public keys sheets are signed with.
boost::json::object methodology_json(pricing::key_ring const& keys, language lang = language::en);

}
