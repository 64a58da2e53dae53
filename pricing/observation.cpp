#include "observation.hpp"

#include "rules.hpp"
#include "utf8.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <tuple>

namespace lcg::pricing {

namespace {

constexpr std::size_t max_source = 64;

bool needs_quotes(std::string_view field)
{
    // Not find_first_of: libstdc++ runs a memchr over the set for every character of the field.
    return std::any_of(field.begin(), field.end(),
                       [](char c) { return c == ',' || c == '"' || c == '\r' || c == '\n'; });
}

bool has_control_chars(std::string_view s)
{
    return std::any_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; });
}

bool is_text_field(std::string_view s, std::size_t min_chars, std::size_t max_chars)
{
    auto const n = utf8_length(s);
    return n && *n >= min_chars && *n <= max_chars && !has_control_chars(s);
}

// An observation's place in the canonical order. Sorting these small keys within each gpu is
// several times faster on a million observations than sorting the observations themselves, whose
// swaps move three strings and whose comparisons start with a string.
struct sort_key {
    instant observed_at;
    money price;
    std::size_t index;
};

// std::string_view orders bytes as std::string does, so the groups are in gpu order.
using canonical_groups = std::map<std::string_view, std::vector<sort_key>>;

// The keys of `observations` grouped by gpu, each group sorted: together, the canonical order.
canonical_groups group_canonically(std::span<const observation> observations)
{
    canonical_groups by_gpu;
    for (std::size_t i = 0; i < observations.size(); ++i)
        by_gpu[observations[i].gpu].push_back({observations[i].observed_at, observations[i].price, i});
    auto const before = [&](sort_key const& a, sort_key const& b) {
        // The keys at hand decide most comparisons without touching the observations' strings.
        if (a.observed_at != b.observed_at)
            return a.observed_at < b.observed_at;
        if (a.price != b.price)
            return a.price < b.price;
        return canonically_before(observations[a.index], observations[b.index]);
    };
    for (auto& [gpu, keys] : by_gpu)
        std::sort(keys.begin(), keys.end(), before);
    return by_gpu;
}

// Time and price come from the key, which is at hand, rather than from the observation.
struct row_text {
    std::string_view source;
    std::string_view listing_id;
    std::string_view source_url;
};

void append_row(std::string& out, std::string_view gpu, sort_key const& key, row_text const& text, bool with_urls)
{
    out += to_rfc3339(key.observed_at);
    out += ',';
    out += gpu;
    out += ',';
    out += to_decimal(key.price, 6);
    out += ',';
    append_csv_field(out, text.source);
    out += ',';
    append_csv_field(out, text.listing_id);
    if (with_urls) {
        out += ',';
        append_csv_field(out, text.source_url);
    }
    out += '\n';
}

}

bool is_listing_id(std::string_view id) { return is_text_field(id, 0, max_listing_id); }

std::string listing_id_rule()
{
    return "at most " + std::to_string(max_listing_id) + " characters of UTF-8 without control characters";
}

bool is_valid_source_url(std::string_view url)
{
    if (url.empty())
        return true;
    if (url.size() > max_source_url)
        return false;
    std::string_view rest = url;
    if (rest.starts_with("https://"))
        rest.remove_prefix(8);
    else if (rest.starts_with("http://"))
        rest.remove_prefix(7);
    else
        return false;
    bool const has_host = !rest.empty() && rest.front() != '/' && rest.front() != '?' && rest.front() != '#';
    return has_host && std::all_of(url.begin(), url.end(), [](char c) { return c > 0x20 && c < 0x7f; });
}

void append_csv_field(std::string& out, std::string_view field)
{
    if (!needs_quotes(field)) {
        out += field;
        return;
    }
    out += '"';
    for (char c : field) {
        if (c == '"')
            out += '"';
        out += c;
    }
    out += '"';
}

