#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace lcg::pricing {

// The few ways a pure computation can refuse its input. Transports map these to their own codes
// (HTTP status, JSON-RPC error, MCP tool error) in one table each.
enum class errc {
    invalid_argument,  // malformed or out-of-range input; the message says what is accepted
    not_found,         // a well-formed name that is not in the catalog, the sheet or the glossary
    unavailable,       // the data exists but cannot answer now (no sheet yet, an archive too slow)
    unpriced,          // a model the sheet lists without a price (too few listings): nothing to cost
                       // until a later sheet prices it, so not a condition to retry
};

// Why the input was refused, in the service's two languages: a client reads the one its request
// asked for. The French is written beside the English, so that neither drifts from the other; it
// is empty only for the messages an operator reads (imports, content files), which stay English.
struct error {
    errc code;
    std::string message;        // client-visible, English: names the input and what is accepted
    std::string message_fr{};   // the same in French
};

// A value or the reason there is none: the one result type of the code base. `E` is why: an
// `error` by default; a `parameter_error` for a parsed request (pricing::parsed); an API's refusal
// above pricing/. Kept to the standard library so pricing/ stays dependency-free.
template <class T, class E = error>
class outcome {
public:
    outcome(T value) : state_(std::move(value)) {}
    outcome(E e) : state_(std::move(e)) {}

    bool has_value() const noexcept { return state_.index() == 0; }
    explicit operator bool() const noexcept { return has_value(); }
    T const& value() const& { return std::get<0>(state_); }
    T& value() & { return std::get<0>(state_); }
    T&& value() && { return std::get<0>(std::move(state_)); }
    T const& operator*() const& { return value(); }
    T const* operator->() const { return &value(); }
    E const& err() const& { return std::get<1>(state_); }

private:
    std::variant<T, E> state_;
};

inline error invalid(std::string message, std::string message_fr = {})
{
    return {errc::invalid_argument, std::move(message), std::move(message_fr)};
}

// A decimal as a French message writes it: "0,001" (the input reads either form in French).
inline std::string french_decimal(std::string text)
{
    for (char& c : text)
        if (c == '.')
            c = ',';
    return text;
}

// 'text' in single quotes, for messages that echo a refused input. (Built by appending: GCC 12
// warns wrongly about "'" + std::string in optimised builds.)
inline std::string quote(std::string_view text)
{
    std::string out;
    out.reserve(text.size() + 2);
    out += '\'';
    out.append(text);
    out += '\'';
    return out;
}

}
