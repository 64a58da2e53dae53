#include "render/json.hpp"

#include "render/costing_json.hpp"
#include "render/dataset.hpp"
#include "render/json_writer.hpp"

#include "pricing/history.hpp"
#include "pricing/rules.hpp"

#include <boost/json/serialize.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <type_traits>

namespace lcg::render {

namespace {

namespace json = boost::json;
using pricing::decimal_string;
using pricing::to_decimal;

json::value optional_text(std::string const& s) { return s.empty() ? json::value(nullptr) : json::value(s); }

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
                                        {"signed_bytes", "/v1/log/entries/" + std::to_string(v.log_index) + "/signed.txt"}});
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
            {"observations_url", "/v1/sheets/" + week + "/observations"},
            {"priced_models", sheet.priced_models()},
            {"prices", std::move(rows)},
            {"billing", billing_json(lang)},
            {"rules_version", sheet.rules_version},
            {"sample", sheet.is_sample()},
            {"signature", optional_text(sheet.signature)},
            {"key_id", optional_text(sheet.key_id)},
            {"signed_bytes_url", "/v1/sheets/" + week + "/signed.txt"},
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

json::object gpu_json(pricing::gpu_model const& m, pricing::price_sheet const* current, language lang)
{
    json::object o{{"id", m.id},
                   {"name", m.name},
                   {"vendor", m.vendor},
                   {"architecture", m.architecture},
                   {"form_factor", m.form_factor},
                   {"vram_gb", m.vram_gb},
                   {"memory_type", m.memory_type},
                   {"memory_bandwidth_gbs", m.memory_bandwidth_gbs},
                   {"sm_count", m.sm_count},
                   {"fp16_dense_tflops", fp16_dense_tflops_json(m, lang)},
                   {"power_score", power_score_json(m, lang)},
                   {"fp8_dense_tflops", optional_figure_json(m.fp8_dense_tflops)},
                   {"tdp_w", figure_json(m.tdp_w)},
                   {"interconnect_gbs", optional_figure_json(m.interconnect_gbs)},
                   {"interconnect_kind", m.interconnect_kind.empty() ? json::value(nullptr) : json::value(m.interconnect_kind)},
                   {"interconnect", interconnect_json(m, lang)},
                   {"mig", mig_json(m, lang)},
                   {"precisions", precisions_json(m)},
                   {"node", node_json(m, lang)},
                   {"rack", rack_json(m, lang)},
                   {"instance_limits", instance_limits_json(m, lang)},
                   {"regions", regions_json(m, lang)},
                   {"source", m.source},
                   {"notes", m.notes}};
    if (auto const* row = current ? current->find(m.id) : nullptr) {
        json::object prices = sheet_row_json(*row, nullptr);
        prices.erase("gpu");
        o["prices"] = std::move(prices);
    }
    o["sample"] = is_sample(current);
    return o;
}

json::object catalog_json(pricing::catalog const& catalog, pricing::price_sheet const* current, language lang)
{
    return filtered_catalog_json(catalog, current, {}, lang);  // one shape, filtered or not
}

json::object sheet_index_json(std::vector<pricing::price_sheet> const& sheets, pricing::price_sheet const* current,
                              std::map<pricing::iso_week, pricing::publication_record> const* publications)
{
    json::array list;
    for (auto it = sheets.rbegin(); it != sheets.rend(); ++it) {
        std::string const week = pricing::to_string(it->week);
        json::object entry{{"week", week},
                        {"effective_from", pricing::to_rfc3339(it->effective_from)},
                        {"effective_until", pricing::to_rfc3339(it->effective_until)},
                        {"published_at", pricing::to_rfc3339(it->published_at)},
                        {"priced_models", it->priced_models()},
                        {"models", it->rows.size()},
                        {"observations", it->observations},
                        {"inputs_sha256", it->inputs_sha256},
                        {"url", "/v1/sheets/" + week},
                        {"observations_url", "/v1/sheets/" + week + "/observations"}};
        // What the publication log says of the week: corrected since, or published late.
        if (publications)
            if (auto const found = publications->find(it->week); found != publications->end()) {
                entry["corrected"] = found->second.corrected();
                entry["late_by_seconds"] = found->second.late_by.count();
            }
        list.push_back(std::move(entry));
    }
    json::object o{{"count", sheets.size()}, {"sheets", std::move(list)}, {"license", license_json()}};
    o["current"] = current ? json::value(pricing::to_string(current->week)) : json::value(nullptr);
    return o;
}

