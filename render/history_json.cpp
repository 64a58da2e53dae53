// JSON of the sheets' history: the index of published sheets, one model's weeks, every model's
// weeks in one tier.
#include "render/json.hpp"
#include "render/resources.hpp"

#include "render/dataset.hpp"

#include "pricing/history.hpp"

namespace lcg::render {

namespace {

namespace json = boost::json;
using pricing::to_decimal;

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
                        {"url", path_of(resource::sheet, week)},
                        {"observations_url", path_of(resource::observations, week)}};
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
    std::string const base = path_of(resource::price_history, model.id);
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

}
