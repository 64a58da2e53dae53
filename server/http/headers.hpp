#pragma once

#include "server/http/router.hpp"

#include "locale/language.hpp"

#include <boost/beast/core/string.hpp>

#include <optional>
#include <string_view>
#include <vector>

// Reading request headers, once for every list-valued one: the element splitter, q-values, and
// the language negotiation of Accept-Language. Every other file reads lists through these.
namespace lcg::http {

using boost::beast::iequals;  // header names, tokens and media types compare without case

// `text` without the optional white space (spaces and tabs) around it.
std::string_view trim_whitespace(std::string_view text);

// The elements of a comma-separated list (RFC 9110 §5.6.1), each trimmed, empty ones skipped:
// "a, ,b" gives "a" and "b". The one splitter of header lists (and of the comma-separated flags).
std::vector<std::string_view> list_items(std::string_view list);

// Whether `item` is an element of `list` ("GET, HEAD" has "HEAD"), without building the list: it
// is asked on every request.
bool list_has(std::string_view list, std::string_view item);

// The elements of every field named `name` in `req`, in order, as if the fields were one list.
std::vector<std::string_view> list_items(request const& req, beast_http::field name);
std::vector<std::string_view> list_items(request const& req, std::string_view name);

// A q-value (RFC 9110 §12.4.2) in thousandths: "1", "0.5", "0.125"; nothing when malformed.
std::optional<int> parse_qvalue(std::string_view text);

// One element of a weighted list (Accept, Accept-Encoding, Accept-Language): its value before any
// ';', and its q in thousandths (1000 when not given).
struct weighted_item {
    std::string_view value;
    int q = 1000;
};

// The elements of a weighted list; those with a malformed q-value or an empty value are dropped.
std::vector<weighted_item> weighted_items(std::string_view list);

// The language to answer in for an Accept-Language header (RFC 9110 §12.5.4): the range with the
// highest q-value whose primary subtag is "fr" or "en" wins, the earlier one on a tie; "*" stands
// for English; q=0 excludes a range. English when nothing matches or the header is empty.
locale::language negotiate_language(std::string_view accept_language);

// The fields an answer is negotiated with: Accept, Accept-Encoding and Accept-Language.
inline constexpr beast_http::field negotiation_fields[] = {
    beast_http::field::accept, beast_http::field::accept_encoding, beast_http::field::accept_language};

// The negotiation fields sent on several lines become one line each, their values joined by ", "
// in order, as RFC 9110 §5.3 allows: every reader of them (the router, the MCP handler, the stored
// answers' key) reads one line and so reads all that was sent. A joined value is no longer than
// the header block, which header_limit keeps far below the 64 KiB a Beast field can hold.
void join_negotiation_lines(request& req);

// A target in absolute-form ("http://host:8080/v1/prices?x=1", RFC 9112 §3.2.2), which a server must
// accept, becomes the origin-form it names ("/v1/prices?x=1"), and its authority (without userinfo)
// replaces Host, as the RFC asks. Any other target is left as it is.
void to_origin_form(request& req);

}