json::object price_history_json(std::span<const pricing::price_sheet> sheets, pricing::gpu_model const& model)
{
    json::array weeks;
    for (auto const& w : pricing::price_history(sheets, model.id)) {
        json::object o{{"week", pricing::to_string(w.sheet->week)},
                       {"effective_from", pricing::to_rfc3339(w.sheet->effective_from)},
                       {"effective_until", pricing::to_rfc3339(w.sheet->effective_until)}};
        if (!w.row) {
            o["available"] = false;
            o["observations"] = 0;
            o["reason"] = "not in the catalog that week";
        } else {
            for (auto& [key, value] : sheet_row_json(*w.row, nullptr))
                if (key != "gpu")
                    o[key] = value;
        }
        json::value change = nullptr;
        if (pricing::rate_change(w, pricing::tier::on_demand)) {
            json::object c;
            for (auto t : pricing::all_tiers)
                c[pricing::to_string(t)] = pricing::signed_decimal(*pricing::rate_change(w, t));
            change = std::move(c);
        }
        o["change"] = std::move(change);
        weeks.push_back(std::move(o));
    }
    std::string const base = "/v1/prices/" + model.id + "/history";
    return {{"gpu", model.id},
            {"name", model.name},
            {"currency", "USD"},
            {"unit", "per GPU-hour"},
            {"sample", any_sample(sheets)},
            {"count", weeks.size()},
            {"chart_url", base + ".svg"},
            {"weeks", std::move(weeks)}};
}

json::object history_table_json(std::span<const pricing::price_sheet> sheets, pricing::catalog const& catalog,
                                pricing::tier tier)
{
    json::array ids;
    for (auto const& m : catalog.gpus)
        ids.push_back(json::value(m.id));
    json::array weeks;
    for (auto const& sheet : sheets) {
        json::object rates;
        for (auto const& m : catalog.gpus) {
            auto const* row = sheet.find(m.id);
            rates[m.id] = row && row->rates ? json::value(to_decimal(row->rates->of(tier))) : json::value(nullptr);
        }
        weeks.push_back({{"week", pricing::to_string(sheet.week)},
                         {"effective_from", pricing::to_rfc3339(sheet.effective_from)},
                         {"rates", std::move(rates)}});
    }
    return {{"tier", pricing::to_string(tier)},
            {"currency", "USD"},
            {"unit", "per GPU-hour"},
            {"sample", any_sample(sheets)},
            {"gpus", std::move(ids)},
            {"count", weeks.size()},
            {"weeks", std::move(weeks)},
            {"license", license_json()}};
}

namespace {

// The members both forms of a sheet's inputs begin with.
template <class AddMember>
void observations_heading(pricing::price_sheet const& sheet, std::size_t count, AddMember&& add)
{
    auto const window = pricing::observation_window(sheet.week);
    std::string const week = pricing::to_string(sheet.week);
    add("week", week);
    add("window_from", pricing::to_rfc3339(window.from));
    add("window_until", pricing::to_rfc3339(window.until));
    add("inputs_sha256", sheet.inputs_sha256);
    add("canonical_csv_url", "/v1/sheets/" + week + "/observations.csv");
    add("count", count);
}

}

std::string observations_text(pricing::price_sheet const& sheet, std::size_t count,
                              std::span<const pricing::observation> observations, text_part where)
{
    json_writer w;
    if (where.first) {
        w.begin_object();
        observations_heading(sheet, count, [&](std::string_view name, auto const& value) {
            if constexpr (std::is_integral_v<std::decay_t<decltype(value)>>)
                w.member_number(name, static_cast<std::int64_t>(value));
            else
                w.member(name, value);
        });
        w.key("observations").begin_array();
    } else {
        w.resume(2);  // the document's object and its observations array
    }
    for (auto const& o : observations) {
        w.begin_object()
            .member("observed_at", pricing::to_rfc3339(o.observed_at))
            .member("gpu", o.gpu)
            .member("price_per_gpu_hour", to_decimal(o.price, 6))
            .member("source", o.source)
            .member("listing_id", o.listing_id);
        if (o.source_url.empty())
            w.key("source_url").null();
        else
            w.member("source_url", o.source_url);
        w.end_object();
    }
    if (!where.last)
        return std::move(w).part();
    w.end_array();
    w.end_object();
    return std::move(w).text();
}

void observations_summary::add(std::span<const pricing::observation> observations)
{
    for (auto const& o : observations) {
        auto found = ranges_.find(o.gpu);
        if (found == ranges_.end())
            found = ranges_.emplace(o.gpu, range{0, o.price, o.price}).first;
        auto& r = found->second;
        r.low = std::min(r.low, o.price);
        r.high = std::max(r.high, o.price);
        ++r.count;
    }
    count_ += observations.size();
}

json::object observations_summary::json(pricing::price_sheet const& sheet) const
{
    json::object out;
    observations_heading(sheet, count_, [&](std::string_view name, auto const& value) { out[name] = value; });
    json::array models;
    for (auto const& [gpu, r] : ranges_)
        models.push_back({{"gpu", gpu},
                          {"count", r.count},
                          {"lowest", to_decimal(r.low, 6)},
                          {"highest", to_decimal(r.high, 6)}});
    out["models"] = std::move(models);
    return out;
}

