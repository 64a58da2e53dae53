#pragma once

#include "mcp/server.hpp"

#include "pricing/utf8.hpp"

#include <boost/json/value.hpp>

#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace lcg::mcp {

// A JSON-RPC error to answer with: the code, a one-sentence client-visible message, optional data.
struct failure {
    error_code code = error_code::internal_error;
    std::string message;
    boost::json::value data = nullptr;  // null: no "data" member
};

inline failure invalid_params(std::string message) { return {error_code::invalid_params, std::move(message)}; }

// What a message quotes of a client's text: its first 64 bytes, cut between characters.
inline std::string limited(std::string_view text) { return std::string(pricing::utf8_prefix(text, 64)); }

// A result object or the error that replaces it.
template <class T>
using result_or_failure = std::variant<T, failure>;

}
