#pragma once

#include "pricing/listing_mapping.hpp"
#include "pricing/outcome.hpp"

#include <string_view>
#include <vector>

namespace lcg::market {

// Vast.ai's offer search answer, `{"offers": [offer, …]}` (GET or POST /api/v0/bundles/): one
// market_offer per element, in order. Listing id = `id` (an integer, as written); accelerator =
// `gpu_name`; GPU count = `num_gpus`; price = `dph_total` as written, the whole offer's on-demand
// USD per hour (empty when absent or null, or when the offer says `is_bid: true`: its price is an
// interruptible one; `min_bid` is never read); memory per GPU = `gpu_ram` (MB per card, read as
// MiB), else `gpu_total_ram` / `num_gpus`; hint text = `gpu_name` and `gpu_arch`.
// `verified`, `rentable` and `rented` do not decide whether an offer is a listing: every offer of
// the answer is one (docs/market-data.md says why).
// Refused whole: not JSON (exact_json.hpp), not an object with an `offers` array, an element that
// is not an object or has no integer `id`, a member above of the wrong JSON type.
pricing::outcome<std::vector<pricing::market_offer>> read_vast_bundles(std::string_view file);

}
