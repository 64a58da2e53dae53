#pragma once

#include "pricing/listing_mapping.hpp"
#include "pricing/outcome.hpp"

#include <string_view>
#include <vector>

namespace lcg::market {

// RunPod's GraphQL answer to a `gpuTypes` query, `{"data": {"gpuTypes": [GpuType, …]}}` (the one
// shape the API answers with; a bare array or `{"gpuTypes": …}` is refused): one market_offer per
// GpuType, in order, for the secure cloud's on-demand price. Listing id = `id` + "|secure";
// accelerator = `displayName` (else `id`); GPU count "1"; price = `securePrice` as written, per GPU
// per hour (empty when absent or null, or when `secureCloud` is false); memory per GPU =
// `memoryInGb` × 1024 MiB; hint text = `id` and `displayName`. `communityPrice` and the spot,
// cluster and term prices are never read.
// Refused whole: not JSON (exact_json.hpp), not that shape, an answer that reports GraphQL
// `errors` (it may be partial), a GpuType that is not an object or has no string `id`, a member
// above of the wrong JSON type.
pricing::outcome<std::vector<pricing::market_offer>> read_runpod_gpu_types(std::string_view file);

}
