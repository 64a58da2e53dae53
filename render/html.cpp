#include "render/html.hpp"
#include "render/resources.hpp"

#include <md4c-html.h>

#include <stdexcept>

namespace lcg::render {

namespace {

constexpr std::string_view stylesheet =
    ":root{color-scheme:light dark;--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--head:#f6f8fa;--link:#0969da}"
    "@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#9198a1;--line:#3d444d;--head:#151b23;"
    "--link:#4493f8}}"
    "body{margin:0;font:16px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:var(--fg)}"
    "header,main,footer{max-width:75rem;margin:0 auto;padding:0 1rem}"
    "header{padding-top:.75rem;padding-bottom:.75rem;border-bottom:1px solid var(--line)}"
    // The navigation's links wrap onto more lines on a narrow screen rather than widen the page.
    "nav{display:flex;flex-wrap:wrap;gap:.25rem 1rem}a{color:var(--link)}"
    "h1{font-size:1.7rem;margin:1.25rem 0 .75rem}h2{margin-top:2rem}"
    ".table{overflow-x:auto;margin:1rem 0}"
    "table{border-collapse:collapse;font-variant-numeric:tabular-nums}"
    "th,td{border:1px solid var(--line);padding:.3rem .6rem;vertical-align:top}"
    "th{background:var(--head);text-align:left}td[align=right],th[align=right]{white-space:nowrap}"
    "td:first-child{min-width:9rem}"
    // A rounded figure links to its exact value (md::amount): marked like an abbreviation, not a link.
    "td[align=right] a[title]{color:inherit;text-decoration:underline dotted}"
    "pre{overflow-x:auto;padding:.75rem;background:var(--head)}code{font-size:.9em}"
    // A long inline value (a client configuration, a hash) breaks rather than widen a narrow screen.
    "p code,li code{overflow-wrap:anywhere}svg,img{max-width:100%;height:auto}"
    "form.calculator{margin:1rem 0;padding:.75rem 1rem;border:1px solid var(--line);background:var(--head);"
    "display:grid;grid-template-columns:repeat(auto-fill,minmax(17rem,1fr));gap:.5rem 1.5rem}"
    "form.calculator p{margin:0}form.calculator p:last-child{grid-column:1/-1}"
    "form.calculator input,form.calculator select{width:100%;box-sizing:border-box}"
    "form.calculator small,.problem small{color:var(--muted)}input,select,button{font:inherit}"
    ".problem{margin:1rem 0;padding:.5rem 1rem;border:2px solid #cf222e}"
    // The only blockquote of the pages: the synthetic sample data banner.
    "blockquote{margin:1rem 0;padding:.5rem 1rem;border-left:.3rem solid #bf8700;background:var(--head)}"
    "blockquote p{margin:0}"
    "footer{margin-top:2.5rem;padding-top:.75rem;padding-bottom:2rem;border-top:1px solid var(--line);"
    "color:var(--muted)}";

void append(MD_CHAR const* text, MD_SIZE size, void* out) { static_cast<std::string*>(out)->append(text, size); }

// The Atom feed of new sheets in the page's language: every page names it in its head (for feed
// readers) and links it in its footer (for people).
std::string feed_url(language lang) { return path_of(resource::sheets_feed) + language_query("", lang); }

// The title of a page: its first level-1 heading without Markdown's escapes and links.
std::string title_of(std::string_view markdown)
{
    std::string_view line = markdown.substr(0, markdown.find('\n'));
    if (!line.starts_with("# "))
        return "LowCostGPU";
    line.remove_prefix(2);
    std::string out;
    for (std::size_t i = 0; i < line.size(); ++i) {
        char const c = line[i];
        if (c == '\\' && i + 1 < line.size()) {
            out += line[++i];
        } else if (c == '[' || c == ']' || c == '*') {
            continue;
        } else if (c == '(' && i > 0 && line[i - 1] == ']') {
            i = line.find(')', i);  // drop a link's destination
            if (i == std::string_view::npos)
                break;
        } else {
            out += c;
        }
    }
    return out + " · LowCostGPU";
}

// The bar on top of every page: the main pages in the page's language, and the same page in the
// other language (its query kept, its lang replaced).
std::string navigation(page const& where)
{
    auto const lang = where.lang;
    auto const link = [&](std::string_view path, std::string_view key) {
        return "<a href=\"" + html_escape(suffixed_url(path, format::html, language_query("", lang, true))) + "\">" +
               html_escape(say(lang, key)) + "</a>";
    };
    std::string out = "<nav><a href=\"" + html_escape(suffixed_url("/", format::html, language_query("", lang, true))) +
                      "\"><strong>LowCostGPU</strong></a>";
    out += link(path_of(resource::prices), "nav.prices") + link(path_of(resource::gpus), "nav.catalog") + link(path_of(resource::glossary), "nav.glossary") +
           link(path_of(resource::methodology), "nav.methodology") + link(path_of(resource::sheets), "nav.history");
    out += "<a href=\"/openapi.json\">API</a>";
    auto const other = lang == language::fr ? language::en : language::fr;
    std::string const same_page =
        suffixed_url(where.path, format::html, language_query(without_language(where.query), other, true));
    out += "<a href=\"" + html_escape(same_page) + "\" hreflang=\"" + std::string(locale::to_string(other)) +
           "\" lang=\"" + std::string(locale::to_string(other)) + "\">" + html_escape(say(lang, "other_language")) +
           "</a></nav>";
    return out;
}

// md4c writes bare <table> elements: each goes into a wrapper that scrolls on narrow screens.
std::string wrap_tables(std::string const& html)
{
    std::string out;
    out.reserve(html.size() + 256);
    std::size_t start = 0;
    while (true) {
        auto const open = html.find("<table>", start);
        if (open == std::string::npos)
            break;
        auto const close = html.find("</table>", open);
        if (close == std::string::npos)
            break;
        out.append(html, start, open - start);
        out += "<div class=\"table\">";
        out.append(html, open, close + 8 - open);
        out += "</div>";
        start = close + 8;
    }
    out.append(html, start);
    return out;
}

}

std::size_t xml_forbidden_length(std::string_view text, std::size_t at)
{
    auto const byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
    unsigned char const c = byte(at);
    if (c < 0x20)
        return c == '\t' || c == '\n' || c == '\r' ? 0 : 1;
    // U+FFFE and U+FFFF are EF BF BE and EF BF BF.
    bool const nonchar = c == 0xEF && at + 2 < text.size() && byte(at + 1) == 0xBF && (byte(at + 2) | 1) == 0xBF;
    return nonchar ? 3 : 0;
}

std::string html_escape(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (auto const n = xml_forbidden_length(text, i)) {
            i += n - 1;
            continue;
        }
        switch (text[i]) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        default: out += text[i];
        }
    }
    return out;
}

