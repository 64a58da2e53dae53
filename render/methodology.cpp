#include "render/methodology.hpp"

#include "render/costing_json.hpp"
#include "render/json.hpp"
#include "render/markdown_text.hpp"

#include "pricing/money.hpp"
#include "pricing/rules.hpp"

#include <boost/json/array.hpp>

#include <string>

namespace lcg::render {

namespace {

namespace json = boost::json;
namespace rules = pricing::rules;
using md::percent;

std::string fraction(rules::ratio r) { return pricing::decimal_string(r.numerator * 100 / r.denominator, 2, 2); }
std::string dollars(pricing::money m, int decimals) { return pricing::to_decimal(m, decimals); }

json::object rule(std::string id, std::string sentence, std::string formula)
{
    return {{"id", std::move(id)}, {"rule", std::move(sentence)}, {"formula", std::move(formula)}};
}

json::object constants()
{
    return {{"on_demand_ratio_of_median", fraction(rules::on_demand_of_median)},
            {"spot_ratio_of_on_demand", fraction(rules::spot_of_on_demand)},
            {"reserved_ratio_of_on_demand", fraction(rules::reserved_of_on_demand)},
            {"minimum_observations", rules::min_observations},
            {"minimum_published_rate", dollars(rules::min_published_rate, 3)},
            {"window_days", rules::window_days},
            {"recheck", "every Monday 00:00 UTC"},
            {"rounding", "down to the mill ($0.001)"},
            {"month_hours", rules::month_hours},
            {"storage_per_gb_month", dollars(rules::storage_per_gb_month, 2)},
            {"network_per_gb", dollars(rules::network_per_gb, 2)},
            {"billing", "per second"},
            {"gpus_per_instance", "1 to " + std::to_string(rules::max_gpus_per_instance) + " at the same per-GPU rate"},
            {"regions", "uniform prices in all regions"},
            {"reserved_term_months", rules::reserved_term_months},
            {"reserved_break_even_utilisation_percent", rules::reserved_break_even_percent},
            {"minimum_top_up", dollars(rules::min_top_up, 2)},
            {"credits_expire", false},
            {"sla_monthly_target_percent", pricing::decimal_string(rules::sla_target_permille, 1, 1)}};
}

json::array rule_list()
{
    std::string const od = fraction(rules::on_demand_of_median);
    std::string const days = std::to_string(rules::window_days);
    std::string const min_obs = std::to_string(rules::min_observations);
    return {
        rule("reference",
             "The reference for each GPU model is the median per-GPU hourly price of the on-demand listings observed "
             "on the public GPU marketplace during the " + days + " days before the re-check, every Monday 00:00 UTC.",
             "window = [monday − " + days + " days, monday)"),
        rule("median",
             "Observations are sorted; an odd count takes the middle one, an even count the mean of the two middle "
             "ones, kept exact (it may end in half a micro-dollar).",
             "m2 = 2 × median = a + b (even) or 2 × middle (odd), in micro-dollars"),
        rule("on_demand", "The on-demand rate is " + percent(rules::on_demand_of_median) +
                              " of the median, rounded down to the mill.",
             "on_demand_mills = floor(7 × m2 / 20000)"),
        rule("spot", "The interruptible (spot) rate is " + percent(rules::spot_of_on_demand) +
                         " of on-demand, rounded down to the mill. There is no bidding.",
             "spot_mills = floor(on_demand_mills × 50 / 100)"),
        rule("reserved",
             "The reserved rate, for a " + std::to_string(rules::reserved_term_months) +
                 "-month commitment locked for the term, is " + percent(rules::reserved_of_on_demand) +
                 " of on-demand, rounded down to the mill; it pays off above " +
                 std::to_string(rules::reserved_break_even_percent) + " % utilisation.",
             "reserved_mills = floor(on_demand_mills × 65 / 100)"),
        rule("cap", "No published on-demand rate exceeds " + od + " × the median; a sheet that fails this exact "
                        "check is not published.",
             "on_demand_micros × 20 ≤ 7 × m2"),
        rule("minimum_observations", "A model with fewer than " + min_obs +
                                         " observations in the window gets no price that week; no number is "
                                         "carried over from an earlier week.",
             "count < " + min_obs + " ⇒ available = false"),
        rule("minimum_rate",
             "A model whose on-demand, spot or reserved rate would be below " +
                 dollars(rules::min_published_rate, 3) +
                 " after rounding down gets no price that week, with the reason; it never stops the sheet.",
             "min(on_demand, spot, reserved) < " + dollars(rules::min_published_rate, 3) + " ⇒ available = false"),
        rule("multi_gpu", "An instance of n GPUs costs n times the per-GPU rate, from 1 to " +
                              std::to_string(rules::max_gpus_per_instance) + " GPUs.",
             "instance_rate = n × per_gpu_rate"),
        rule("per_second", "GPU time, storage and network are billed per second; a rate is prorated and rounded "
                           "half-up to the micro-dollar.",
             "micros = round_half_up(rate_micros × seconds / 3600)"),
        rule("storage", "Storage costs " + dollars(rules::storage_per_gb_month, 2) +
                            " per GB-month, running or stopped, until destroyed, prorated on a " +
                            std::to_string(rules::month_hours) + "-hour month.",
             "storage_micros = round_half_up(gb × 80000 × seconds / (730 × 3600))"),
        rule("network", "Network traffic costs " + dollars(rules::network_per_gb, 2) +
                            " per GB (10^9 bytes), ingress and egress alike, in every region.",
             "network_micros = gb × 10000"),
        rule("regions", "Prices are the same in every region.", "rate(region) = rate"),
        rule("several_instances",
             "A job needing more GPUs than one instance of its model takes (the model's max_gpus_per_instance, at "
             "most " + std::to_string(rules::max_gpus_per_instance) +
                 ") runs on several instances, each GPU at the same per-GPU rate; estimates, sizing and find_cheapest "
                 "state the number of instances, and sizing and find_cheapest prefer one instance.",
             "instances = ceil(gpus / max_gpus_per_instance); cost = gpus × per_gpu_rate"),
        rule("sizing",
             "Memory a model needs = parameters × bytes per parameter × " + ratio_text(rules::sizing_overhead) +
                 ": the weights plus room for activations and the cache. The glossary's rule of thumb (about 2 GB per "
                 "billion parameters at FP16) is the weights alone, before that room. GPUs = ceil(memory / VRAM). "
                 "Sizing gives that count, the cheapest, and the next power of two (1, 2, 4, 8; then whole nodes of " +
                 std::to_string(rules::max_gpus_per_instance) +
                 "), the practical choice because tensor parallelism splits a model's attention heads evenly over 2, "
                 "4 or 8 GPUs.",
             "needed_gb = params_b × bytes_per_param × " + ratio_text(rules::sizing_overhead) +
                 "; gpus_needed = ceil(needed_gb / vram_gb)"),
        rule("catalog_memory",
             "Sizing uses each model's memory as the catalog gives it. The B200 has 180 GB, what an HGX B200 offers; "
             "the 192 GB that early material and the multi-GPU lesson quote is its physical memory. Both give the "
             "lesson's counts: 70 B at 1 byte (105 GB) on 1 B200, 400 B (600 GB) on 4.",
             "vram_gb(b200) = 180"),
        rule("mig",
             "GPUs are rented whole, to one tenant; MIG slices are not rented. Sizing names the smallest slice that "
             "would hold a model on a GPU you partition yourself; a profile that takes the whole GPU is the GPU "
             "itself, offered as one GPU. A slice's compute is its share of the GPU's slices: sevenths on most "
             "models, quarters on the RTX PRO 6000 Blackwell.",
             "compute_fraction = compute_slices / the GPU's slices"),
    };
}

json::array audit_steps()
{
    return {
        "Fetch the sheet: GET /v1/sheets/{week} (or /v1/prices for the one in effect).",
        "Fetch its inputs as the canonical CSV: GET /v1/sheets/{week}/observations.csv.",
        "Check that the SHA-256 of those exact bytes equals the sheet's inputs_sha256.",
        "For each model, take its prices from the CSV and compute the median exactly (keep twice the median as an "
        "integer of micro-dollars).",
        "Apply the rules above with integer arithmetic and compare median, cap, on-demand, spot, reserved and "
        "headroom with the published strings.",
        "Check that every on-demand rate satisfies on_demand_micros × 20 ≤ 7 × m2.",
        "Check the rest of what the sheet states: effective from its week's Monday 00:00 UTC to the next Monday, "
        "every observation inside the 7 days before that Monday, its observation count and priced_models, the "
        "reason of every unpriced model, and that the CSV is in canonical form.",
        "Check the sheet's Ed25519 signature with the published key (see signatures below).",
        "Or run `lowcostgpu audit --url BASE --all`, which does all of this and exits non-zero on any difference.",
    };
}

}

namespace {

json::object signatures(pricing::key_ring const& keys)
{
    json::array published;
    for (auto const& k : keys.keys)
        published.push_back(public_key_json(k));
    return {
        {"algorithm", "Ed25519 (RFC 8032), signed when the sheet is published"},
        {"signed_bytes",
         {{"url", "/v1/sheets/{week}/signed.txt"},
          {"format",
           "UTF-8 text, one line per item, each ended by \n (the last one too). Line 1: "
           "lowcostgpu-sheet-v1. Then, each as NAME, one space, VALUE: week, effective_from, effective_until, "
           "published_at, rules_version, inputs_sha256, observations, with the values of the sheet's JSON. Then one "
           "line per row of prices, in the sheet's order: row GPU AVAILABLE OBSERVATIONS MEDIAN CAP ON_DEMAND SPOT "
           "RESERVED HEADROOM REASON, separated by single spaces, AVAILABLE being true or false, a figure the row "
           "lacks written -, REASON the rest of the line (- for a priced row). Figures are the JSON strings as "
           "published."},
          {"example",
           "lowcostgpu-sheet-v1\nweek 2026-W49\n…\nrow h100-sxm true 60 2.400 1.680 1.680 0.840 1.092 0.000 -\n"}}},
        {"signature", "the sheet's signature member: 64 bytes in base64 (also /v1/sheets/{week}/signature.txt)"},
        {"key_id",
         "the first 16 hex digits of the SHA-256 of the raw 32-byte public key; recompute it with: openssl pkey "
         "-pubin -in key.pem -outform DER | tail -c 32 | sha256sum | cut -c1-16"},
        {"keys_url", "/.well-known/lowcostgpu-keys.json"},
        {"validity", "a sheet verifies with the key its key_id names when valid_from <= published_at < valid_until "
                     "(no valid_until: still in use); retired keys stay listed so old sheets keep verifying"},
        {"how_to_verify",
         json::array{
             "W=2026-W49 BASE=https://lowcostgpu.example",
             "curl -s $BASE/v1/sheets/$W/signed.txt > sheet.bytes",
             "curl -s $BASE/v1/sheets/$W/signature.txt | base64 -d > sheet.sig",
             "curl -s $BASE/.well-known/lowcostgpu-keys/KEY_ID.pem > key.pem   # KEY_ID: the sheet's key_id",
             "openssl pkeyutl -verify -pubin -inkey key.pem -rawin -in sheet.bytes -sigfile sheet.sig"}},
        {"also_check",
         "that sheet.bytes are the lines rebuilt from the sheet's JSON, that key.pem has the key_id and is a key you "
         "trust (fetched once, compared with what the operator publishes elsewhere), and that the canonical CSV "
         "hashes (sha256sum) to inputs_sha256; `lowcostgpu audit` does all of it"},
        {"keys", std::move(published)}};
}

}

json::object methodology_json(pricing::key_ring const& keys)
{
    return {{"summary", "LowCostGPU's on-demand price for every GPU model is at most " +
                            percent(rules::on_demand_of_median) +
                            " of the public marketplace median, re-checked weekly; every input and rule is "
                            "published so anyone can recompute it."},
            {"money", "amounts are exact: integer micro-dollars inside, decimal strings in JSON"},
            {"constants", constants()},
            {"rules", rule_list()},
            {"how_to_audit", audit_steps()},
            {"canonical_csv",
             {{"columns", "observed_at,gpu,price_per_gpu_hour,source,listing_id"},
              {"provenance",
               "an observation may name the public listing it was seen on: a sixth column, source_url (an http:// or "
               "https:// URL, at most 2048 characters of visible ASCII, empty when unknown), in the import CSV and in "
               "the canonical CSV. The canonical CSV has that column only when at least one of its observations has "
               "a URL, so inputs without URLs, and every sheet published before the column existed, keep their "
               "bytes and their inputs_sha256"},
              {"order", "gpu, then observed_at, then price (numerically), then listing_id"},
              {"format", "UTF-8, header included, prices with exactly 6 decimals, \\n line ends, RFC 4180 quoting"},
              {"spreadsheets",
               "byte-exact, so its SHA-256 can be checked: a source or listing_id starting with = + - @ is written as "
               "it was observed. Open it as text, or import it with every column as text; the other CSV tables "
               "prefix such cells with an apostrophe"}}},
            {"billing", billing_json()},
            {"signatures", signatures(keys)}};
}

}
