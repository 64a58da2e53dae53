#pragma once

#include "pricing/listing_mapping.hpp"
#include "pricing/outcome.hpp"
#include "pricing/rules.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// JSON whose numbers keep their text. Boost.JSON's value holds a number as a double, and a price
// must reach pricing::per_gpu_price as the upstream wrote it (0.36979999999999996 is $0.369800,
// not the nearest double), so the JSON offer readers (vast.hpp, runpod.hpp) read this tree instead.
namespace lcg::market {

enum class json_kind { null, boolean, number, string, array, object };
std::string_view to_string(json_kind k);  // "null", "a boolean", "a number", "a string", "an array", "an object"

struct json_node {
    json_kind kind = json_kind::null;
    std::string text;              // a number as written, a string unescaped, "true" or "false"
    std::string key;               // the member's name, when this node is a member of an object
    std::vector<json_node> items;  // an array's elements or an object's members, in document order

    // The member named `name` of an object; null when there is none or this is not an object.
    json_node const* member(std::string_view name) const;
};

struct exact_json_limits {
    std::size_t max_bytes = pricing::rules::max_listings_file_bytes;
    std::size_t max_depth = 20;          // nested arrays and objects
    std::size_t max_values = 1u << 22;   // every value, containers included (about 100 bytes each in memory)
};

// One whole JSON document (RFC 8259: UTF-8, no comments, no trailing commas, nothing after it).
// Refused with the reason: not JSON (with the line where the parser stopped), beyond a limit, or an
// object that names a key twice (which member counts would be the reader's guess).
pricing::outcome<json_node> parse_exact_json(std::string_view text, exact_json_limits limits = {});

// The whole part of a non-negative JSON number without exponent ("24564", "46068.5" → 46068);
// nothing for anything else or for more than 2^40.
std::optional<std::int64_t> whole_part(std::string_view number);

// Reads typed members of one object of a document, keeping the first member of the wrong type as
// the document's refusal ("offers[3].dph_total is a string, not a number"). An absent or null
// member reads as empty.
class member_reader {
public:
    member_reader(json_node const& object, std::string where);

    std::string number(std::string_view name);  // as written
    std::string text(std::string_view name);
    std::optional<bool> flag(std::string_view name);

    // The first member of the wrong type, if any.
    std::optional<pricing::error> const& error() const { return error_; }

private:
    json_node const* typed(std::string_view name, json_kind kind);

    json_node const& object_;
    std::string where_;
    std::optional<pricing::error> error_;
};

// What the JSON offer readers share: each element of the array `list` (called `where` in messages,
// "offers") read by `read` into one offer, in order. The whole document is refused at the first
// element that is not an object, that `read` refuses, that has a member of the wrong type, or whose
// listing id is longer than pricing::max_listing_id.
pricing::outcome<std::vector<pricing::market_offer>> read_offer_array(
    json_node const& list, std::string_view where,
    std::function<pricing::outcome<pricing::market_offer>(member_reader&, std::string const& element)> const& read);

}
