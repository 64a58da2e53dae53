#include "render/json_writer.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstring>
#include <stdexcept>

namespace lcg::render {

namespace {

// The bytes JSON requires escaped: quote, backslash and the control characters.
constexpr auto needs_escape = [] {
    std::array<bool, 256> table{};
    for (int c = 0; c < 0x20; ++c)
        table[static_cast<std::size_t>(c)] = true;
    table['"'] = true;
    table['\\'] = true;
    return table;
}();

// Whether none of 8 bytes needs escaping, tested at once (the "has a byte less than n" and "has a
// zero byte" bit tricks): most text has nothing to escape, and a byte at a time cost more than
// everything else in a document.
inline bool plain_word(std::uint64_t w, bool ascii_only)
{
    constexpr std::uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
    auto const has_zero = [](std::uint64_t v) { return (v - ones) & ~v & highs; };
    std::uint64_t const below_space = (w - ones * 0x20) & ~w & highs;
    std::uint64_t const above_ascii = ascii_only ? w & highs : 0;
    return (below_space | above_ascii | has_zero(w ^ (ones * '"')) | has_zero(w ^ (ones * '\\'))) == 0;
}

void append_escape(std::string& out, unsigned char c)
{
    static constexpr char hex[] = "0123456789abcdef";
    switch (c) {
    case '"': out += "\\\""; break;
    case '\\': out += "\\\\"; break;
    case '\b': out += "\\b"; break;
    case '\f': out += "\\f"; break;
    case '\n': out += "\\n"; break;
    case '\r': out += "\\r"; break;
    case '\t': out += "\\t"; break;
    default:
        out += "\\u00";
        out += hex[c >> 4];
        out += hex[c & 0xf];
    }
}

// Whether no byte of `text` needs escaping, tested 8 bytes at a time with fixed-size loads and
// no loop over bytes: the last word overlaps the one before it, text of 4 to 7 bytes is two
// overlapping halves, and shorter text is its first, middle and last bytes padded with a plain
// letter. A short key or figure costs one test and no call.
bool plain_text(std::string_view text, bool ascii_only)
{
    char const* const p = text.data();
    std::size_t const n = text.size();
    auto const load8 = [](char const* at) {
        std::uint64_t word;
        std::memcpy(&word, at, 8);
        return word;
    };
    auto const load4 = [](char const* at) {
        std::uint32_t half;
        std::memcpy(&half, at, 4);
        return static_cast<std::uint64_t>(half);
    };
    if (n >= 8) {
        for (std::size_t i = 0; i + 8 <= n; i += 8)
            if (!plain_word(load8(p + i), ascii_only))
                return false;
        return plain_word(load8(p + n - 8), ascii_only);
    }
    if (n >= 4)
        return plain_word(load4(p) | load4(p + n - 4) << 32, ascii_only);
    if (n == 0)
        return true;
    std::uint64_t word = 0x6161616161616100ULL;  // "aaaaaaa" above the low byte
    word |= static_cast<unsigned char>(p[0]);
    word = (word & ~0xff00ULL) | static_cast<std::uint64_t>(static_cast<unsigned char>(p[n / 2])) << 8;
    word = (word & ~0xff0000ULL) | static_cast<std::uint64_t>(static_cast<unsigned char>(p[n - 1])) << 16;
    return plain_word(word, ascii_only);
}

}

void append_json_string(std::string& out, std::string_view text, bool ascii_only)
{
    out += '"';
    // Plain characters are copied in runs; only quotes, backslashes and control bytes (and, when
    // asked, bytes above 0x7f) are escaped. A word of 8 plain bytes is passed over at once.
    std::size_t run = 0;
    std::size_t i = 0;
    while (i < text.size()) {
        if (i + 8 <= text.size() && plain_text(text.substr(i, 8), ascii_only)) {
            i += 8;
            continue;
        }
        if (auto const c = static_cast<unsigned char>(text[i]); needs_escape[c] || (ascii_only && c > 0x7f)) {
            out.append(text.data() + run, i - run);
            append_escape(out, c);
            run = i + 1;
        }
        ++i;
    }
    out.append(text.data() + run, text.size() - run);
    out += '"';
}

char* json_writer::room(std::size_t n)
{
    if (out_.size() - used_ < n)
        out_.resize(std::max(2 * out_.size(), used_ + n));
    char* const at = out_.data() + used_;
    used_ += n;
    return at;
}

void json_writer::raw(std::string_view bytes)
{
    if (!bytes.empty())
        std::memcpy(room(bytes.size()), bytes.data(), bytes.size());
}

// The quoted text, then `after` (":" after a key). Text with nothing to escape, nearly all of it,
// goes in with one copy: documents computed per request write hundreds of short strings, and
// their per-call cost was most of the rendering.
void json_writer::quoted(std::string_view text, std::string_view after)
{
    if (!plain_text(text, false)) {
        std::string escaped;
        append_json_string(escaped, text);
        raw(escaped);
        raw(after);
        return;
    }
    char* p = room(text.size() + 2 + after.size());
    *p++ = '"';
    std::memcpy(p, text.data(), text.size());
    p += text.size();
    *p++ = '"';
    if (!after.empty())
        std::memcpy(p, after.data(), after.size());
}

void json_writer::before_value()
{
    if (after_key_) {
        after_key_ = false;
        return;
    }
    if (!has_members_.empty()) {
        if (has_members_.back())
            *room(1) = ',';
        has_members_.back() = true;
    }
}

json_writer& json_writer::begin_object()
{
    before_value();
    *room(1) = '{';
    has_members_.push_back(false);
    return *this;
}

json_writer& json_writer::end_object()
{
    has_members_.pop_back();
    *room(1) = '}';
    return *this;
}

json_writer& json_writer::begin_array()
{
    before_value();
    *room(1) = '[';
    has_members_.push_back(false);
    return *this;
}

json_writer& json_writer::end_array()
{
    has_members_.pop_back();
    *room(1) = ']';
    return *this;
}

json_writer& json_writer::key(std::string_view name)
{
    before_value();
    quoted(name, ":");
    after_key_ = true;
    return *this;
}

json_writer& json_writer::string(std::string_view text)
{
    before_value();
    quoted(text, {});
    return *this;
}

json_writer& json_writer::number(std::int64_t n)
{
    before_value();
    char digits[24];
    auto const end = std::to_chars(digits, digits + sizeof digits, n).ptr;
    raw(std::string_view(digits, static_cast<std::size_t>(end - digits)));
    return *this;
}

json_writer& json_writer::boolean(bool b)
{
    before_value();
    raw(b ? "true" : "false");
    return *this;
}

json_writer& json_writer::null()
{
    before_value();
    raw("null");
    return *this;
}

std::string json_writer::text() &&
{
    if (!has_members_.empty() || after_key_)
        throw std::logic_error("json_writer: the document is not complete");
    *room(1) = '\n';
    out_.resize(used_);
    return std::move(out_);
}

json_writer& json_writer::resume(std::size_t depth)
{
    has_members_.assign(depth, true);
    return *this;
}

std::string json_writer::part() &&
{
    out_.resize(used_);
    // The buffer doubles as it grows, and a part is held for long (the archive's cache, a stream's
    // read-ahead), counted at its size: it gives back the room it did not use.
    out_.shrink_to_fit();
    return std::move(out_);
}

}
