#pragma once

#include "money.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

// Every constant of the published methodology, once. Outputs (JSON, Markdown, glossary, MCP) read
// them from here; nothing else may restate a number.
namespace lcg::pricing::rules {

// A tier's rate as a fraction of a base: numerator / denominator, applied then floored to the mill.
struct ratio {
    std::int64_t numerator;
    std::int64_t denominator;
};

inline constexpr ratio on_demand_of_median{70, 100};
inline constexpr ratio spot_of_on_demand{50, 100};
inline constexpr ratio reserved_of_on_demand{65, 100};

// The version of the rules above that a sheet was computed with. It is part of what a sheet's
// signature covers; raise it whenever a rule or constant that changes a published figure changes.
// Version 1 took the median of every observation; version 2 (DESIGN §2) takes each source's lower
// median first, so that no single seller sets the price. A sheet is audited by the version it names.
inline constexpr int rules_version = 2;
inline constexpr int oldest_rules_version = 1;

inline constexpr int min_observations = 5;  // version 1: observations; version 2: listings
inline constexpr int min_sources = 3;       // version 2: distinct sources with a listing of the model
// The smallest rate a sheet publishes in any tier: a rate that rounds down to $0.000 is not a price,
// so such a model goes unpriced that week, with the reason, like one with too few observations.
inline constexpr money min_published_rate = money::from_mills(1);
// No marketplace lists a GPU-hour near this; the bound keeps every product of prices inside int64.
inline constexpr money max_observed_price = money::from_dollars(100'000);
inline constexpr int window_days = 7;          // observations of the 7 days before the re-check
inline constexpr int reserved_term_months = 3;
inline constexpr int max_gpus_per_instance = 8;
inline constexpr int month_hours = 730;        // storage is prorated on a 730-hour month
inline constexpr int seconds_per_hour = 3600;

inline constexpr money storage_per_gb_month = money::from_micros(80'000);  // $0.08
inline constexpr money network_per_gb = money::from_micros(10'000);        // $0.01, in and out
inline constexpr money min_top_up = money::from_dollars(40);

inline constexpr int sla_target_permille = 999;  // 99.9 % monthly, on-demand and reserved
inline constexpr int reserved_break_even_percent = 65;  // reserved pays off above this utilisation

// PowerScore = 100 × a model's dense FP16 tensor TFLOPS (FP32 accumulate, no sparsity) / the
// reference's, published with one decimal, rounded half-up.
inline constexpr char const* power_score_reference_gpu = "rtx-3090";
inline constexpr std::int64_t power_score_reference_micro_tflops = 71'000'000;  // 71 TFLOPS

// Sizing (DESIGN §6): memory needed = parameters × bytes per parameter × 1.5.
inline constexpr ratio sizing_overhead{3, 2};
// A model needing more GPUs than one instance takes is priced as several instances, up to this
// many GPUs in all (128 nodes of 8); every cost of that many stays within 64 bits.
inline constexpr int max_priced_gpus = 1'024;

// Bounds on the inputs of the costing tools: wide enough for any real job, narrow enough that every
// product of the exact arithmetic stays within 64 bits (with 128-bit intermediates).
inline constexpr int max_job_hours = 8'760;                 // one year
inline constexpr std::int64_t max_storage_gb = 1'000'000;
inline constexpr std::int64_t max_network_gb = 10'000'000;  // egress and ingress, each
inline constexpr std::int64_t max_tokens_per_second = 100'000'000;
inline constexpr std::int64_t max_images_per_hour = 100'000'000;
inline constexpr std::int64_t max_params_b = 100'000;       // billions of parameters
inline constexpr int max_requested_vcpus = 4'096;
inline constexpr int max_requested_memory_gib = 65'536;
inline constexpr int max_requested_gpus = 64;               // instance check and estimates (several instances past a model's limit)
inline constexpr int max_compared_gpus = 8;
inline constexpr int quantity_decimals = 6;                 // decimals accepted in every quantity
inline constexpr std::int64_t max_needed_vram_gb = 10'000'000;  // find_cheapest's vram_gb
inline constexpr std::int64_t max_filter_vram_gb = 100'000;      // the min_vram_gb filter
inline constexpr std::size_t max_glossary_query_characters = 200;  // a glossary search (q) or term
// An unknown glossary name is compared, for suggestions, by this many bytes at most (the longest
// slug has 26): a long input costs what a short typo does.
inline constexpr std::size_t max_glossary_suggestion_bytes = 32;
inline constexpr std::size_t glossary_suggestions = 3;  // offered when no entry is named so
inline constexpr int cheapest_alternatives = 4;             // shown after the cheapest configuration
inline constexpr int notable_move_percent = 5;          // a feed entry names models whose on-demand moved this much
// Pages for people show money to the mill (3 decimals of a dollar), rounded half away from zero;
// the exact figure, as JSON publishes it, is a link away. A rate is a whole number of mills anyway.
inline constexpr int shown_money_decimals = 3;
// The finest a figure is published in: 10^-8 dollars (a cap is 70 % of a median of half micros).
inline constexpr int finest_figure_decimals = 8;
// The week-on-week change of a rate beside each sparkline, in percent with this many decimals,
// rounded half away from zero.
inline constexpr int change_percent_decimals = 1;
// A sparkline spans its own series' lowest to highest rate, but never less than this fraction of the
// highest: a flat or nearly flat series is drawn as a line across the middle, not as noise blown up
// to the full height.
inline constexpr ratio sparkline_min_span_of_top{2, 100};
inline constexpr std::size_t max_gpu_name_bytes = 64;  // a GPU named by the words of its name
inline constexpr int gpu_candidates = 5;                // offered when a name fits no model or several
// An MCP tool result longer than this (about 4,000 tokens, at bytes_per_token, a rough mean for
// JSON) adds a note saying how to narrow it.
inline constexpr std::size_t bytes_per_token = 4;
inline constexpr std::size_t assistant_result_bytes = 4'000 * bytes_per_token;
// The most resources one page of MCP resources/list holds (nextCursor gives the next).
inline constexpr std::size_t mcp_page_size = 50;

// Reading another instance's public documents (`audit --url`, a mirror): a server that sends
// nothing for this long is given up, a whole answer must arrive within the total, and no document
// may be larger than the cap (a week's canonical CSV of a million observations is about 60 MB).
inline constexpr int fetch_timeout_seconds = 30;
inline constexpr int fetch_total_seconds = 600;
// A mirror gives up an upstream answer that averages less than this once 10 s have passed (a drip
// of a byte a second would otherwise hold each request for the whole total).
inline constexpr std::uint64_t upstream_min_bytes_per_second = 1024;
inline constexpr std::uint64_t max_fetched_bytes = 256ull * 1024 * 1024;
// The largest signed document (a sheet, the catalog, the sheet index, a version's signed bytes):
// the publication log stores none larger (migration 014), and a mirror reads none larger from its
// upstream, so that a hostile one cannot make it hold the fetch cap per week or per log entry.
inline constexpr std::uint64_t max_signed_document_bytes = 16ull * 1024 * 1024;
// A week's inputs, whose length a signed index gives, are streamed rather than held: they are bound
// by that length instead of the cap, and given the longer of the total and the time they take at
// this rate (a week of ten million rows, about 700 MB, at most about 11 minutes).
inline constexpr std::uint64_t upstream_inputs_bytes_per_second = 1024 * 1024;
// The largest raw file of market offers import-listings and collect take (the largest SkyPilot
// catalog file, RunPod's, is about 2 MB).
inline constexpr std::uint64_t max_listings_file_bytes = 64ull * 1024 * 1024;
// The revision of the readers of the market's formats that imports use, recorded with each raw
// file so that an auditor re-reads it as it was read: 1, the first; 2, a SkyPilot row whose
// SpotPrice is the same amount as its Price has no on-demand price (an auction's floor).
inline constexpr int offer_reader_revision = 2;
// The most fields one record of an input CSV may have (observations have 6 at most, a SkyPilot
// catalog about 12): a line of commas would otherwise cost 32 bytes of memory per byte read.
inline constexpr std::size_t max_csv_fields = 64;
// How often a mirror asks its upstream whether anything changed, by default.
inline constexpr int upstream_interval_seconds = 60;
// A sheet is on time when published on its Monday (within this many seconds of its effective_from);
// one published later is marked late by the publication log, by how much, and `audit` reports it.
inline constexpr int publication_grace_seconds = 24 * 3600;

// The links data moves over between GPUs, with the figures the lesson on multi-GPU work states:
// NVLink within a node (per GPU, in gigabytes per second), InfiniBand and Ethernet between nodes
// (per network card, in gigabits per second, eight bits to the byte). Times are compared with the
// Hopper NVLink, the lesson's reference ("NVLink is 18 times InfiniBand").
enum class rate_unit { gigabytes_per_second, gigabits_per_second };
struct link_rate {
    std::string_view id;
    std::string_view name;
    bool between_nodes;
    std::int64_t rate;  // in `unit`
    rate_unit unit;
};
inline constexpr link_rate links[] = {
    {"nvlink-blackwell", "NVLink 5 (Blackwell)", false, 1'800, rate_unit::gigabytes_per_second},
    {"nvlink-hopper", "NVLink 4 (Hopper)", false, 900, rate_unit::gigabytes_per_second},
    {"infiniband-ndr", "InfiniBand NDR, per NIC", true, 400, rate_unit::gigabits_per_second},
    {"ethernet-100g", "Ethernet 100 GbE, per NIC", true, 100, rate_unit::gigabits_per_second},
};
inline constexpr std::string_view reference_link = "nvlink-hopper";
// The fabric a model sharded over several nodes (or instances) crosses, one NIC per GPU.
inline constexpr std::string_view between_nodes_link = "infiniband-ndr";
// The NVLink racks of the catalog's models: a GB200 NVL72 joins 72 Blackwell GPUs, with 36 Grace
// CPUs, in one NVLink domain (gpu-facts-notes §3), over the link named.
struct nvlink_rack {
    std::string_view id;
    std::string_view name;
    std::string_view gpu;
    int gpus;
    int cpus;
    std::string_view link;
};
inline constexpr nvlink_rack nvlink_racks[] = {{"gb200-nvl72", "GB200 NVL72", "gb200", 72, 36, "nvlink-blackwell"}};

// Where the lesson's node totals count another per-GPU memory than the catalog: it takes the
// B200's physical 192 GB, where an HGX B200 exposes the 180 GB the catalog lists (gpu-facts-notes §1).
struct assumed_vram {
    std::string_view gpu;
    int vram_gb;
};
inline constexpr assumed_vram lesson_vram[] = {{"b200", 192}};

// The formats each architecture's cores compute in natively (a tensor or matrix rate is published
// for it), with the documents that say so. A format missing from its list is at best emulated: the
// weights stored in it and widened to `widened_format` in each kernel, at that format's rate.
struct native_formats {
    std::string_view architecture;  // as the catalog names it
    std::string_view formats[6];    // precision ids; the unused ones empty
    std::string_view source;
};
inline constexpr native_formats native_precisions[] = {
    {"Turing", {"fp32", "fp16", "int8", "int4"},
     "NVIDIA Turing architecture whitepaper, Turing Tensor Cores and Table 1 (FP16, INT8 and INT4; no BF16, no FP8)"},
    {"Ampere", {"fp32", "fp16", "bf16", "int8", "int4"},
     "NVIDIA A100 Tensor Core GPU architecture whitepaper and GA102 whitepaper, Appendix A (BF16, INT8 and INT4 "
     "rows; no FP8)"},
    {"Ada Lovelace", {"fp32", "fp16", "bf16", "fp8", "int8", "int4"},
     "NVIDIA Ada GPU architecture whitepaper v2.1, Appendix A, and the L4, L40 and L40S datasheets (FP8, INT8 and "
     "INT4 tensor rows)"},
    {"Hopper", {"fp32", "fp16", "bf16", "fp8", "int8"},
     "NVIDIA H100 Tensor Core GPU architecture whitepaper, Table 1, and the H100 and H200 datasheets (FP8 and INT8 "
     "rows; no INT4)"},
    {"Blackwell", {"fp32", "fp16", "bf16", "fp8", "int8"},
     "NVIDIA HGX B200 and B300 specifications and the RTX Blackwell whitepaper, Table 3 (FP8, FP4 and INT8; no "
     "INT4)"},
    {"CDNA3", {"fp32", "fp16", "bf16", "fp8", "int8"},
     "AMD CDNA 3 architecture whitepaper, Tables 1 and 2 (FP8 and INT8 matrix rates; no INT4)"},
    {"CDNA4", {"fp32", "fp16", "bf16", "fp8", "int8"},
     "AMD CDNA 4 architecture whitepaper, Tables 1 and 2 (FP8, MXFP6, MXFP4 and INT8; no INT4)"},
};
inline constexpr std::string_view widened_format = "fp16";
// What a model's own documents add to its architecture's list.
struct native_caveat {
    std::string_view gpu;
    std::string_view text;
};
inline constexpr native_caveat native_caveats[] = {
    {"b300", "INT8 is listed at about a thirtieth of the B200's rate (HGX B300: 2 POPS with sparsity for eight "
             "GPUs, against 72 for the HGX B200)"},
    {"rtx-pro-6000-blackwell", "NVIDIA publishes no INT8 rate for this card; INT8 is that of its GB202 chip (RTX "
                               "Blackwell whitepaper, Table 3)"},
};

// MIG cuts a GPU of 7 compute slices into 8 memory slices (the MIG User Guide's 1/8, 2/8, 4/8);
// a GPU of fewer compute slices (the RTX PRO 6000 Blackwell's 4) has as many memory slices.
inline constexpr int mig_full_compute_slices = 7;
inline constexpr int mig_memory_slices = 8;

inline constexpr std::int64_t bits_per_byte = 8;
inline constexpr std::int64_t lesson_transfer_gb = 10;      // the lesson's example: 10 GB moved
inline constexpr std::int64_t max_transfer_gb = 1'000'000;  // what transfer_time takes

// rent_vs_buy: every figure is the user's (no default purchase price, power or tariff); these only
// bound them, far above any real machine, so that every product of the comparison stays exact.
inline constexpr money max_purchase_price = money::from_dollars(100'000'000);
inline constexpr std::int64_t max_power_watts = 200'000;          // a rack of 72 Blackwell GPUs draws about 130 kW
inline constexpr money max_electricity_price = money::from_dollars(2);  // per kWh
inline constexpr money max_hosting_per_month = money::from_dollars(1'000'000);
inline constexpr int max_horizon_months = 120;
inline constexpr int longest_break_even_months = 1'200;  // a break-even later than 100 years is not given
inline constexpr int watts_per_kilowatt = 1'000;
inline constexpr int utilisation_decimals = 2;  // a percentage to the hundredth

}
