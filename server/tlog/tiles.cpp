#include "server/tlog/tiles.hpp"

#include <algorithm>
#include <charconv>

namespace lcg::tlog {

namespace {

constexpr unsigned max_level = 63;

// A decimal without leading zeros (or "0"), at most `max`.
std::optional<std::uint64_t> plain_number(std::string_view s, std::uint64_t max)
{
    std::uint64_t v = 0;
    if (s.empty() || (s.size() > 1 && s.front() == '0'))
        return std::nullopt;
    auto const [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || v > max)
        return std::nullopt;
    return v;
}

bool three_digits(std::string_view s)
{
    return s.size() == 3 && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// "x001/x234/067" → 1234067.
std::optional<std::uint64_t> tile_index(std::string_view s)
{
    std::uint64_t v = 0;
    while (true) {
        auto const slash = s.find('/');
        auto const group = s.substr(0, slash);
        bool const last = slash == std::string_view::npos;
        auto const digits = last ? group : (group.starts_with('x') ? group.substr(1) : std::string_view());
        if (!three_digits(digits) || v > (UINT64_MAX - 999) / 1000)
            return std::nullopt;
        v = v * 1000 + static_cast<std::uint64_t>((digits[0] - '0') * 100 + (digits[1] - '0') * 10 + (digits[2] - '0'));
        if (last)
            return v;
        s.remove_prefix(slash + 1);
    }
}

std::string index_path(std::uint64_t n)
{
    std::string out;
    auto group = [](std::uint64_t g) {
        std::string s = std::to_string(g);
        return std::string(3 - s.size(), '0') + s;
    };
    std::vector<std::uint64_t> groups{n % 1000};
    for (n /= 1000; n > 0; n /= 1000)
        groups.push_back(n % 1000);
    for (auto it = groups.rbegin(); it != groups.rend(); ++it)
        out += (it + 1 == groups.rend() ? "" : "x") + group(*it) + (it + 1 == groups.rend() ? "" : "/");
    return out;
}

}

std::optional<tile_address> parse_tile_path(std::string_view path)
{
    std::string_view const spelled = path;
    tile_address a;
    auto const slash = path.find('/');
    if (slash == std::string_view::npos)
        return std::nullopt;
    auto const head = path.substr(0, slash);
    path.remove_prefix(slash + 1);
    if (head == "entries") {
        a.entries = true;
    } else if (auto level = plain_number(head, max_level)) {
        a.level = static_cast<unsigned>(*level);
    } else {
        return std::nullopt;
    }
    if (auto const p = path.find(".p/"); p != std::string_view::npos) {
        auto const width = plain_number(path.substr(p + 3), tile_width - 1);
        if (!width || *width == 0)
            return std::nullopt;
        a.width = static_cast<unsigned>(*width);
        path = path.substr(0, p);
    }
    auto const index = tile_index(path);
    if (!index)
        return std::nullopt;
    a.index = *index;
    // One spelling per tile ("x000/000" is "000"): a cache holds each once.
    if (tile_path(a) != spelled)
        return std::nullopt;
    return a;
}

std::string tile_path(tile_address const& a)
{
    return (a.entries ? std::string("entries") : std::to_string(a.level)) + "/" + index_path(a.index) +
           (a.width < tile_width ? ".p/" + std::to_string(a.width) : "");
}

std::optional<std::string> tile_data(merkle_tree const& tree, tile_address const& a)
{
    if (a.entries || a.level * tile_height > 63)
        return std::nullopt;
    auto const hashes = tree.level(a.level * tile_height);
    std::uint64_t const first = a.index * tile_width;
    if (a.index > UINT64_MAX / tile_width || first + a.width > hashes.size())
        return std::nullopt;
    std::string out;
    out.reserve(a.width * sizeof(hash));
    for (std::uint64_t i = first; i < first + a.width; ++i)
        out.append(reinterpret_cast<char const*>(hashes[i].data()), hashes[i].size());
    return out;
}

std::optional<std::string> entry_bundle(std::vector<std::string> const& entries, tile_address const& a)
{
    std::uint64_t const first = a.index * tile_width;
    if (!a.entries || a.index > UINT64_MAX / tile_width || first + a.width > entries.size())
        return std::nullopt;
    std::string out;
    for (std::uint64_t i = first; i < first + a.width; ++i) {
        auto const& e = entries[i];
        out += static_cast<char>((e.size() >> 8) & 0xff);
        out += static_cast<char>(e.size() & 0xff);
        out += e;
    }
    return out;
}

}
