#pragma once

#include "pricing/outcome.hpp"
#include "pricing/quantity.hpp"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lcg::http {

// Decodes %XX escapes (and '+' as a space in queries). Nothing for a broken escape or a NUL.
std::optional<std::string> percent_decode(std::string_view text, bool plus_is_space);

// The first "name=value" pair of `rest` (a query without its '?'), which loses it and its '&':
// the one place that splits a query string.
inline std::string_view next_query_pair(std::string_view& rest)
{
    auto const amp = rest.find('&');
    auto const pair = rest.substr(0, amp);
    rest = amp == std::string_view::npos ? std::string_view{} : rest.substr(amp + 1);
    return pair;
}

// `query` ("?a=b&c=d", or empty) with every name and value re-encoded: unreserved characters as
// they are, anything else %XX (',' too: it separates a Link header's values). What a response may
// echo of a client's query (the Link header, links in a page); a part that does not decode is dropped.
std::string reencoded_query(std::string_view query);

// The parameters of a query string. Handlers take() the ones they know; whatever remains is an
// unknown parameter, which the caller refuses so that a typo never passes silently.
class query_params {
public:
    // Refuses broken escapes, text that is not UTF-8 and repeated parameters, naming the parameter.
    static pricing::parsed<query_params> parse(std::string_view query);

    std::optional<std::string> take(std::string const& name);
    bool has(std::string const& name) const { return values_.contains(name); }
    // The first parameter nobody took, if any.
    std::optional<std::string> first_unknown() const;
    // Every parameter not taken yet, handed over whole (an operation checks them against its own).
    std::map<std::string, std::string, std::less<>> release() { return std::move(values_); }

private:
    std::map<std::string, std::string, std::less<>> values_;
};

}
