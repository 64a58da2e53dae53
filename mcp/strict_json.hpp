#pragma once

#include <boost/json/storage_ptr.hpp>
#include <boost/json/value.hpp>
#include <boost/system/error_code.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

// The MCP core's JSON reader: what json::parse reads, plus the keys an object names twice, which
// json::parse merges silently (Boost.JSON 1.81 has no option to refuse them) and the core refuses.
namespace lcg::mcp {

// The first key named twice in one object of a message, or a repeated "id" of the message object
// wherever it comes. `element` is the message's index in a batch (0 for a lone message);
// `top_level` says whether that object is the message itself.
struct duplicate_key {
    std::size_t element = 0;
    bool top_level = false;
    std::string key;
};

struct parsed_message {
    boost::json::value value;  // null when `error` is set
    boost::system::error_code error;
    std::vector<duplicate_key> duplicates;  // in document order, at most one per message of a batch
};

// Parses a whole message as json::parse would, into `values`, noting duplicated keys on the way
// (json::error::extra_data after the value; json::error::too_deep past max_nesting_depth). Safe to
// call from many threads.
parsed_message parse_strict(std::string_view message, boost::json::storage_ptr values);

}
