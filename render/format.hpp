#pragma once

#include "render/language.hpp"

#include <array>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

// The formats one resource is written in, and how a URL names them: a suffix on the last path
// segment ("/v1/prices.md"), the root's being "/index.md". The same JSON document is the source of
// every format, so the numbers never differ between them.
namespace lcg::render {

enum class format : std::uint8_t { json, markdown, html, csv, text };

// In the server's order of preference, which breaks ties between equally acceptable formats.
inline constexpr std::array<format, 5> all_formats{format::json, format::markdown, format::html, format::csv,
                                                   format::text};

std::string_view media_type(format f);    // "application/json", "text/markdown", "text/html", "text/csv", "text/plain"
std::string_view content_type(format f);  // the media type with its parameters ("text/markdown; charset=utf-8")
std::string_view extension(format f);     // "json", "md", "html", "csv", "txt"
std::string_view display_name(format f);  // "JSON", "Markdown", "HTML", "CSV", "text"

// A small set of formats, in all_formats order when iterated.
class format_set {
public:
    constexpr format_set() = default;
    constexpr format_set(std::initializer_list<format> formats)
    {
        for (auto f : formats)
            bits_ = static_cast<std::uint8_t>(bits_ | bit(f));
    }
    constexpr bool contains(format f) const { return (bits_ & bit(f)) != 0; }
    constexpr bool empty() const { return bits_ == 0; }
    constexpr bool operator==(format_set const&) const = default;

    template <class F>
    void for_each(F&& fn) const
    {
        for (auto f : all_formats)
            if (contains(f))
                fn(f);
    }

private:
    static constexpr std::uint8_t bit(format f) { return static_cast<std::uint8_t>(1u << static_cast<unsigned>(f)); }
    std::uint8_t bits_ = 0;
};

// The formats of the resources the API serves.
inline constexpr format_set document_formats{format::json, format::markdown, format::html};
inline constexpr format_set table_formats{format::json, format::markdown, format::html, format::csv};
inline constexpr format_set json_only{format::json};
inline constexpr format_set text_only{format::text};

// The URL of `path` in format `f`, `query` ("?lang=fr" or empty) kept: url_in("/v1/prices",
// markdown) is "/v1/prices.md", url_in("/", html) is "/index.html". JSON and text name the path
// itself: their URL has no suffix.
std::string url_in(std::string_view path, format f, std::string_view query = {});

// The suffixed URL of `path` in `f`, even for JSON ("/v1/prices.json"): the link to one format.
std::string suffixed_url(std::string_view path, format f, std::string_view query = {});

// The inverse of suffixed_url for a path without query: "/v1/prices.md" → {"/v1/prices", markdown},
// "/index.html" → {"/", html}. Recognises .json, .md, .html and .csv on the last segment; nothing
// for any other path.
std::optional<std::pair<std::string, format>> split_suffix(std::string_view path);

// How the Markdown of a page links to other pages: to their Markdown when it is served as
// Markdown, to their HTML when it is rendered into an HTML page, and in the page's language. Its
// language is also the one the page is written in. A French page's links ask for French; an HTML
// page's links always name their language, so that a reader who chose one keeps it from page to
// page whatever the browser's Accept-Language; an English Markdown page's links name none.
struct links {
    format target = format::markdown;
    language lang = language::en;
    std::string operator()(std::string_view path, std::string_view query = {}) const
    {
        return suffixed_url(path, target, language_query(query, lang, target == format::html));
    }
};

}
