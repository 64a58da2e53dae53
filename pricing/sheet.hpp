#pragma once

#include "calendar.hpp"
#include "money.hpp"
#include "observation.hpp"
#include "outcome.hpp"
#include "rules.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace lcg::pricing {

enum class tier { on_demand, spot, reserved };
inline constexpr tier all_tiers[] = {tier::on_demand, tier::spot, tier::reserved};

std::string_view to_string(tier t);  // "on_demand", "spot", "reserved"
outcome<tier> parse_tier(std::string_view text);
// A tier as people write it: its name in any letter case, with a space or hyphen for '_'
// ("On-Demand"), or the words of the glossary and the pages in either language (à la demande,
// interruptible, preemptible, réservé). Nothing for anything else.
std::optional<tier> tier_named(std::string_view text);

// Per-GPU hourly rates of one model, each a whole number of mills.
struct tier_rates {
    money on_demand;
    money spot;
    money reserved;
    bool operator==(tier_rates const&) const = default;
    money of(tier t) const;
};

// The rules of DESIGN §2 on a median given as twice its micros (see twice_median):
// on-demand = floor(median × 0.70) to the mill; spot and reserved are shares of on-demand, floored.
tier_rates rates_from_median(std::int64_t twice_median_micros);
// The same shares of a given on-demand rate (a whole number of mills): what the audit checks a
// published row's spot and reserved against.
tier_rates rates_from_on_demand(money on_demand);

// The promise, checked exactly: on_demand ≤ 0.70 × median  ⇔  on_demand × 20 ≤ 7 × (2 × median).
bool is_within_cap(money on_demand, std::int64_t twice_median_micros);

// 0.70 × median in hundredths of a micro-dollar, exact (print with decimal_string(…, 8)).
std::int64_t cap_centimicros(std::int64_t twice_median_micros);

// What one source offers a model in a sheet's window (rules version 2): the lower median of its
// listings' per-GPU prices, so always a price it really offers, and how many listings it has.
struct source_price {
    std::string source;
    money price;
    int listings = 0;
    bool operator==(source_price const&) const = default;
};

// The spread of every listing's per-GPU price of a model in the window (rules version 2). The
// quartiles are nearest-rank (the ⌈n/4⌉-th and ⌈3n/4⌉-th smallest), so each is a listed price;
// the median is exact, kept twice like the row's.
struct market_spread {
    money min;
    money p25;
    std::int64_t twice_median_micros = 0;
    money p75;
    money max;
    bool operator==(market_spread const&) const = default;
};

// One model's line on a weekly sheet. A model with too few observations carries no rates and says
// why; a sheet never carries an older week's number. Under rules version 2 `observations` counts
// listings, and twice_median_micros is the median of the sources' prices (by_source).
struct sheet_row {
    std::string gpu;
    int observations = 0;
    std::optional<std::int64_t> twice_median_micros;  // empty when there were no observations
    std::optional<tier_rates> rates;                  // empty when the model is not priced
    std::string unavailable_reason;
    int sources = 0;                        // version 2; 0 on a version 1 row
    std::vector<source_price> by_source;    // version 2, by source name; empty on a version 1 row
    std::optional<market_spread> market;    // version 2, when there are listings
    bool operator==(sheet_row const&) const = default;

    bool available() const { return rates.has_value(); }
};

// Why rates cannot be published (empty when they can): on-demand above the cap, or a tier below
// rules::min_published_rate (a rate that rounds down to $0.000 is not a price).
std::string unpublishable_reason(tier_rates const& rates, std::int64_t twice_median_micros);

// A model's row under rules version 1: unavailable, with the reason, when it has too few
// observations or its rates cannot be published; such a model never fails the sheet.
sheet_row compute_row(std::string gpu, std::vector<money> prices);

// One listing's per-GPU price and who offers it, as rules version 2 reads an observation.
struct sourced_price {
    std::string_view source;
    money price;
};
// A model's row under rules version 2: each source's lower median, then the median of those; priced
// with at least rules::min_sources sources and rules::min_observations listings.
sheet_row compute_market_row(std::string gpu, std::vector<sourced_price> listings);

// Rows for every catalog id, in catalog order, from the observations in the sheet's window, by the
// rules of `version` (1 or rules::rules_version).
std::vector<sheet_row> compute_rows(std::span<const std::string> catalog_ids, std::span<const observation> inputs,
                                    int version);

// The exact decimal strings a row publishes, shared by every output and by the audit. Empty when
// the row has no such figure (no observations, or not priced).
struct row_figures {
    std::string median;    // may end in a half micro-dollar: "2.4000005"
    std::string cap;       // 0.70 × median, exact
    std::string on_demand;
    std::string spot;
    std::string reserved;
    std::string headroom;  // cap − on-demand, exact
    auto operator<=>(row_figures const&) const = default;
};
row_figures published_figures(sheet_row const& row);

// A version 2 row's market as published: each figure's exact decimal string ("2.400"; the median
// may end in half a micro-dollar), and each source's price. Empty strings and no sources on a row
// without listings or of version 1.
struct market_figures {
    std::string min;
    std::string p25;
    std::string median;
    std::string p75;
    std::string max;
    auto operator<=>(market_figures const&) const = default;
};
struct source_figures {
    std::string source;
    std::string price;
    int listings = 0;
    auto operator<=>(source_figures const&) const = default;
};
market_figures published_market(sheet_row const& row);
std::vector<source_figures> published_sources(sheet_row const& row);

// Whether a source name is one of the sample data's made-up sources (DESIGN §7: "synthetic-…").
bool is_synthetic_source(std::string_view source);

// The ids of rows whose on-demand rate breaks the cap; a sheet with any is never published.
std::vector<std::string> cap_violations(std::span<const sheet_row> rows);

// A published weekly sheet.
struct price_sheet {
    iso_week week;
    instant effective_from;   // the re-check: Monday 00:00 UTC
    instant effective_until;  // the next Monday
    instant published_at;
    std::string inputs_sha256;  // of the canonical observations CSV
    int observations = 0;
    int rules_version = rules::rules_version;  // the version of the rules it was computed with
    std::vector<sheet_row> rows;
    // Ed25519 over signed_bytes(*this) (pricing/signing.hpp), base64, and the id of the key that
    // made it; both empty on a sheet published unsigned and not signed since.
    std::string signature;
    std::string key_id;
    bool operator==(price_sheet const&) const = default;

    sheet_row const* find(std::string_view gpu) const;
    int priced_models() const;
    // Computed from synthetic sample data only: some row has sources and every source is synthetic.
    bool is_sample() const;
};

}