json::object raw_inputs_json(pricing::price_sheet const& sheet, std::span<const pricing::raw_input> files)
{
    json::array listed, mappings;
    std::set<std::string_view> named;
    for (auto const& f : files) {
        listed.push_back({{"source", f.source},
                          {"format", f.format},
                          {"memory_convention", f.memory_convention},
                          {"observed_at", pricing::to_rfc3339(f.observed_at)},
                          {"sha256", f.sha256},
                          {"bytes", f.bytes},
                          {"mapping_sha256", f.mapping_sha256},
                          {"path", "sources/" + f.sha256}});
        if (named.insert(f.mapping_sha256).second)
            mappings.push_back({{"sha256", f.mapping_sha256}, {"path", "sources/" + f.mapping_sha256}});
    }
    std::string const week = pricing::to_string(sheet.week);
    return {{"week", week},
            {"inputs_sha256", sheet.inputs_sha256},
            {"canonical_csv_url", "/v1/sheets/" + week + "/observations.csv"},
            {"sample", sheet.is_sample()},
            {"count", files.size()},
            {"files", std::move(listed)},
            {"mappings", std::move(mappings)}};
}

json::object regions_json(pricing::catalog const& catalog, language lang)
{
    json::array list;
    std::vector<std::string> continents;
    for (auto const& r : catalog.regions) {
        list.push_back({{"code", r.code},
                        {"city", r.city},
                        {"country", r.country},
                        {"continent", r.continent},
                        {"sovereign", r.sovereign}});
        if (std::find(continents.begin(), continents.end(), r.continent) == continents.end())
            continents.push_back(r.continent);
    }
    return {{"count", catalog.regions.size()},
            {"continents", continents.size()},
            {"note", say(lang, "json.regions_note")},
            {"regions", std::move(list)}};
}

json::array sources_list_json(std::span<const pricing::market_source> sources)
{
    json::array list;
    for (auto const& s : sources)
        list.push_back({{"name", s.name}, {"kind", s.kind}, {"homepage", optional_text(s.homepage)}, {"format", s.format}});
    return list;
}

json::object sources_json(pricing::catalog const& catalog, language lang)
{
    return {{"rules_version", pricing::rules::rules_version},
            {"count", catalog.sources.size()},
            {"note", say(lang, "json.sources_note",
                         {{"sources", std::to_string(pricing::rules::min_sources)},
                          {"listings", std::to_string(pricing::rules::min_observations)}})},
            {"sources", sources_list_json(catalog.sources)}};
}

json::object inventory_json(pricing::catalog const& catalog, pricing::inventory_query const& query, language lang)
{
    json::array models;
    for (auto const& m : catalog.gpus) {
        if (query.gpu && query.gpu != &m)
            continue;
        json::array regions;
        int total = 0;
        for (auto const& s : catalog.inventory) {
            if (s.gpu != m.id || (query.where && s.region != query.where->code))
                continue;
            total += s.available_gpus;
            regions.push_back({{"region", s.region},
                               {"available_gpus", s.available_gpus},
                               {"largest_instance_gpus", std::min(s.available_gpus, m.max_gpus_per_instance)}});
        }
        models.push_back({{"gpu", m.id},
                          {"available_gpus", total},
                          {"max_gpus_per_instance", m.max_gpus_per_instance},
                          {"regions", std::move(regions)}});
    }
    return {{"note", say(lang, "json.inventory_note")}, {"gpus", std::move(models)}};
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
    o["pem_url"] = "/.well-known/lowcostgpu-keys/" + key.key_id + ".pem";
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

std::string catalog_document(pricing::catalog const& catalog)
{
    // Without the members a sheet gives (prices, whether they are a sample's): the catalog alone.
    auto gpus = catalog_json(catalog, nullptr, language::en);
    gpus.erase("sample");
    for (auto& g : gpus["gpus"].as_array())
        g.as_object().erase("sample");
    return to_text(json::object{{"gpus", std::move(gpus)},
                                {"regions", regions_json(catalog)},
                                {"inventory", inventory_json(catalog)},
                                {"sources", sources_json(catalog)}});
}

json::object catalog_signature_json(pricing::catalog_signature const& signature)
{
    json::array sheets;
    for (auto const& s : signature.sheets)
        sheets.push_back({{"week", pricing::to_string(s.week)},
                          {"published_at", pricing::to_rfc3339(s.published_at)},
                          {"inputs_sha256", s.inputs_sha256},
                          {"inputs_bytes", s.inputs_bytes}});
    return {{"format", pricing::catalog_bytes_format},
            {"signed_at", pricing::to_rfc3339(signature.signed_at)},
            {"catalog_sha256", signature.catalog_sha256},
            {"catalog_bytes", signature.catalog_bytes},
            {"catalog_url", "/v1/catalog"},
            {"sheets", std::move(sheets)},
            {"key_id", signature.key_id},
            {"signature", signature.signature},
            {"signed_bytes", pricing::signed_bytes(signature)}};
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
