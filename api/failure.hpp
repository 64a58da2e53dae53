#pragma once

#include "locale/language.hpp"

#include "pricing/outcome.hpp"
#include "pricing/quantity.hpp"

#include <string>
#include <vector>

namespace lcg::api {

// Why an operation refused: the condition (invalid_argument → HTTP 400, not_found → 404, unpriced
// → 409, unavailable → 503; an MCP tool error in every case), the parameter at fault when there is one, a
// client-visible message saying what is accepted (in English and in French: the client reads the
// language its request asked for), and the closest valid values of a near miss.
struct failure {
    pricing::errc code = pricing::errc::invalid_argument;
    std::string parameter;
    std::string message;
    std::vector<std::string> suggestions{};
    std::string message_fr{};

    // The message in `lang`.
    std::string const& in(locale::language lang) const
    {
        return lang == locale::language::fr && !message_fr.empty() ? message_fr : message;
    }
};

inline failure refused(pricing::parameter_error const& e)
{
    return {e.cause.code, e.parameter, e.cause.message, e.suggestions, e.cause.message_fr};
}
inline failure refused(pricing::error const& e, std::string parameter)
{
    return {e.code, std::move(parameter), e.message, {}, e.message_fr};
}
inline failure invalid_parameter(std::string parameter, std::string message, std::string message_fr)
{
    return {pricing::errc::invalid_argument, std::move(parameter), std::move(message), {}, std::move(message_fr)};
}

}
