#pragma once

#include "pricing/listing_mapping.hpp"
#include "pricing/outcome.hpp"
#include "pricing/rules.hpp"

#include <string_view>
#include <vector>

// Readers of the formats the GPU market publishes its offers in (DESIGN §7): each turns one raw file
// into market_offers, or refuses the whole file with the reason. Nothing here decides what a listing
// is; pricing/listing_mapping.hpp does.
namespace lcg::market {

enum class offer_format { skypilot_vms, vast_bundles, runpod_gpu_types };
// "skypilot-vms", "vast-bundles", "runpod-gpu-types"; anything else is refused, naming those.
pricing::outcome<offer_format> parse_offer_format(std::string_view text);
std::string_view to_string(offer_format f);

// What a source's SkyPilot GpuInfo SizeInMiB holds (the market README lists it per provider).
enum class memory_convention { per_gpu_mib, total_mib, per_gpu_gb };
pricing::outcome<memory_convention> parse_memory_convention(std::string_view text);  // "per-gpu-mib", …

// A SkyPilot catalog vms.csv (catalog v8): columns found by name, in any order, optional ones
// (UpstreamCloudId, AvailabilityZone, SpotPrice) used where present. The listing id is InstanceType|Region,
// plus |AvailabilityZone where the file has that column. From reader revision 2 on, a row whose
// SpotPrice is its Price has no on-demand price.
pricing::outcome<std::vector<pricing::market_offer>> read_skypilot_vms(std::string_view file, memory_convention memory,
                                                                       int reader = pricing::rules::offer_reader_revision);

// Any format: the one entry point import and audit use. `memory` is read for skypilot-vms only:
// vast-bundles and runpod-gpu-types state their units themselves (vast.hpp, runpod.hpp). `reader`
// is the revision to read with (rules.hpp: the import's, or the one a raw file was read with); one
// this build does not know is refused.
pricing::outcome<std::vector<pricing::market_offer>> read_offers(offer_format format, std::string_view file,
                                                                 memory_convention memory, int reader);

}
