#include "observation.hpp"

#include "rules.hpp"
#include "utf8.hpp"

#include <algorithm>
#include <tuple>

namespace lcg::pricing {

namespace {

constexpr std::size_t max_source = 64;
constexpr std::size_t max_listing_id = 128;

bool needs_quotes(std::string_view field)
{
    return field.find_first_of(",\"\r\n") != std::string_view::npos;
}

void append_field(std::string& out, std::string_view field)
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

bool has_control_chars(std::string_view s)
{
    return std::any_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; });
}

bool is_text_field(std::string_view s, std::size_t min_chars, std::size_t max_chars)
{
    auto const n = utf8_length(s);
    return n && *n >= min_chars && *n <= max_chars && !has_control_chars(s);
}

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
        if (line != observations_csv_header)
            refuse("the header must be exactly '" + std::string(observations_csv_header) + "'");
        return std::nullopt;
    }
    auto fields = split_csv_record(line);
    if (!fields) {
        refuse("broken quoting");
        return std::nullopt;
    }
    if (fields->size() != 5) {
        refuse("expected 5 columns (" + std::string(observations_csv_header) + "), found " +
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
    if (!is_text_field(f[4], 0, max_listing_id)) {
        refuse("listing_id: must be at most 128 characters of UTF-8 without control characters");
        return std::nullopt;
    }
    return observation{*at, std::move(f[1]), *price, std::move(f[3]), std::move(f[4])};
}

void observation_csv_reader::finish()
{
    if (!header_seen_) {
        refuse_at(1, "the file is empty: the header '" + std::string(observations_csv_header) + "' is required");
    }
}

void sort_canonically(std::vector<observation>& observations)
{
    std::sort(observations.begin(), observations.end(), [](observation const& a, observation const& b) {
        // source last only to make the order total; DESIGN §7 names the first four keys
        return std::tie(a.gpu, a.observed_at, a.price, a.listing_id, a.source) <
               std::tie(b.gpu, b.observed_at, b.price, b.listing_id, b.source);
    });
}

std::string canonical_observations_csv(std::vector<observation> observations)
{
    sort_canonically(observations);
    std::string out;
    out.reserve(64 + observations.size() * 80);
    out += observations_csv_header;
    out += '\n';
    for (auto const& o : observations) {
        out += to_rfc3339(o.observed_at);
        out += ',';
        out += o.gpu;
        out += ',';
        out += to_decimal(o.price, 6);
        out += ',';
        append_field(out, o.source);
        out += ',';
        append_field(out, o.listing_id);
        out += '\n';
    }
    return out;
}

}
