#pragma once

#include "pricing/outcome.hpp"

#include "pricing/utf8.hpp"

#include <boost/json/value.hpp>

#include <string>
#include <string_view>
#include <utility>
#include <variant>

// JSON-RPC errors: the codes this server answers with, an error to answer with, and the one
// envelope that carries it, which every transport writes (the core, stdio and HTTP alike).
namespace lcg::mcp {

// The JSON-RPC error codes this server answers with (JSON-RPC 2.0, MCP 2025-06-18 and 2026-07-28).
enum class error_code : int {
    parse_error = -32700,
    invalid_request = -32600,
    method_not_found = -32601,
    invalid_params = -32602,
    internal_error = -32603,
    resource_not_found = -32002,
    header_mismatch = -32020,
    rate_limited = -32000,  // a server error of JSON-RPC's implementation-defined range
    unsupported_protocol_version = -32022,
};

// A JSON-RPC error to answer with: the code, a one-sentence client-visible message, optional data.
struct failure {
    error_code code = error_code::internal_error;
    std::string message;
    boost::json::value data = nullptr;  // null: no "data" member
};

// {"jsonrpc":"2.0","id":…,"error":{"code":…,"message":…,"data":…}}, without "data" when the
// failure has none. `id` is the request's, or null when it could not be read.
std::string error_response(boost::json::value const& id, failure const& f);

inline failure invalid_params(std::string message) { return {error_code::invalid_params, std::move(message)}; }

// What every transport answers a message larger than max_message_bytes with, unread.
inline failure too_large() { return {error_code::invalid_request, "the message is larger than 1 MiB"}; }

// What a message quotes of a client's text: its first 64 bytes, cut between characters, with bytes
// that are not UTF-8 %-encoded (a header's value or Mcp-Name's Base64 can hold any byte; JSON cannot).
inline std::string limited(std::string_view text) { return pricing::as_written(pricing::utf8_prefix(text, 64)); }

// A result object or the error that replaces it (the code base's one result type).
template <class T>
using result_or_failure = pricing::outcome<T, failure>;

}
