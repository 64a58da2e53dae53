#pragma once

#include "render/format.hpp"

#include <cstddef>
#include <string>
#include <string_view>

namespace lcg::render {

// Where an HTML page sits, for its links to the other formats of the same resource.
struct page {
    std::string path;   // the resource, without suffix or query: "/v1/prices"
    std::string query;  // kept on the links to the other formats: "?lang=fr" or empty
    format_set formats;
    language lang = language::en;  // the page's language, which its navigation keeps
    std::string form{};  // HTML of a calculator (render/calculator.hpp), put after the page's title
    std::string linked_data{};  // JSON-LD (schema.org) put in <head> as a data block, which no browser runs
};

// A complete HTML page from Markdown (rendered by md4c, raw HTML in the Markdown disabled): a title
// taken from the first "# " heading, a short inline stylesheet, tables inside a scrolling wrapper
// for narrow screens, a navigation bar in the page's language with a link to the same page in the
// other language, the calculator form when `where` has one, and links to the resource's other
// formats. No script.
std::string html_page(std::string_view markdown, page const& where);

// What every HTML page may load: its own inline stylesheet and nothing else; it may not be framed.
// Its forms (the calculators, plain GET) submit to this origin only.
inline constexpr std::string_view html_content_security_policy =
    "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'";

// The length in bytes of a character XML 1.0 forbids at `at` in UTF-8 `text` (a C0 control but tab,
// line feed and carriage return; U+FFFE or U+FFFF), or 0. Such a character, in a name from an
// upstream, would make an SVG chart or the Atom feed ill-formed: the escapes drop it.
std::size_t xml_forbidden_length(std::string_view text, std::size_t at);

// `text` with &, <, >, " escaped and what XML forbids dropped. Used by HTML, SVG and Atom alike.
std::string html_escape(std::string_view text);

}
