#include "render/format.hpp"

namespace lcg::render {

std::string_view media_type(format f)
{
    switch (f) {
    case format::json: return "application/json";
    case format::markdown: return "text/markdown";
    case format::html: return "text/html";
    case format::csv: return "text/csv";
    case format::text: return "text/plain";
    }
    return "application/octet-stream";
}

std::string_view content_type(format f)
{
    switch (f) {
    case format::json: return "application/json";
    case format::markdown: return "text/markdown; charset=utf-8";
    case format::html: return "text/html; charset=utf-8";
    case format::csv: return "text/csv; charset=utf-8; header=present";
    case format::text: return "text/plain; charset=utf-8";
    }
    return "application/octet-stream";
}

std::string_view extension(format f)
{
    switch (f) {
    case format::json: return "json";
    case format::markdown: return "md";
    case format::html: return "html";
    case format::csv: return "csv";
    case format::text: return "txt";
    }
    return "";
}

std::string_view display_name(format f)
{
    switch (f) {
    case format::json: return "JSON";
    case format::markdown: return "Markdown";
    case format::html: return "HTML";
    case format::csv: return "CSV";
    case format::text: return "text";
    }
    return "";
}

std::string suffixed_url(std::string_view path, format f, std::string_view query)
{
    std::string url(path);
    if (url == "/")
        url += "index";
    url += '.';
    url += extension(f);
    url += query;
    return url;
}

std::string url_in(std::string_view path, format f, std::string_view query)
{
    if (f == format::json || f == format::text) {
        std::string url(path);
        url += query;
        return url;
    }
    return suffixed_url(path, f, query);
}

std::optional<std::pair<std::string, format>> split_suffix(std::string_view path)
{
    auto const slash = path.rfind('/');
    auto const dot = path.rfind('.');
    if (slash == std::string_view::npos || dot == std::string_view::npos || dot < slash || dot == slash + 1)
        return std::nullopt;
    auto const ext = path.substr(dot + 1);
    for (auto f : {format::json, format::markdown, format::html, format::csv}) {
        if (ext != extension(f))
            continue;
        std::string base(path.substr(0, dot));
        if (base == "/index")
            base = "/";
        return std::pair{std::move(base), f};
    }
    return std::nullopt;
}

}
