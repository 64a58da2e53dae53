#pragma once

#include "api/failure.hpp"

#include <boost/json/object.hpp>

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace lcg::api {

// How a parameter is written: over HTTP always as text; over MCP as the JSON type its schema says.
enum class value_type { string, integer, number, boolean, string_list };

// One value, either face, in characters as JSON Schema's maxLength counts them (code points); a
// value that is not UTF-8 is counted by its bytes.
inline constexpr std::size_t max_argument_characters = 256;
std::size_t argument_length(std::string_view value);  // in those characters

// One parameter of an operation, as both faces and the generated schemas see it. Bounds are in
// whole units; the schemas state them and the decoder enforces them (api/decoder.hpp).
struct parameter {
    std::string_view name;
    value_type type = value_type::string;
    std::string_view description;
    bool required = false;
    std::span<const std::string_view> choices{};  // the accepted values of an enumeration
    std::optional<std::int64_t> minimum{};
    std::optional<std::int64_t> maximum{};
    bool exclusive_minimum = false;  // the minimum itself is refused
    int min_items = 0;               // string_list only
    int max_items = 0;
    // A boolean's words: strings also accepted where true is, as a document writes the value
    // ("highest" for the processor performance flag).
    std::span<const std::string_view> words{};
    std::size_t max_length = 0;  // a string's, in characters; 0: max_argument_characters
};

// The longest value `p` takes, in characters (its schema's maxLength).
inline std::size_t max_length_of(parameter const& p)
{
    return p.max_length ? p.max_length : max_argument_characters;
}

// Whether `p` takes catalog ids: a GPU (`gpu`, `other_gpu`) or a list of them (`gpus` of a
// comparison), not the integer `gpus` of an instance. Its refusal lists the valid ids, and a
// calculator offers the catalog for it.
inline bool names_gpus(parameter const& p)
{
    return p.type != value_type::integer && (p.name == "gpu" || p.name == "gpus" || p.name == "other_gpu");
}

// The arguments of one call, checked against the operation's parameters and kept as the decimal
// text the pricing/ parse functions take, so both faces validate alike. Lists are joined with
// commas (the HTTP form); list_form() says how the client wrote them, for messages.
class arguments {
public:
    enum class face { http, mcp };

    // From a query string's parameters (already decoded, no repeats) and the route's path values.
    // Refuses names the operation does not take and over-long values.
    static pricing::outcome<arguments, failure>
    from_query(std::span<const parameter> params, std::map<std::string, std::string, std::less<>> values);

    // From MCP tool arguments (null: none). Also refuses a value whose JSON type differs from the
    // parameter's ("5" for an integer, 5 for a string): schemas are followed strictly.
    static pricing::outcome<arguments, failure>
    from_json(std::span<const parameter> params, boost::json::object const* args);

    // Query-string numbers are read as the same JSON numbers are, so that both faces accept and
    // refuse the same numbers: the zeros that end a fraction go, and the point with them when no
    // digit is left ("8.0" is the integer 8, "1.0000000" is 1, as 8.0 and 1.0000000 are over MCP).
    // `decimal_comma` (a call made in French, which writes "1,5" for 1.5): a number's one comma
    // between digits, with no point, is its decimal point first (JSON numbers have no comma).
    void read_query_numbers(std::span<const parameter> params, bool decimal_comma);

    std::optional<std::string> take(std::string_view name);
    bool has(std::string_view name) const { return values_.contains(name); }
    bool empty() const { return values_.empty(); }
    face from() const { return from_; }

private:
    std::map<std::string, std::string, std::less<>> values_;
    face from_ = face::http;
};

// "a, b, c": the names of `params`, for "accepted: …" messages.
std::string parameter_names(std::span<const parameter> params);

}
