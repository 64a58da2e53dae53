#pragma once

#include <boost/json/object.hpp>

namespace lcg::render {

// /v1/methodology: every constant, each rule as a sentence and as a formula, and how to audit.
// All numbers come from pricing/rules.hpp.
boost::json::object methodology_json();

}
