#pragma once

// Small conversions the JSON writers share (json.cpp, catalog_json.cpp, costing_json.cpp,
// estimate_json.cpp). Private to render.

#include "pricing/money.hpp"

#include <boost/json/value.hpp>

#include <cstdint>
#include <string>

namespace lcg::render::json_parts {

inline boost::json::value optional_text(std::string const& s)
{
    return s.empty() ? boost::json::value(nullptr) : boost::json::value(s);
}

// A quantity held in millionths of its unit ("200", "1.5").
inline std::string micro_text(std::int64_t micro) { return pricing::decimal_string(micro, 6, 0); }

// An amount rounded to the cent, as the documents' `total_display` members write it ("$12.35").
inline std::string display(pricing::money m) { return "$" + pricing::to_cents(m); }

// The money words the writers spell their figures with, so that a writer of many figures takes
// them with the conversions above in one `using namespace json_parts;`.
using pricing::decimal_string;
using pricing::money;
using pricing::to_decimal;

}
