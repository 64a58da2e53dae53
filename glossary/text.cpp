#include "glossary/text.hpp"

#include "locale/folding.hpp"

#include <algorithm>
#include <array>
#include <numeric>

namespace lcg::glossary {

using locale::decode_utf8;
using locale::fold;

namespace {

bool is_ascii_alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

bool is_upper(char32_t cp)
{
    return (cp >= 'A' && cp <= 'Z') || (cp >= 0x00C0 && cp <= 0x00DE && cp != 0x00D7) || cp == 0x0152;
}

// Past the white space at `i` (a space, a tab or a no-break space), or `i` when there is none.
std::size_t skip_space(std::string_view s, std::size_t i)
{
    while (i < s.size()) {
        auto const [cp, next] = decode_utf8(s, i);
        if (cp != ' ' && cp != '\t' && cp != 0x00A0 && cp != 0x202F)
            break;
        i = next;
    }
    return i;
}

// Terminators and the closing marks that may follow one: . ! ? … and " ) ] » ” ’.
bool is_terminator(char32_t cp) { return cp == '.' || cp == '!' || cp == '?' || cp == 0x2026; }
bool is_closer(char32_t cp) { return cp == '"' || cp == ')' || cp == ']' || cp == 0x00BB || cp == 0x201D || cp == 0x2019; }
bool is_opener(char32_t cp) { return cp == '"' || cp == '(' || cp == 0x00AB || cp == 0x201C; }

// "e.g." and the like: the word that ends at `dot` (the '.' itself excluded).
bool ends_abbreviation(std::string_view text, std::size_t dot)
{
    static constexpr std::string_view abbreviations[] = {"e.g", "i.e", "vs", "cf", "approx"};
    std::size_t start = dot;
    while (start > 0 && text[start - 1] != ' ' && text[start - 1] != '(')
        --start;
    std::string const word = fold(text.substr(start, dot - start));
    return std::find(std::begin(abbreviations), std::end(abbreviations), word) != std::end(abbreviations);
}

}

std::vector<std::string> words(std::string_view utf8)
{
    std::vector<std::string> out;
    std::string current;
    for (char c : fold(utf8)) {
        if (is_ascii_alnum(c)) {
            current += c;
        } else if (!current.empty()) {
            out.push_back(std::move(current));
            current.clear();
        }
    }
    if (!current.empty())
        out.push_back(std::move(current));
    return out;
}

std::vector<std::string_view> split_sentences(std::string_view text)
{
    std::vector<std::string_view> out;
    std::size_t begin = 0;
    std::size_t i = 0;
    auto const emit = [&](std::size_t end) {
        if (auto const s = trim(text.substr(begin, end - begin)); !s.empty())
            out.push_back(s);
        begin = end;
    };
    while (i < text.size()) {
        std::size_t const at = i;
        auto const [cp, after] = decode_utf8(text, i);
        i = after;
        if (!is_terminator(cp))
            continue;
        // Swallow a run of terminators ("?!", "...") and the closing marks after it.
        std::size_t end = i;
        while (end < text.size()) {
            auto const [mark, past] = decode_utf8(text, end);
            if (!is_terminator(mark) && !is_closer(mark))
                break;
            end = past;
        }
        i = end;
        if (end == text.size()) {
            emit(end);
            break;
        }
        std::size_t const k = skip_space(text, end);
        if (k == end)
            continue;  // "1.5", "$0.840", "x.y"
        if (k == text.size())
            continue;
        char32_t const first = decode_utf8(text, k).cp;
        bool const starts_sentence = is_upper(first) || (first >= '0' && first <= '9') || is_opener(first);
        if (!starts_sentence || (cp == '.' && ends_abbreviation(text, at)))
            continue;
        emit(end);
    }
    if (begin < text.size())
        emit(text.size());
    return out;
}

std::size_t edit_distance(std::string_view a, std::string_view b)
{
    std::vector<std::size_t> row(b.size() + 1);
    std::iota(row.begin(), row.end(), std::size_t{0});
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            std::size_t const above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

std::string_view trim(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    return s;
}

}
