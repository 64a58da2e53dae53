#pragma once

#include "calendar.hpp"
#include "money.hpp"
#include "outcome.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

// From the market's offers to observations (DESIGN §7): what each listing of a raw file becomes.
// The rules are data (the market_alias table, published with every import as mapping_csv); this
// file only says how they are applied, so an auditor re-running them gets the same observations.
namespace lcg::pricing {

// Every row read ends in exactly one of these.
enum class listing_outcome { imported, duplicate, not_gpu, no_price, not_in_catalog, ambiguous };
inline constexpr listing_outcome all_listing_outcomes[] = {
    listing_outcome::imported, listing_outcome::duplicate,      listing_outcome::not_gpu,
    listing_outcome::no_price, listing_outcome::not_in_catalog, listing_outcome::ambiguous};
std::string_view to_string(listing_outcome o);  // "imported", "duplicate", "not_gpu", …

// One rule of the mapping. A listing is matched by its accelerator name (normalised); among the
// rules of that name whose memory range holds the listing's memory per GPU, those whose hint the
// listing's text contains win over those without a hint, and among those, rules with a memory range
// win over rules without. The winners must agree on one outcome, else the listing is ambiguous.
struct alias_rule {
    std::string accelerator;              // normalised (normalise_accelerator)
    std::string hint;                     // lower case; empty: no hint
    std::optional<int> min_memory_gib;    // both or neither, inclusive
    std::optional<int> max_memory_gib;
    listing_outcome outcome = listing_outcome::imported;  // imported, not_in_catalog or ambiguous
    std::string gpu;                      // the catalog id, when imported
    std::string note;                     // why; shown as the reason of a refusal
    bool operator==(alias_rule const&) const = default;
};

// Lower case letters and digits only: "RTX-6000-Ada", "RTX6000Ada" and "RTX 6000 Ada" are one name.
std::string normalise_accelerator(std::string_view name);

// One offer as a format reader found it, before any rule.
struct market_offer {
    std::string listing_id;
    std::string accelerator;               // the market's name; empty: not a GPU offer
    std::string gpu_count;                 // as written ("8", "8.0")
    std::string price;                     // the whole instance's on-demand USD per hour, as written
    std::optional<std::int64_t> memory_mib;  // per GPU; empty or 0: not stated
    std::string text;                      // where hints are looked for (names, instance type, ids)
};

// What a listing became. `gpu` and `price` (per GPU) are set on an imported listing.
struct classified_listing {
    std::string listing_id;
    listing_outcome outcome = listing_outcome::not_gpu;
    std::string gpu;
    money price;
    std::string reason;  // empty on an imported listing
};

// The per-GPU price: the instance price divided by its GPU count, rounded half-up to the
// micro-dollar, exactly from the decimal text (up to 18 decimals). Refused: not a decimal, not
// above zero, zero once rounded, or above rules::max_observed_price.
outcome<money> per_gpu_price(std::string_view instance_price, std::int64_t gpus);

// A whole positive GPU count ("8", "8.0"); nothing for empty, zero, fractional or absurd counts.
std::optional<std::int64_t> gpu_count(std::string_view text);

// The rules applied to one offer that has an accelerator: the catalog id, or why not.
struct mapping_result {
    listing_outcome outcome;
    std::string gpu;
    std::string reason;
};
mapping_result map_offer(market_offer const& offer, std::span<const alias_rule> rules);

// Every offer of one raw file, in file order: not a GPU offer, a repeat of an earlier listing id of
// the file (the first counts), no on-demand price, then the mapping.
std::vector<classified_listing> classify_offers(std::span<const market_offer> offers, std::span<const alias_rule> rules);

// The mapping as published with every import: a header, then one rule a line in the order given
// (accelerator,hint,min_memory_gib,max_memory_gib,outcome,gpu,note), "\n" line ends.
std::string mapping_csv(std::span<const alias_rule> rules);
outcome<std::vector<alias_rule>> parse_mapping_csv(std::string_view csv);

// One market file as imported, described as the sheets whose window it falls in publish it
// (/v1/sheets/{week}/sources): what it is and where it came from, named by the SHA-256 of its bytes,
// and the mapping (by its SHA-256) its listings were read with. The bytes themselves are served apart.
struct raw_input {
    std::string source;             // "lambda"
    std::string format;             // "skypilot-vms", "vast-bundles", "runpod-gpu-types"
    std::string memory_convention;  // how its memory column counts: "per-gpu-mib", …
    instant observed_at{};
    std::string sha256;
    std::int64_t bytes = 0;
    std::string mapping_sha256;
    int reader = 1;                 // the revision of its format's reader it was read with (rules.hpp)
    bool operator==(raw_input const&) const = default;
};

}
