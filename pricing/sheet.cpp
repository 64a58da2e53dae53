#include "sheet.hpp"

#include "inputs_tally.hpp"
#include "median.hpp"
#include "rules.hpp"

#include <algorithm>
#include <cctype>

namespace lcg::pricing {

namespace {

// floor(base × ratio) to the mill, with base in micros.
money floor_to_mill(std::int64_t base_micros, rules::ratio r)
{
    std::int64_t const mills = base_micros * r.numerator /
                               (r.denominator * money::micros_per_mill);
    return money::from_mills(mills);
}

}

std::string_view to_string(tier t)
{
    switch (t) {
    case tier::on_demand: return "on_demand";
    case tier::spot: return "spot";
    case tier::reserved: return "reserved";
    }
    return "on_demand";
}

outcome<tier> parse_tier(std::string_view text)
{
    for (tier t : all_tiers)
        if (to_string(t) == text)
            return t;
    return invalid(quote(text) + " is not a tier (accepted: on_demand, spot, reserved)");
}

std::optional<tier> tier_named(std::string_view text)
{
    // The words the glossary and the pages use for each tier, in both languages, folded to ASCII
    // lower case with '_' between words.
    struct spelling {
        std::string_view word;
        tier t;
    };
    static constexpr spelling spellings[] = {
        {"on_demand", tier::on_demand},  {"ondemand", tier::on_demand},    {"a_la_demande", tier::on_demand},
        {"spot", tier::spot},            {"interruptible", tier::spot},     {"preemptible", tier::spot},
        {"reserved", tier::reserved},    {"reserve", tier::reserved},
    };
    std::string folded;
    for (std::size_t i = 0; i < text.size() && folded.size() <= 16; ++i) {
        auto const c = static_cast<unsigned char>(text[i]);
        // é É è à À as UTF-8: a lead byte 0xC3 and a second byte naming the letter.
        if (c == 0xC3 && i + 1 < text.size()) {
            auto const next = static_cast<unsigned char>(text[++i]);
            folded += (next == 0xA9 || next == 0x89 || next == 0xA8 || next == 0x88) ? 'e'
                      : (next == 0xA0 || next == 0x80)                               ? 'a'
                                                                                     : '?';
        } else if (c == ' ' || c == '-' || c == '_') {
            folded += '_';
        } else {
            folded += static_cast<char>(std::tolower(c));
        }
    }
    for (auto const& s : spellings)
        if (s.word == folded)
            return s.t;
    return std::nullopt;
}

money tier_rates::of(tier t) const
{
    switch (t) {
    case tier::spot: return spot;
    case tier::reserved: return reserved;
    case tier::on_demand: break;
    }
    return on_demand;
}

tier_rates rates_from_median(std::int64_t twice_median_micros)
{
    // median × 0.70 = m2 × 70 / 200; integer division floors because every term is positive.
    rules::ratio const of_twice_median{rules::on_demand_of_median.numerator,
                                       rules::on_demand_of_median.denominator * 2};
    return rates_from_on_demand(floor_to_mill(twice_median_micros, of_twice_median));
}

tier_rates rates_from_on_demand(money on_demand)
{
    return {on_demand, floor_to_mill(on_demand.micros(), rules::spot_of_on_demand),
            floor_to_mill(on_demand.micros(), rules::reserved_of_on_demand)};
}

bool is_within_cap(money on_demand, std::int64_t twice_median_micros)
{
    auto const r = rules::on_demand_of_median;
    return on_demand.micros() * r.denominator * 2 <= r.numerator * twice_median_micros;
}

std::int64_t cap_centimicros(std::int64_t twice_median_micros)
{
    auto const r = rules::on_demand_of_median;
    return twice_median_micros * r.numerator * 100 / (r.denominator * 2);
}

std::string unpublishable_reason(tier_rates const& rates, std::int64_t twice_median_micros)
{
    std::string const median = decimal_string(twice_median_micros * 5, 7);
    if (!is_within_cap(rates.on_demand, twice_median_micros))
        return "on_demand " + to_decimal(rates.on_demand) + " would be above the cap of " +
               decimal_string(cap_centimicros(twice_median_micros), 8) + " (" +
               decimal_string(rules::on_demand_of_median.numerator * 100 / rules::on_demand_of_median.denominator, 2, 2) +
               " × the median " + median + ")";
    for (tier t : all_tiers)
        if (rates.of(t) < rules::min_published_rate)
            return "the median " + median + " gives a " + std::string(to_string(t)) + " rate of " +
                   to_decimal(rates.of(t)) + " after rounding down to the mill; every published rate is at least " +
                   to_decimal(rules::min_published_rate);
    return {};
}

namespace {

// A row with enough inputs gets its rates, unless they cannot be published (then it says why).
sheet_row with_rates(sheet_row row)
{
    tier_rates const rates = rates_from_median(*row.twice_median_micros);
    row.unavailable_reason = unpublishable_reason(rates, *row.twice_median_micros);
    if (row.unavailable_reason.empty())
        row.rates = rates;
    return row;
}

}

sheet_row compute_row(std::string gpu, std::vector<money> prices)
{
    sheet_row row;
    row.gpu = std::move(gpu);
    row.observations = static_cast<int>(prices.size());
    if (!prices.empty())
        row.twice_median_micros = twice_median(std::move(prices));
    if (row.observations < rules::min_observations) {
        row.unavailable_reason = "only " + std::to_string(row.observations) +
                                 " market observations in the window; at least " +
                                 std::to_string(rules::min_observations) + " are needed";
        return row;
    }
    return with_rates(std::move(row));
}

namespace {

// The ⌈n × q⌉-th smallest of sorted `prices` (nearest rank), q = numerator / 4.
money nearest_rank(std::vector<money> const& sorted, std::size_t quarters)
{
    std::size_t const rank = (sorted.size() * quarters + 3) / 4;
    return sorted[rank - 1];
}

market_spread spread_of(std::vector<money> prices)
{
    std::sort(prices.begin(), prices.end());
    std::size_t const n = prices.size();
    std::int64_t const twice = n % 2 == 1 ? 2 * prices[n / 2].micros()
                                          : prices[n / 2 - 1].micros() + prices[n / 2].micros();
    return {prices.front(), nearest_rank(prices, 1), twice, nearest_rank(prices, 3), prices.back()};
}

// Each source's lower median (the ⌈k/2⌉-th smallest of its k listings), by source name.
std::vector<source_price> prices_by_source(std::vector<sourced_price> listings)
{
    std::sort(listings.begin(), listings.end(), [](sourced_price const& a, sourced_price const& b) {
        return a.source != b.source ? a.source < b.source : a.price < b.price;
    });
    std::vector<source_price> out;
    for (auto first = listings.begin(); first != listings.end();) {
        auto const last = std::find_if(first, listings.end(), [&](sourced_price const& l) { return l.source != first->source; });
        auto const k = last - first;
        out.push_back({std::string(first->source), (first + (k - 1) / 2)->price, static_cast<int>(k)});
        first = last;
    }
    return out;
}

}

sheet_row compute_market_row(std::string gpu, std::vector<sourced_price> listings)
{
    sheet_row row;
    row.gpu = std::move(gpu);
    row.observations = static_cast<int>(listings.size());
    if (!listings.empty()) {
        std::vector<money> all;
        all.reserve(listings.size());
        for (auto const& l : listings)
            all.push_back(l.price);
        row.market = spread_of(std::move(all));
        row.by_source = prices_by_source(std::move(listings));
        row.sources = static_cast<int>(row.by_source.size());
        std::vector<money> of_sources;
        for (auto const& s : row.by_source)
            of_sources.push_back(s.price);
        row.twice_median_micros = twice_median(std::move(of_sources));
    }
    if (row.sources < rules::min_sources || row.observations < rules::min_observations) {
        row.unavailable_reason = std::to_string(row.observations) + (row.observations == 1 ? " listing" : " listings") +
                                 " from " + std::to_string(row.sources) + (row.sources == 1 ? " source" : " sources") +
                                 " in the window; at least " + std::to_string(rules::min_observations) +
                                 " listings from " + std::to_string(rules::min_sources) + " sources are needed";
        return row;
    }
    return with_rates(std::move(row));
}

std::vector<sheet_row> compute_rows(std::span<const std::string> catalog_ids, std::span<const observation> inputs,
                                    int version)
{
    listing_tally listings;
    for (auto const& o : inputs)
        listings.add(o.gpu, o.source, o.price);
    return listings.compute_rows(catalog_ids, version);
}

row_figures published_figures(sheet_row const& row)
{
    row_figures f;
    if (!row.twice_median_micros)
        return f;
    std::int64_t const cap = cap_centimicros(*row.twice_median_micros);
    f.median = decimal_string(*row.twice_median_micros * 5, 7);
    f.cap = decimal_string(cap, 8);
    if (row.rates) {
        f.on_demand = to_decimal(row.rates->on_demand);
        f.spot = to_decimal(row.rates->spot);
        f.reserved = to_decimal(row.rates->reserved);
        f.headroom = decimal_string(cap - row.rates->on_demand.micros() * 100, 8);
    }
    return f;
}

market_figures published_market(sheet_row const& row)
{
    if (!row.market)
        return {};
    auto const& m = *row.market;
    return {to_decimal(m.min), to_decimal(m.p25), decimal_string(m.twice_median_micros * 5, 7), to_decimal(m.p75),
            to_decimal(m.max)};
}

std::vector<source_figures> published_sources(sheet_row const& row)
{
    std::vector<source_figures> out;
    for (auto const& s : row.by_source)
        out.push_back({s.source, to_decimal(s.price), s.listings});
    return out;
}

bool is_synthetic_source(std::string_view source) { return source.starts_with("synthetic-"); }

std::vector<std::string> cap_violations(std::span<const sheet_row> rows)
{
    std::vector<std::string> out;
    for (auto const& row : rows)
        if (row.rates && !(row.twice_median_micros && is_within_cap(row.rates->on_demand, *row.twice_median_micros)))
            out.push_back(row.gpu);
    return out;
}

sheet_row const* price_sheet::find(std::string_view gpu) const
{
    auto it = std::find_if(rows.begin(), rows.end(), [&](sheet_row const& r) { return r.gpu == gpu; });
    return it == rows.end() ? nullptr : &*it;
}

bool price_sheet::is_sample() const
{
    bool any = false;
    for (auto const& row : rows)
        for (auto const& s : row.by_source) {
            if (!is_synthetic_source(s.source))
                return false;
            any = true;
        }
    return any;
}

int price_sheet::priced_models() const
{
    return static_cast<int>(std::count_if(rows.begin(), rows.end(), [](sheet_row const& r) { return r.available(); }));
}

}
