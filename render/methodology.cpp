#include "render/methodology.hpp"
#include "render/resources.hpp"

#include "render/costing_json.hpp"
#include "render/dataset.hpp"
#include "render/json.hpp"
#include "render/markdown_text.hpp"

#include "pricing/lifecycle.hpp"
#include "pricing/money.hpp"
#include "pricing/rules.hpp"

#include <boost/json/array.hpp>

#include <string>

namespace lcg::render {

namespace {

namespace json = boost::json;
namespace rules = pricing::rules;

std::string fraction(rules::ratio r) { return pricing::decimal_string(r.numerator * 100 / r.denominator, 2, 2); }
std::string dollars(pricing::money m, int decimals) { return pricing::to_decimal(m, decimals); }

json::object rule(std::string id, std::string sentence, std::string formula)
{
    return {{"id", std::move(id)}, {"rule", std::move(sentence)}, {"formula", std::move(formula)}};
}

json::object constants(language l)
{
    return {{"on_demand_ratio_of_median", fraction(rules::on_demand_of_median)},
            {"spot_ratio_of_on_demand", fraction(rules::spot_of_on_demand)},
            {"reserved_ratio_of_on_demand", fraction(rules::reserved_of_on_demand)},
            {"rules_version", rules::rules_version},
            {"minimum_observations", rules::min_observations},
            {"minimum_sources", rules::min_sources},
            {"minimum_published_rate", dollars(rules::min_published_rate, 3)},
            {"window_days", rules::window_days},
            {"recheck", say(l, "method.recheck")},
            {"rounding", say(l, "method.rounding", {{"mill", locale::dollars(l, "0.001")}})},
            {"month_hours", rules::month_hours},
            {"storage_per_gb_month", dollars(rules::storage_per_gb_month, 2)},
            {"network_per_gb", dollars(rules::network_per_gb, 2)},
            {"billing", say(l, "method.billing")},
            {"gpus_per_instance", say(l, "method.gpus_per_instance", {{"max", std::to_string(rules::max_gpus_per_instance)}})},
            {"regions", say(l, "method.regions")},
            {"reserved_term_months", rules::reserved_term_months},
            {"reserved_break_even_utilisation_percent", rules::reserved_break_even_percent},
            {"minimum_top_up", dollars(rules::min_top_up, 2)},
            {"credits_expire", false},
            {"sla_monthly_target_percent", pricing::decimal_string(rules::sla_target_permille, 1, 1)}};
}

// Each rule as a sentence (its message "method.rule.ID") and a formula, which is the same in every language.
json::array rule_list(language l)
{
    std::string const od = fraction(rules::on_demand_of_median);
    std::string const days = std::to_string(rules::window_days);
    std::string const min_obs = std::to_string(rules::min_observations);
    std::string const min_sources = std::to_string(rules::min_sources);
    std::string const version = std::to_string(rules::rules_version);
    std::string const min_rate = dollars(rules::min_published_rate, 3);
    auto const r = [l](std::string id, std::initializer_list<fill> values, std::string formula) {
        return rule(id, say(l, "method.rule." + id, values), std::move(formula));
    };
    return {
        r("reference", {{"days", days}}, "window = [monday − " + days + " days, monday)"),
        r("per_gpu", {}, "per_gpu_micros = round_half_up(instance_price_micros / gpus)"),
        r("median", {{"version", version}},
          "source_price = sorted(listings)[ceil(k / 2) − 1]; m2 = 2 × median = a + b (even) or 2 × middle (odd) over "
          "the sources' prices, in micro-dollars"),
        r("on_demand", {{"percent", md::percent(l, rules::on_demand_of_median)}}, "on_demand_mills = floor(7 × m2 / 20000)"),
        r("spot", {{"percent", md::percent(l, rules::spot_of_on_demand)}}, "spot_mills = floor(on_demand_mills × 50 / 100)"),
        r("reserved",
          {{"months", std::to_string(rules::reserved_term_months)},
           {"percent", md::percent(l, rules::reserved_of_on_demand)},
           {"break_even", locale::percent(l, std::to_string(rules::reserved_break_even_percent))}},
          "reserved_mills = floor(on_demand_mills × 65 / 100)"),
        r("cap", {{"ratio", number(l, od)}}, "on_demand_micros × 20 ≤ 7 × m2"),
        r("minimum_observations", {{"count", min_obs}, {"sources", min_sources}},
          "sources < " + min_sources + " or listings < " + min_obs + " ⇒ available = false"),
        r("minimum_rate", {{"rate", l == language::en ? min_rate : locale::dollars(l, min_rate)}},
          "min(on_demand, spot, reserved) < " + min_rate + " ⇒ available = false"),
        r("multi_gpu", {{"max", std::to_string(rules::max_gpus_per_instance)}}, "instance_rate = n × per_gpu_rate"),
        r("per_second", {}, "micros = round_half_up(rate_micros × seconds / 3600)"),
        r("storage",
          {{"price", l == language::en ? dollars(rules::storage_per_gb_month, 2)
                                       : locale::dollars(l, dollars(rules::storage_per_gb_month, 2))},
           {"hours", std::to_string(rules::month_hours)}},
          "storage_micros = round_half_up(gb × 80000 × seconds / (730 × 3600))"),
        r("network",
          {{"price", l == language::en ? dollars(rules::network_per_gb, 2)
                                       : locale::dollars(l, dollars(rules::network_per_gb, 2))}},
          "network_micros = gb × 10000"),
        r("regions", {}, "rate(region) = rate"),
        r("several_instances", {{"max", std::to_string(rules::max_gpus_per_instance)}},
          "instances = ceil(gpus / max_gpus_per_instance); cost = gpus × per_gpu_rate"),
        r("sizing", {{"overhead", number(l, ratio_text(rules::sizing_overhead))}, {"max", std::to_string(rules::max_gpus_per_instance)}},
          "needed_gb = params_b × bytes_per_param × " + ratio_text(rules::sizing_overhead) +
              "; gpus_needed = ceil(needed_gb / vram_gb)"),
        r("catalog_memory", {}, "vram_gb(b200) = 180"),
        r("mig", {}, "compute_fraction = compute_slices / the GPU's slices; tflops(profile) = round_half_up(tflops × "
                     "compute_slices / slices); sms(profile) = compute_slices × floor(sm_count / slices)"),
        r("native_precision", {{"wide", std::string(rules::widened_format)}},
          "native(gpu, p) = p ∈ native_precisions(gpu.architecture); rank(native) < rank(emulated)"),
        r("rules_version",
          {{"version", version}, {"oldest", std::to_string(rules::oldest_rules_version)}, {"count", min_obs}},
          "sheet.rules_version = " + version + "; audit(sheet) uses rules(sheet.rules_version); version " +
              std::to_string(rules::oldest_rules_version) + ": median of all observations"),
    };
}

json::array audit_steps(language l)
{
    json::array steps;
    for (int i = 1; i <= 9; ++i)
        steps.push_back(json::string(say(l, "method.audit." + std::to_string(i), {{"week", "{week}"}})));
    return steps;
}

}

namespace {

json::object signatures(pricing::key_ring const& keys, language l)
{
    json::array published;
    for (auto const& k : keys.keys)
        published.push_back(public_key_json(k));
    return {
        {"algorithm", say(l, "method.sig.algorithm")},
        {"signed_bytes",
         {{"url", template_of(resource::signed_bytes)},
          {"format", say(l, "method.sig.format")},
          {"example",
           "lowcostgpu-sheet-v1\nweek 2026-W49\n…\nrow h100-sxm true 60 2.400 1.680 1.680 0.840 1.092 0.000 -\n"}}},
        {"signature", say(l, "method.sig.signature", {{"week", "{week}"}})},
        {"key_id", say(l, "method.sig.key_id")},
        {"keys_url", path_of(resource::keys)},
        {"validity", say(l, "method.sig.validity")},
        {"how_to_verify",
         json::array{
             "W=2026-W49 BASE=https://lowcostgpu.example",
             "curl -s $BASE/v1/sheets/$W/signed.txt > sheet.bytes",
             "curl -s $BASE/v1/sheets/$W/signature.txt | base64 -d > sheet.sig",
             json::string("curl -s $BASE/.well-known/lowcostgpu-keys/KEY_ID.pem > key.pem   # " +
                          say(l, "method.sig.key_id_comment")),
             "openssl pkeyutl -verify -pubin -inkey key.pem -rawin -in sheet.bytes -sigfile sheet.sig"}},
        {"also_check", say(l, "method.sig.also_check")},
        {"catalog",
         {{"url", path_of(resource::catalog)}, {"signature_url", path_of(resource::catalog_signature)}, {"covers", say(l, "method.sig.catalog")}}},
        {"keys", std::move(published)}};
}

json::object gpu_lifecycle(language l)
{
    json::array states;
    for (auto id : pricing::gpu_states)
        states.push_back({{"id", id}, {"meaning", say(l, "lifecycle.state." + std::string(id))}});
    json::array moves;
    for (auto const& m : pricing::gpu_lifecycle) {
        json::array needs;
        for (auto id : m.needs)
            if (!id.empty())
                needs.push_back({{"id", id}, {"meaning", say(l, "lifecycle.needs." + std::string(id))}});
        moves.push_back({{"action", m.action},
                         {"from", m.from.empty() ? json::value(nullptr) : json::value(m.from)},
                         {"to", m.to.empty() ? json::value(nullptr) : json::value(m.to)},
                         {"needs", std::move(needs)},
                         {"meaning", say(l, "lifecycle.action." + std::string(m.action))}});
    }
    json::array kinds;
    for (auto id : pricing::gpu_kinds)
        kinds.push_back({{"id", id}, {"meaning", say(l, "lifecycle.kind." + std::string(id))}});
    return {{"states", std::move(states)},
            {"moves", std::move(moves)},
            {"kinds", std::move(kinds)},
            {"vm_type_change", say(l, "lifecycle.vm_type_change")}};
}

}

json::object methodology_json(pricing::key_ring const& keys, std::span<const pricing::market_source> sources, language l)
{
    return {{"summary", say(l, "method.summary", {{"percent", md::percent(l, rules::on_demand_of_median)}})},
            {"money", say(l, "method.money")},
            {"constants", constants(l)},
            {"rules", rule_list(l)},
            {"sources", sources_list_json(sources)},
            {"how_to_audit", audit_steps(l)},
            {"canonical_csv",
             {{"columns", "observed_at,gpu,price_per_gpu_hour,source,listing_id"},
              {"provenance", say(l, "method.csv.provenance")},
              {"order", say(l, "method.csv.order")},
              {"format", say(l, "method.csv.format")},
              {"spreadsheets", say(l, "method.csv.spreadsheets")}}},
            {"billing", billing_json(l)},
            {"gpu_lifecycle", gpu_lifecycle(l)},
            {"signatures", signatures(keys, l)},
            {"license", license_json()}};
}

}
