#include "glossary/text.hpp"

#include <algorithm>
#include <array>
#include <numeric>

namespace lcg::glossary {

namespace {

constexpr char32_t invalid_code_point = 0xFFFD;

struct decoded {
    char32_t cp;
    std::size_t next;  // the index just past it
};

// The code point at `i`. A malformed byte decodes to U+FFFD and is one byte long, so the caller
// can copy it through unchanged and go on.
decoded decode(std::string_view s, std::size_t i)
{
    auto const byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    unsigned char const b0 = byte(i);
    std::size_t length = 0;
    char32_t cp = 0;
    if (b0 < 0x80)
        return {b0, i + 1};
    if ((b0 & 0xE0) == 0xC0) {
        length = 2;
        cp = b0 & 0x1Fu;
    } else if ((b0 & 0xF0) == 0xE0) {
        length = 3;
        cp = b0 & 0x0Fu;
    } else if ((b0 & 0xF8) == 0xF0) {
        length = 4;
        cp = b0 & 0x07u;
    } else {
        return {invalid_code_point, i + 1};
    }
    if (i + length > s.size())
        return {invalid_code_point, i + 1};
    for (std::size_t k = 1; k < length; ++k) {
        if ((byte(i + k) & 0xC0) != 0x80)
            return {invalid_code_point, i + 1};
        cp = (cp << 6) | (byte(i + k) & 0x3Fu);
    }
    return {cp, i + length};
}

struct fold_range {
    char32_t first;
    char32_t last;
    std::string_view to;
};

// Latin-1 Supplement and Latin Extended-A letters, each range folding to one ASCII spelling.
constexpr std::array<fold_range, 58> fold_ranges{{
    {0x00C0, 0x00C5, "a"}, {0x00C6, 0x00C6, "ae"}, {0x00C7, 0x00C7, "c"},  {0x00C8, 0x00CB, "e"},
    {0x00CC, 0x00CF, "i"}, {0x00D0, 0x00D0, "d"},  {0x00D1, 0x00D1, "n"},  {0x00D2, 0x00D6, "o"},
    {0x00D8, 0x00D8, "o"}, {0x00D9, 0x00DC, "u"},  {0x00DD, 0x00DD, "y"},  {0x00DE, 0x00DE, "th"},
    {0x00DF, 0x00DF, "ss"}, {0x00E0, 0x00E5, "a"}, {0x00E6, 0x00E6, "ae"}, {0x00E7, 0x00E7, "c"},
    {0x00E8, 0x00EB, "e"}, {0x00EC, 0x00EF, "i"},  {0x00F0, 0x00F0, "d"},  {0x00F1, 0x00F1, "n"},
    {0x00F2, 0x00F6, "o"}, {0x00F8, 0x00F8, "o"},  {0x00F9, 0x00FC, "u"},  {0x00FD, 0x00FD, "y"},
    {0x00FE, 0x00FE, "th"}, {0x00FF, 0x00FF, "y"}, {0x0100, 0x0105, "a"},  {0x0106, 0x010D, "c"},
    {0x010E, 0x0111, "d"}, {0x0112, 0x011B, "e"},  {0x011C, 0x0123, "g"},  {0x0124, 0x0127, "h"},
    {0x0128, 0x0131, "i"}, {0x0132, 0x0133, "ij"}, {0x0134, 0x0135, "j"},  {0x0136, 0x0138, "k"},
    {0x0139, 0x0142, "l"}, {0x0143, 0x014B, "n"},  {0x014C, 0x0151, "o"},  {0x0152, 0x0153, "oe"},
    {0x0154, 0x0159, "r"}, {0x015A, 0x0161, "s"},  {0x0162, 0x0167, "t"},  {0x0168, 0x0173, "u"},
    {0x0174, 0x0175, "w"}, {0x0176, 0x0178, "y"},  {0x0179, 0x017E, "z"},  {0x017F, 0x017F, "s"},
    // Typography that people do not type: apostrophes, quotes, no-break spaces and hyphens.
    {0x00A0, 0x00A0, " "}, {0x2007, 0x2007, " "}, {0x202F, 0x202F, " "}, {0x2010, 0x2011, "-"},
    {0x2018, 0x2019, "'"}, {0x201C, 0x201D, "\""}, {0x00AB, 0x00AB, "\""}, {0x00BB, 0x00BB, "\""},
    {0x2013, 0x2014, "-"}, {0x2026, 0x2026, "..."},
}};

std::string_view folded(char32_t cp)
{
    for (auto const& r : fold_ranges)
        if (cp >= r.first && cp <= r.last)
            return r.to;
    return {};
}

bool is_ascii_alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

bool is_upper(char32_t cp)
{
    return (cp >= 'A' && cp <= 'Z') || (cp >= 0x00C0 && cp <= 0x00DE && cp != 0x00D7) || cp == 0x0152;
}

// Past the white space at `i` (a space, a tab or a no-break space), or `i` when there is none.
std::size_t skip_space(std::string_view s, std::size_t i)
{
    while (i < s.size()) {
        auto const [cp, next] = decode(s, i);
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

std::string fold(std::string_view utf8)
{
    std::string out;
    out.reserve(utf8.size());
    std::size_t i = 0;
    while (i < utf8.size()) {
        std::size_t const start = i;
        auto const [cp, next] = decode(utf8, i);
        i = next;
        if (cp < 0x80) {
            char const c = static_cast<char>(cp);
            out += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
        } else if (auto const to = folded(cp); !to.empty()) {
            out += to;
        } else {
            out.append(utf8.substr(start, i - start));
        }
    }
    return out;
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
        auto const [cp, after] = decode(text, i);
        i = after;
        if (!is_terminator(cp))
            continue;
        // Swallow a run of terminators ("?!", "...") and the closing marks after it.
        std::size_t end = i;
        while (end < text.size()) {
            auto const [mark, past] = decode(text, end);
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
        char32_t const first = decode(text, k).cp;
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
