#include "compare.hpp"

#include "estimate.hpp"
#include "rules.hpp"

#include <algorithm>
#include <functional>

namespace lcg::pricing {

namespace {

std::string_view trim(std::string_view s)
{
    while (!s.empty() && s.front() == ' ')
        s.remove_prefix(1);
    while (!s.empty() && s.back() == ' ')
        s.remove_suffix(1);
    return s;
}

// The ids of the rows that `better` ranks first: `better(a, b)` < 0 when a beats b, 0 on a tie.
// Rows that `qualifies` rejects take no part.
std::vector<std::string> winners(std::vector<comparison_row> const& rows,
                                 std::function<bool(comparison_row const&)> const& qualifies,
                                 std::function<int(comparison_row const&, comparison_row const&)> const& better)
{
    comparison_row const* best = nullptr;
    for (auto const& r : rows)
        if (qualifies(r) && (!best || better(r, *best) < 0))
            best = &r;
    std::vector<std::string> out;
    if (best)
        for (auto const& r : rows)
            if (qualifies(r) && better(r, *best) == 0)
                out.push_back(r.gpu);
    return out;
}

int three_way(std::int64_t a, std::int64_t b) { return a < b ? -1 : (a > b ? 1 : 0); }

}

parsed<std::vector<std::string>> parse_gpu_list(std::string_view parameter, std::string const& text,
                                                catalog const& cat, list_form form)
{
    constexpr int max = rules::max_compared_gpus;
    std::string const name(parameter);
    std::string const accepted =
        "accepted: " + std::string(form == list_form::array ? "an array of " : "") + "2 to " + std::to_string(max) +
        (form == list_form::array ? " distinct catalog ids, such as [\"l40s\", \"a100-80gb-sxm\"]"
                                  : " distinct catalog ids separated by commas, such as l40s,a100-80gb-sxm");
    std::string const accepted_fr =
        "accepté\u202F: " + std::string(form == list_form::array ? "un tableau de " : "") + "2 à " + std::to_string(max) +
        (form == list_form::array ? " identifiants distincts du catalogue, comme [\"l40s\", \"a100-80gb-sxm\"]"
                                  : " identifiants distincts du catalogue séparés par des virgules, comme "
                                    "l40s,a100-80gb-sxm");
    std::vector<std::string> ids;
    std::string_view rest = text;
    while (true) {
        auto const comma = rest.find(',');
        auto const item = trim(rest.substr(0, comma));
        if (item.empty())
            return bad_input(name, name + ": " + quote(text) + " has an empty item; " + accepted,
                             name + "\u202F: " + quote(text) + " a un élément vide\u202F; " + accepted_fr);
        auto const model = find_gpu_parameter(name, item, cat);
        if (!model)
            return model.err();
        if (std::find(ids.begin(), ids.end(), (*model)->id) != ids.end())
            return bad_input(name, name + ": " + quote((*model)->id) + " is listed twice; " + accepted,
                             name + "\u202F: " + quote((*model)->id) + " figure deux fois\u202F; " + accepted_fr);
        ids.push_back((*model)->id);
        if (comma == std::string_view::npos)
            break;
        rest.remove_prefix(comma + 1);
    }
    return ids;
}

outcome<comparison> compare_gpus(std::vector<std::string> const& ids, catalog const& cat, price_sheet const* sheet)
{
    comparison c;
    for (auto const& id : ids) {
        gpu_model const* model = cat.find(id);
        if (!model)
            return error{errc::not_found, quote(id) + " is not a GPU of the catalog",
                         quote(id) + " n’est pas un GPU du catalogue"};
        comparison_row r;
        r.gpu = model->id;
        r.vram_gb = model->vram_gb;
        r.memory_bandwidth_gbs = model->memory_bandwidth_gbs;
        auto const tflops = micro_tflops(model->fp16_dense_tflops);
        auto const score = compute_power_score(model->fp16_dense_tflops);
        if (!tflops || !score)
            return error{errc::unavailable, model->id + ": its dense FP16 figure is not a plain decimal",
                         model->id + "\u202F: son chiffre FP16 dense n’est pas un nombre décimal simple"};
        r.micro_tflops = *tflops;
        r.score = *score;
        sheet_row const* row = sheet ? sheet->find(model->id) : nullptr;
        if (row && row->rates) {
            r.rates = row->rates;
            std::int64_t const od = row->rates->on_demand.micros();
            if (r.micro_tflops > 0)
                r.per_100_power_score = money::from_micros(
                    mul_div_half_up(od, rules::power_score_reference_micro_tflops, r.micro_tflops));
            r.per_gb_vram_hour = money::from_micros(mul_div_half_up(od, 1, r.vram_gb));
        } else {
            r.unpriced_reason = row ? row->unavailable_reason : "no price sheet is in effect";
        }
        c.rows.push_back(std::move(r));
    }

    auto const priced = [](comparison_row const& r) { return r.rates.has_value(); };
    auto const any = [](comparison_row const&) { return true; };
    for (std::size_t i = 0; i < 3; ++i) {
        tier const t = all_tiers[i];
        c.winners.lowest_price[i] = winners(c.rows, priced, [t](auto const& a, auto const& b) {
            return three_way(a.rates->of(t).micros(), b.rates->of(t).micros());
        });
    }
    c.winners.most_vram = winners(c.rows, any, [](auto const& a, auto const& b) { return three_way(b.vram_gb, a.vram_gb); });
    c.winners.most_bandwidth = winners(c.rows, any, [](auto const& a, auto const& b) {
        return three_way(b.memory_bandwidth_gbs, a.memory_bandwidth_gbs);
    });
    c.winners.highest_power_score = winners(c.rows, any, [](auto const& a, auto const& b) {
        return three_way(b.micro_tflops, a.micro_tflops);
    });
    // a/ta < b/tb  ⇔  a × tb < b × ta, exactly.
    c.winners.lowest_price_per_power_score = winners(
        c.rows, [](auto const& r) { return r.rates.has_value() && r.micro_tflops > 0; },
        [](auto const& a, auto const& b) {
            return compare_products(a.rates->on_demand.micros(), b.micro_tflops, b.rates->on_demand.micros(),
                                    a.micro_tflops);
        });
    c.winners.lowest_price_per_gb_vram = winners(c.rows, priced, [](auto const& a, auto const& b) {
        return compare_products(a.rates->on_demand.micros(), b.vram_gb, b.rates->on_demand.micros(), a.vram_gb);
    });
    return c;
}

}
