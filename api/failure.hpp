#pragma once

#include "pricing/outcome.hpp"
#include "pricing/quantity.hpp"

#include <string>
#include <vector>

namespace lcg::api {

// Why an operation refused: the condition (invalid_argument → HTTP 400, not_found → 404,
// unavailable → 503; an MCP tool error in every case), the parameter at fault when there is one, a
// client-visible message saying what is accepted, and the closest valid values of a near miss.
struct failure {
    pricing::errc code = pricing::errc::invalid_argument;
    std::string parameter;
    std::string message;
    std::vector<std::string> suggestions{};
};

inline failure refused(pricing::parameter_error const& e)
{
    return {e.cause.code, e.parameter, e.cause.message, e.suggestions};
}
inline failure refused(pricing::error const& e, std::string parameter) { return {e.code, std::move(parameter), e.message}; }
inline failure invalid_parameter(std::string parameter, std::string message)
{
    return {pricing::errc::invalid_argument, std::move(parameter), std::move(message)};
}

}
