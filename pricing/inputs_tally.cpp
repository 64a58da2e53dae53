#include "inputs_tally.hpp"

#include <algorithm>

namespace lcg::pricing {

std::uint32_t listing_tally::source_id(std::string_view source)
{
    if (auto const it = source_ids_.find(source); it != source_ids_.end())
        return it->second;
    auto const id = static_cast<std::uint32_t>(sources_.size());
    sources_.emplace_back(source);
    source_ids_.emplace(source, id);
    return id;
}

void listing_tally::add(std::string_view gpu, std::string_view source, money price)
{
    auto it = by_gpu_.find(gpu);
    if (it == by_gpu_.end())
        it = by_gpu_.emplace(std::string(gpu), std::vector<listing>{}).first;
    it->second.push_back({source_id(source), price});
}

std::vector<sheet_row> listing_tally::compute_rows(std::span<const std::string> catalog_ids, int version) const
{
    std::vector<sheet_row> rows;
    rows.reserve(catalog_ids.size());
    static std::vector<listing> const none;
    // One model's prices at a time, in the form its rules take, so that only the largest model's
    // are ever held twice.
    for (auto const& id : catalog_ids) {
        auto const it = by_gpu_.find(id);
        auto const& listings = it == by_gpu_.end() ? none : it->second;
        if (version == 1) {
            std::vector<money> prices;
            prices.reserve(listings.size());
            for (auto const& l : listings)
                prices.push_back(l.price);
            rows.push_back(compute_row(id, std::move(prices)));
        } else {
            std::vector<sourced_price> sourced;
            sourced.reserve(listings.size());
            for (auto const& l : listings)
                sourced.push_back({sources_[l.source], l.price});
            rows.push_back(compute_market_row(id, std::move(sourced)));
        }
    }
    return rows;
}

std::vector<std::string> listing_tally::models() const
{
    std::vector<std::string> out;
    for (auto const& [gpu, listings] : by_gpu_)
        out.push_back(gpu);
    return out;
}

inputs_tally::inputs_tally(std::string_view week)
    // Any id is accepted here: whether the model belongs on the sheet is the audit's question.
    : reader_([](std::string_view) { return true; })
{
    if (auto const w = parse_week(week))
        window_ = observation_window(*w);
}

void inputs_tally::read(std::string_view bytes)
{
    while (!bytes.empty()) {
        auto const end = bytes.find('\n');
        std::string_view const part = bytes.substr(0, end);
        bytes.remove_prefix(end == std::string_view::npos ? bytes.size() : end + 1);
        std::size_t const room = max_line_bytes - pending_.size();
        overlong_ = overlong_ || part.size() > room;
        if (end == std::string_view::npos) {
            pending_.append(part.substr(0, room));
            return;
        }
        // A line that arrived whole is read where it lies, without a copy.
        if (pending_.empty()) {
            end_line(part.substr(0, room));
            continue;
        }
        pending_.append(part.substr(0, room));
        end_line(pending_);
        pending_.clear();
    }
}

void inputs_tally::finish()
{
    // The canonical CSV ends with "\n": a last line without one is read, and is not canonical.
    if (!pending_.empty()) {
        canonical_ = false;
        end_line(pending_);
        pending_.clear();
    }
    reader_.finish();
    if (reader_.lines_read() == 0 || (with_urls_ && !any_url_))
        canonical_ = false;
}

void inputs_tally::end_line(std::string_view line)
{
    canonical_ = canonical_ && !overlong_;
    overlong_ = false;
    read_line(line);
}

void inputs_tally::read_line(std::string_view line)
{
    auto const o = reader_.read_line(line);
    if (!o) {
        // Only the first line may be something other than an observation: the header, as written.
        if (reader_.lines_read() == 1)
            with_urls_ = line == observations_csv_header_with_urls;
        canonical_ = canonical_ && reader_.lines_read() == 1 &&
                     (line == observations_csv_header || line == observations_csv_header_with_urls);
        return;
    }
    ++observations_;
    listings_.add(o->gpu, o->source, o->price);
    check_window(*o);
    check_canonical(*o, line);
    if (canonical_)
        previous_ = std::move(*o);
}

void inputs_tally::check_canonical(observation const& o, std::string_view line)
{
    any_url_ = any_url_ || !o.source_url.empty();
    if (!canonical_)
        return;
    rendered_.clear();
    append_canonical_line(rendered_, o, with_urls_);
    bool const same_bytes = std::string_view(rendered_).substr(0, rendered_.size() - 1) == line;
    bool const in_order = !previous_ || !canonically_before(o, *previous_);
    canonical_ = same_bytes && in_order;
}

void inputs_tally::check_window(observation const& o)
{
    if (!window_ || window_->contains(o.observed_at))
        return;
    if (outside_.count++ == 0) {
        outside_.first_gpu = o.gpu;
        outside_.first_at = o.observed_at;
    }
}

}
