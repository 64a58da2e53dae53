#include "server/tlog/entry.hpp"

#include "pricing/signing.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <vector>

namespace lcg::tlog {

namespace {

constexpr std::array<std::string_view, 3> kind_names{"publication", "correction", "signature"};
constexpr std::array<std::string_view, 8> field_names{"week",          "kind",          "published_at", "logged_at",
                                                      "signed_sha256", "inputs_sha256", "key_id",       "reason"};

bool lower_hex(std::string_view s, std::size_t digits)
{
    return s.size() == digits && s.find_first_not_of("0123456789abcdef") == std::string_view::npos;
}

std::string dash_if_empty(std::string const& s) { return s.empty() ? "-" : s; }

}

std::string_view to_string(entry_kind k) { return kind_names[static_cast<std::size_t>(k)]; }

std::string entry_text(log_entry const& e)
{
    std::array<std::string, field_names.size()> const values{
        pricing::to_string(e.week),      std::string(to_string(e.kind)), pricing::to_rfc3339(e.published_at),
        pricing::to_rfc3339(e.logged_at), e.signed_sha256,               e.inputs_sha256,
        dash_if_empty(e.key_id),          dash_if_empty(e.reason)};
    std::string out(entry_format);
    out += '\n';
    for (std::size_t i = 0; i < field_names.size(); ++i)
        out += std::string(field_names[i]) + " " + values[i] + "\n";
    return out;
}

pricing::outcome<log_entry> parse_entry(std::string_view text)
{
    std::vector<std::string_view> values;
    if (!text.starts_with(std::string(entry_format) + "\n"))
        return pricing::invalid("a log entry begins with the line " + std::string(entry_format));
    text.remove_prefix(entry_format.size() + 1);
    for (auto const name : field_names) {
        auto const nl = text.find('\n');
        auto const line = text.substr(0, nl);
        if (nl == std::string_view::npos || !line.starts_with(std::string(name) + " "))
            return pricing::invalid("a log entry's next line is \"" + std::string(name) + " …\"");
        values.push_back(line.substr(name.size() + 1));
        text.remove_prefix(nl + 1);
    }
    if (!text.empty())
        return pricing::invalid("a log entry ends after its reason line");
    log_entry e;
    auto const week = pricing::parse_week(values[0]);
    auto const kind = std::find(kind_names.begin(), kind_names.end(), values[1]);
    auto const published = pricing::parse_utc_timestamp(values[2]);
    auto const logged = pricing::parse_utc_timestamp(values[3]);
    if (!week || kind == kind_names.end() || !published || !logged)
        return pricing::invalid("a log entry's week, kind or times are malformed");
    if (!lower_hex(values[4], 64) || !lower_hex(values[5], 64) || (values[6] != "-" && !lower_hex(values[6], 16)))
        return pricing::invalid("a log entry's hashes or key id are malformed");
    e.week = *week;
    e.kind = static_cast<entry_kind>(kind - kind_names.begin());
    e.published_at = *published;
    e.logged_at = *logged;
    e.signed_sha256 = std::string(values[4]);
    e.inputs_sha256 = std::string(values[5]);
    e.key_id = values[6] == "-" ? "" : std::string(values[6]);
    e.reason = values[7] == "-" ? "" : std::string(values[7]);
    return e;
}

pricing::outcome<std::vector<log_entry>> parse_entries(std::span<const std::string> texts)
{
    std::vector<log_entry> out;
    out.reserve(texts.size());
    for (std::size_t i = 0; i < texts.size(); ++i) {
        auto e = parse_entry(texts[i]);
        if (!e)
            return pricing::invalid("entry " + std::to_string(i) + ": " + e.err().message);
        out.push_back(std::move(e).value());
    }
    return out;
}

entry_kind kind_following(std::optional<std::string_view> previous_signed_sha256, std::string_view signed_sha256)
{
    if (!previous_signed_sha256)
        return entry_kind::publication;
    return *previous_signed_sha256 == signed_sha256 ? entry_kind::signature : entry_kind::correction;
}

std::optional<std::string> kind_problem(std::span<const log_entry> entries)
{
    std::map<std::string, std::string_view> newest;  // by week
    for (std::size_t i = 0; i < entries.size(); ++i) {
        auto const& e = entries[i];
        std::string const week = pricing::to_string(e.week);
        auto const before = newest.find(week);
        auto const expected = kind_following(
            before == newest.end() ? std::nullopt : std::optional<std::string_view>(before->second), e.signed_sha256);
        if (e.kind != expected)
            return "entry " + std::to_string(i) + " (" + week + ") is logged as a " + std::string(to_string(e.kind)) +
                   ", but its place makes it a " + std::string(to_string(expected));
        newest[week] = e.signed_sha256;
    }
    return std::nullopt;
}

pricing::outcome<std::string> checked_reason(std::string_view reason)
{
    if (reason.empty() || reason == "-")
        return pricing::invalid("a correction needs a reason: --reason TEXT says what was wrong");
    if (reason.size() > max_reason_bytes)
        return pricing::invalid("a correction's reason is at most 500 bytes");
    for (unsigned char c : reason)
        if (c < 0x20 || c == 0x7f)
            return pricing::invalid("a correction's reason is one line of printable text");
    return std::string(reason);
}

std::optional<std::string> version_problem(log_entry const& e, std::string_view signed_bytes)
{
    std::string const week = pricing::to_string(e.week), published_at = pricing::to_rfc3339(e.published_at);
    for (auto [name, logged] : {std::pair<std::string_view, std::string_view>{"week", week},
                                {"published_at", published_at},
                                {"inputs_sha256", e.inputs_sha256}}) {
        auto const given = pricing::signed_header(signed_bytes, name);
        if (given != logged)
            return "its signed bytes give " + std::string(name) + " " + std::string(given.value_or("nothing")) +
                   ", the entry " + std::string(logged);
    }
    return std::nullopt;
}

}
