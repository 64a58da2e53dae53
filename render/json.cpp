// JSON of the price sheet and of one model's price on it, the billing terms, the signing keys,
// problems, and the shared parts of every document.
#include "render/json.hpp"
#include "render/resources.hpp"

#include "render/dataset.hpp"
#include "render/json_parts.hpp"

#include "pricing/history.hpp"
#include "pricing/rules.hpp"

#include <boost/json/serialize.hpp>

#include <algorithm>

namespace lcg::render {

namespace {

namespace json = boost::json;
using json_parts::optional_text;
using pricing::to_decimal;

// A rules version 2 row's market: how many listings from how many sources, the spread of their
// per-GPU prices, and each source's price (the lower median of its listings).
void add_market(json::object& o, pricing::sheet_row const& row)
{
    auto const m = pricing::published_market(row);
    o["listings"] = row.observations;
    o["sources"] = row.sources;
    o["market"] = {{"min", m.min}, {"p25", m.p25}, {"median", m.median}, {"p75", m.p75}, {"max", m.max}};
    json::array by_source;
    for (auto const& s : pricing::published_sources(row))
        by_source.push_back({{"source", s.source}, {"price", s.price}, {"listings", s.listings}});
    o["by_source"] = std::move(by_source);
}

}

json::object figure_json(pricing::figure const& f) { return {{"value", f.value}, {"confirmed", f.confirmed}}; }

json::value optional_figure_json(std::optional<pricing::figure> const& f)
{
    return f ? figure_json(*f) : json::value(nullptr);
}

bool is_sample(pricing::price_sheet const* sheet) { return sheet && sheet->is_sample(); }

bool any_sample(std::span<const pricing::price_sheet> sheets)
{
    return std::any_of(sheets.begin(), sheets.end(), [](pricing::price_sheet const& s) { return s.is_sample(); });
}


json::array string_array(std::vector<std::string> const& items)
{
    json::array out;
    for (auto const& s : items)
        out.push_back(json::value(s));
    return out;
}

json::object sheet_row_json(pricing::sheet_row const& row, pricing::gpu_model const* model)
{
    json::object o;
    o["gpu"] = row.gpu;
    if (model)
        o["name"] = model->name;
    o["available"] = row.available();
    o["observations"] = row.observations;
    auto const f = pricing::published_figures(row);
    if (!f.median.empty()) {
        o["median"] = f.median;
        o["cap"] = f.cap;
    }
    if (row.rates) {
        o["on_demand"] = f.on_demand;
        o["spot"] = f.spot;
        o["reserved"] = f.reserved;
        o["headroom"] = f.headroom;
    } else {
        o["reason"] = row.unavailable_reason;
    }
    if (row.market)
        add_market(o, row);
    return o;
}

json::object sheet_json(pricing::price_sheet const& sheet, pricing::catalog const& catalog, language lang,
                        pricing::publication_record const* record)
{
    std::vector<pricing::sheet_row const*> rows;
    for (auto const& row : sheet.rows)
        rows.push_back(&row);
    return sheet_json(sheet, catalog, rows, lang, record);
}

json::object publication_json(pricing::publication_record const& record)
{
    json::array versions;
    for (auto const& v : record.versions)
        versions.push_back(json::object{{"log_index", v.log_index},
                                        {"kind", v.kind},
                                        {"published_at", pricing::to_rfc3339(v.published_at)},
                                        {"logged_at", pricing::to_rfc3339(v.logged_at)},
                                        {"reason", optional_text(v.reason)},
                                        {"signed_bytes", path_of(resource::log_signed_bytes, std::to_string(v.log_index))}});
    return {{"late_by_seconds", record.late_by.count()}, {"corrected", record.corrected()}, {"versions", std::move(versions)}};
}

json::object sheet_json(pricing::price_sheet const& sheet, pricing::catalog const& catalog,
                        std::span<const pricing::sheet_row* const> selected, language lang,
                        pricing::publication_record const* record)
{
    json::array rows;
    for (auto const* row : selected)
        rows.push_back(sheet_row_json(*row, catalog.find(row->gpu)));
    std::string const week = pricing::to_string(sheet.week);
    json::object out{{"week", week},
            {"effective_from", pricing::to_rfc3339(sheet.effective_from)},
            {"effective_until", pricing::to_rfc3339(sheet.effective_until)},
            {"published_at", pricing::to_rfc3339(sheet.published_at)},
            {"currency", "USD"},
            {"unit", "per GPU-hour"},
            {"inputs_sha256", sheet.inputs_sha256},
            {"observations", sheet.observations},
            {"observations_url", path_of(resource::observations, week)},
            {"priced_models", sheet.priced_models()},
            {"prices", std::move(rows)},
            {"billing", billing_json(lang)},
            {"rules_version", sheet.rules_version},
            {"sample", sheet.is_sample()},
            {"signature", optional_text(sheet.signature)},
            {"key_id", optional_text(sheet.key_id)},
            {"signed_bytes_url", path_of(resource::signed_bytes, week)},
            {"license", license_json()}};
    if (record)
        out["publication"] = publication_json(*record);
    return out;
}

json::object price_json(pricing::price_sheet const& sheet, pricing::sheet_row const& row,
                        pricing::gpu_model const* model)
{
    json::object o{{"week", pricing::to_string(sheet.week)},
                   {"effective_from", pricing::to_rfc3339(sheet.effective_from)},
                   {"effective_until", pricing::to_rfc3339(sheet.effective_until)},
                   {"currency", "USD"},
                   {"unit", "per GPU-hour"},
                   {"sample", sheet.is_sample()}};
    for (auto& [key, value] : sheet_row_json(row, model))
        o[key] = value;
    return o;
}

json::object billing_json(language lang)
{
    namespace rules = pricing::rules;
    return {{"billing_granularity", say(lang, "json.billing_granularity")},
            {"multi_gpu", say(lang, "json.multi_gpu", {{"max", std::to_string(rules::max_gpus_per_instance)}})},
            {"storage_per_gb_month", to_decimal(rules::storage_per_gb_month, 2)},
            {"storage_note", say(lang, "json.storage_note", {{"hours", std::to_string(rules::month_hours)}})},
            {"network_per_gb", to_decimal(rules::network_per_gb, 2)},
            {"network_note", say(lang, "json.network_note")},
            {"regions_note", say(lang, "json.regions_billing_note")},
            {"reserved_term_months", rules::reserved_term_months},
            {"reserved_break_even_utilisation_percent", rules::reserved_break_even_percent},
            {"rate_locked",
             {{"on_demand", say(lang, "json.locked_on_demand")},
              {"reserved", say(lang, "json.locked_reserved", {{"months", std::to_string(rules::reserved_term_months)}})}}},
            {"spot",
             {{"bidding", false},
              {"disk_kept_when_interrupted", true},
              {"requeued_automatically", true}}},
            {"tenancy",
             {{"single_tenant", true},
              {"dedicated_gpus", true},
              {"mig_slices_rented", false},
              {"note", say(lang, "json.tenancy")}}},
            {"data_centre_tier", say(lang, "json.data_centre_tier")},
            {"account",
             {{"balance", say(lang, "json.balance")},
              {"balance_refundable", true},
              {"minimum_top_up", to_decimal(rules::min_top_up, 2)},
              {"credits_expire", false},
              {"identity", say(lang, "json.identity")},
              {"payment_assets",
               json::array{json::object{{"asset", "USDT"}, {"networks", json::array{"TRON (TRC-20)", "Ethereum (ERC-20)"}}},
                           json::object{{"asset", "BTC"}, {"networks", json::array{"Bitcoin"}}},
                           json::object{{"asset", "XMR"}, {"networks", json::array{"Monero"}}}}},
              {"top_up", say(lang, "json.top_up")}}},
            {"sla",
             {{"monthly_target_percent", pricing::decimal_string(rules::sla_target_permille, 1, 1)},
              {"applies_to", json::array{"on_demand", "reserved"}},
              {"remedy", say(lang, "json.remedy")}}}};
}

json::object public_key_json(pricing::public_key const& key)
{
    json::object o{{"key_id", key.key_id},
                   {"algorithm", "Ed25519"},
                   {"public_key_pem", key.public_key_pem},
                   {"valid_from", pricing::to_rfc3339(key.valid_from)}};
    o["valid_until"] = key.valid_until ? json::value(pricing::to_rfc3339(*key.valid_until)) : json::value(nullptr);
    o["pem_url"] = path_of(resource::key_file, key.key_id + ".pem");
    return o;
}

json::object keys_json(pricing::key_ring const& ring)
{
    json::array keys;
    for (auto const& k : ring.keys)
        keys.push_back(public_key_json(k));
    return {{"note", "Ed25519 keys that sign LowCostGPU price sheets. A sheet verifies with the key its key_id "
                     "names if its published_at falls in [valid_from, valid_until). See /v1/methodology."},
            {"keys", std::move(keys)}};
}

json::object problem_json(int status, std::string const& title, std::string const& detail, json::object extra)
{
    json::object o{{"type", "about:blank"}, {"title", title}, {"status", status}, {"detail", detail}};
    for (auto& [key, value] : extra)
        o[key] = value;
    return o;
}

std::string to_text(json::value const& v)
{
    return json::serialize(v) + "\n";
}

std::string to_text(json::object const& o)
{
    return json::serialize(o) + "\n";
}

}
