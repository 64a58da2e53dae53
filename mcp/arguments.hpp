#pragma once

#include "pricing/outcome.hpp"

#include <boost/json/object.hpp>

#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>

// Tool and prompt arguments, read into the decimal text the pricing parse functions take, so a tool
// validates exactly as the HTTP endpoint with the same name does.
namespace lcg::mcp {

inline constexpr std::size_t max_argument_bytes = 256;

class arguments {
public:
    // Takes `args` (null: no arguments). Accepts for each name in `known` a string, an integer, a
    // finite number (written back as its shortest exact decimal: 0.2 → "0.2"), a boolean or null
    // (as if absent); `list_names` may also be arrays of strings, joined with commas. Refuses any
    // other name, any other type and strings longer than max_argument_bytes, saying what is
    // accepted.
    static pricing::outcome<arguments> read(boost::json::object const* args, std::span<const std::string_view> known,
                                            std::span<const std::string_view> list_names = {});

    std::optional<std::string> take(std::string_view name);
    bool has(std::string_view name) const { return values_.contains(std::string(name)); }
    bool empty() const { return values_.empty(); }

private:
    std::map<std::string, std::string, std::less<>> values_;
};

// "a, b, c"
std::string join_names(std::span<const std::string_view> names);

}