namespace {

// JSON in a <script> data block: "<" written as \u003c (it occurs only inside strings), so that no
// "</script" or "<!--" in the data can end the block.
std::string data_block(std::string_view json)
{
    if (json.empty())
        return {};
    std::string out = "<script type=\"application/ld+json\">";
    for (char c : json)
        out += c == '<' ? std::string("\\u003c") : std::string(1, c);
    return out + "</script>\n";
}

}

std::string html_page(std::string_view markdown, page const& where)
{
    std::string body;
    body.reserve(markdown.size() * 2);
    if (md_html(markdown.data(), static_cast<MD_SIZE>(markdown.size()), append, &body, MD_FLAG_TABLES | MD_FLAG_NOHTML,
                0) != 0)
        throw std::runtime_error("md4c could not render a page");

    std::string out = "<!DOCTYPE html>\n<html lang=\"" + std::string(locale::to_string(where.lang)) +
                      "\">\n<head>\n<meta charset=\"utf-8\">\n"
                      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>" +
                      html_escape(title_of(markdown)) + "</title>\n" + data_block(where.linked_data) + "<link rel=\"alternate\" type=\"application/atom+xml\" "
                      "title=\"" + html_escape(say(where.lang, "feed.title")) + "\" href=\"" + html_escape(feed_url(where.lang)) +
                      "\">\n<style>" + std::string(stylesheet) +
                      "</style>\n</head>\n<body>\n<header>" + navigation(where) + "</header>\n<main>\n";
    if (!where.form.empty()) {
        // After the title, before the result.
        std::size_t at = body.find("</h1>");
        at = at == std::string::npos ? 0 : at + 5;
        if (at < body.size() && body[at] == '\n')
            ++at;
        body.insert(at, where.form);
    }
    out += wrap_tables(body);
    out += "</main>\n<footer>";
    std::string others;
    where.formats.for_each([&](format f) {
        if (f == format::html)
            return;
        others += others.empty() ? "" : " · ";
        others += "<a href=\"" + html_escape(suffixed_url(where.path, f, where.query)) + "\" type=\"" +
                  std::string(media_type(f)) + "\">" + std::string(display_name(f)) + "</a>";
    });
    if (!others.empty())
        out += say(where.lang, "page.formats", {{"formats", others}}) + " ";
    out += html_escape(say(where.lang, "page.footer")) + " <a href=\"" + html_escape(feed_url(where.lang)) +
           "\" type=\"application/atom+xml\">" + html_escape(say(where.lang, "page.feed")) + "</a>" +
           "</footer>\n</body>\n</html>\n";
    return out;
}

}