std::optional<std::vector<std::string>> split_csv_record(std::string_view line)
{
    std::vector<std::string> fields(1);
    bool quoted = false;
    bool after_quote = false;  // just closed a quoted field: only ',' may follow
    for (std::size_t i = 0; i < line.size(); ++i) {
        char const c = line[i];
        if (quoted) {
            if (c != '"')
                fields.back() += c;
            else if (i + 1 < line.size() && line[i + 1] == '"')
                fields.back() += line[++i];
            else {
                quoted = false;
                after_quote = true;
            }
        } else if (c == ',') {
            if (fields.size() == rules::max_csv_fields)
                return std::nullopt;
            fields.emplace_back();
            after_quote = false;
        } else if (after_quote) {
            return std::nullopt;
        } else if (c == '"' && fields.back().empty()) {
            quoted = true;
        } else if (c == '"') {
            return std::nullopt;
        } else {
            fields.back() += c;
        }
    }
    if (quoted)
        return std::nullopt;
    return fields;
}

observation_csv_reader::observation_csv_reader(std::function<bool(std::string_view)> is_known_gpu)
    : is_known_gpu_(std::move(is_known_gpu))
{
}

void observation_csv_reader::refuse_at(long line, std::string reason)
{
    ++bad_lines_;
    if (problems_.size() < problems_kept)
        problems_.push_back({line, std::move(reason)});
}

void observation_csv_reader::refuse(std::string reason) { refuse_at(line_, std::move(reason)); }

std::optional<observation> observation_csv_reader::read_line(std::string_view line)
{
    ++line_;
    if (!line.empty() && line.back() == '\r')
        line.remove_suffix(1);
    if (line_ == 1 && line.starts_with("\xEF\xBB\xBF"))
        line.remove_prefix(3);  // spreadsheets often save with a byte-order mark
    if (line.size() > max_csv_line_bytes) {
        refuse("longer than " + std::to_string(max_csv_line_bytes) + " bytes");
        return std::nullopt;
    }
    if (line.empty()) {
        if (blank_line_ == 0)
            blank_line_ = line_;  // fine as the last line, refused if anything follows
        return std::nullopt;
    }
    if (blank_line_ != 0) {
        refuse_at(blank_line_, "blank line inside the file");
        blank_line_ = 0;
    }
    if (!header_seen_) {
        header_seen_ = true;
        if (line == observations_csv_header_with_urls)
            columns_ = 6;
        else if (line != observations_csv_header)
            refuse("the header must be exactly '" + std::string(observations_csv_header) + "' or '" +
                   std::string(observations_csv_header_with_urls) + "'");
        return std::nullopt;
    }
    auto fields = split_csv_record(line);
    if (!fields) {
        refuse("not a CSV record: broken quoting, or more than " + std::to_string(rules::max_csv_fields) + " fields");
        return std::nullopt;
    }
    if (fields->size() != columns_) {
        refuse("expected " + std::to_string(columns_) + " columns (" +
               std::string(columns_ == 6 ? observations_csv_header_with_urls : observations_csv_header) + "), found " +
               std::to_string(fields->size()));
        return std::nullopt;
    }
    auto& f = *fields;
    auto const at = parse_utc_timestamp(f[0]);
    if (!at) {
        refuse("observed_at: " + at.err().message);
        return std::nullopt;
    }
    if (!is_known_gpu_(f[1])) {
        refuse("gpu: '" + f[1] + "' is not a catalog id (see /v1/gpus)");
        return std::nullopt;
    }
    auto const price = parse_money(f[2]);
    if (!price) {
        refuse("price_per_gpu_hour: " + price.err().message);
        return std::nullopt;
    }
    if (price->micros() <= 0 || *price > rules::max_observed_price) {
        refuse("price_per_gpu_hour: must be greater than 0 and at most " + to_decimal(rules::max_observed_price, 0));
        return std::nullopt;
    }
    if (!is_text_field(f[3], 1, max_source)) {
        refuse("source: must be 1 to 64 characters of UTF-8 without control characters");
        return std::nullopt;
    }
    if (!is_listing_id(f[4])) {
        refuse("listing_id: must be " + listing_id_rule());
        return std::nullopt;
    }
    std::string url = columns_ == 6 ? std::move(f[5]) : std::string();
    if (!is_valid_source_url(url)) {
        refuse("source_url: must be empty or an http:// or https:// URL with a host, at most " +
               std::to_string(max_source_url) + " characters of visible ASCII (percent-encode the rest)");
        return std::nullopt;
    }
    return observation{*at, std::move(f[1]), *price, std::move(f[3]), std::move(f[4]), std::move(url)};
}

