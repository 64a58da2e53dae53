#pragma once

#include "render/format.hpp"
#include "render/language.hpp"

#include <boost/json/object.hpp>

#include <string>
#include <string_view>
#include <vector>

// The compact form of a list document (get_prices, list_gpus with `fields`): its array of objects
// replaced by a table, "columns" (the key member first, then the fields asked) and "rows" (an
// array of values per item), so an assistant pays for each member's name once, not once per model.
namespace lcg::render {

// Replaces `doc[list]` by "columns" and "rows": `key` then `fields` (members whose value is a scalar
// or a datasheet figure ({value, confirmed}, given by its value); `key` listed again is not
// repeated). A member an item lacks, or holds as an object or array, is null in its row.
void make_compact(boost::json::object& doc, std::string_view list, std::string_view key,
                  std::vector<std::string> const& fields);

bool is_compact(boost::json::object const& doc);
// The table as Markdown (cells as text) and as CSV (a header of the columns, a record per row).
std::string compact_markdown(boost::json::object const& doc);
std::string compact_csv(boost::json::object const& doc);

}
