#pragma once

#include "pricing/transfer.hpp"

#include "render/format.hpp"
#include "render/language.hpp"

#include <boost/json/object.hpp>

#include <span>
#include <string>

// The answer of transfer_time (/v1/transfer), as JSON and as Markdown.
namespace lcg::render {

// {"gb", "reference" (the link the others are compared with), "links": [{"id", "name",
//  "between_nodes", "rate", "unit" ("GB/s" or "Gb/s", as the figure is stated), "gigabytes_per_second",
//  "seconds", "milliseconds" (to a tenth), "slower_than_reference"}], "note", "lang"}: figures as
// decimal strings.
boost::json::object transfer_json(std::int64_t micro_gb, std::span<const pricing::link_time> times, language lang);

std::string transfer_markdown(boost::json::object const& transfer, links const& to);

}