void observation_csv_reader::finish()
{
    if (!header_seen_) {
        refuse_at(1, "the file is empty: the header '" + std::string(observations_csv_header) + "' is required");
    }
}

bool canonically_before(observation const& a, observation const& b)
{
    // source last only to make the order total; DESIGN §7 names the first four keys
    return std::tie(a.gpu, a.observed_at, a.price, a.listing_id, a.source, a.source_url) <
           std::tie(b.gpu, b.observed_at, b.price, b.listing_id, b.source, b.source_url);
}

void append_canonical_line(std::string& out, observation const& o, bool with_urls)
{
    append_row(out, o.gpu, {o.observed_at, o.price, 0}, {o.source, o.listing_id, o.source_url}, with_urls);
}

void sort_canonically(std::vector<observation>& observations)
{
    std::vector<observation> sorted;
    sorted.reserve(observations.size());
    for (auto const& [gpu, keys] : group_canonically(observations))
        for (sort_key const& k : keys)
            sorted.push_back(std::move(observations[k.index]));
    observations = std::move(sorted);
}

parsed_observations parse_observations_csv(std::string_view csv, std::function<bool(std::string_view)> is_known_gpu)
{
    observation_csv_reader reader(std::move(is_known_gpu));
    parsed_observations out;
    std::size_t start = 0;
    while (start < csv.size()) {
        auto const end = csv.find('\n', start);
        if (auto o = reader.read_line(csv.substr(start, end == std::string_view::npos ? csv.size() - start : end - start)))
            out.observations.push_back(std::move(*o));
        start = end == std::string_view::npos ? csv.size() : end + 1;
    }
    reader.finish();
    out.problems = reader.problems();
    out.bad_lines = reader.bad_lines();
    return out;
}

namespace {

// The canonical CSV appended to `out`; when there is a `sink`, `out` is given to it and emptied each
// time it holds `piece_bytes` or more, and at the end.
void append_canonical_csv(std::string& out, std::span<const observation> observations,
                          std::function<void(std::string_view)> const* sink, std::size_t piece_bytes)
{
    bool const with_urls = std::any_of(observations.begin(), observations.end(),
                                       [](observation const& o) { return !o.source_url.empty(); });
    out += with_urls ? observations_csv_header_with_urls : observations_csv_header;
    out += '\n';
    for (auto const& [gpu, keys] : group_canonically(observations)) {
        // In sorted order each row's text fields sit somewhere else in a large array. Reading a
        // batch of them in a tight loop first lets the processor wait for those reads together
        // rather than one row at a time.
        constexpr std::size_t batch = 64;
        std::array<row_text, batch> text;
        for (std::size_t start = 0; start < keys.size(); start += batch) {
            std::size_t const n = std::min(batch, keys.size() - start);
            for (std::size_t i = 0; i < n; ++i) {
                auto const& o = observations[keys[start + i].index];
                text[i] = {o.source, o.listing_id, o.source_url};
            }
            for (std::size_t i = 0; i < n; ++i)
                append_row(out, gpu, keys[start + i], text[i], with_urls);
            if (sink && out.size() >= piece_bytes) {
                (*sink)(out);
                out.clear();
            }
        }
    }
    if (sink)
        (*sink)(out);
}

}

std::string canonical_observations_csv(std::span<const observation> observations)
{
    std::string out;
    out.reserve(64 + observations.size() * 80);
    append_canonical_csv(out, observations, nullptr, 0);
    return out;
}

void write_canonical_observations_csv(std::span<const observation> observations,
                                      std::function<void(std::string_view)> const& sink, std::size_t piece_bytes)
{
    std::string out;
    out.reserve(piece_bytes + 4096);
    append_canonical_csv(out, observations, &sink, piece_bytes);
}

}
