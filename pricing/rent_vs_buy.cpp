#include "rent_vs_buy.hpp"

#include "estimate.hpp"
#include "history.hpp"
#include "rules.hpp"

#include <limits>
#include <stdexcept>

namespace lcg::pricing {

namespace {

// The products of this comparison pass 10^19 (a rate × GPUs × 87,600 hours × 10^7): a 128-bit
// integer holds them exactly, and the inputs' bounds (rules.hpp) keep them below 10^31.
__extension__ typedef __int128 wide;

// Amounts are carried in units of 10^-7 micro-dollar: a kilowatt is 1,000 W and a utilisation is
// in hundredths of a percent (10,000 is all the time), so energy and rent both come out whole.
constexpr wide scale = wide(rules::watts_per_kilowatt) * 10'000;
constexpr std::int64_t full_time = 10'000;  // 100 %, in hundredths of a percent

std::int64_t narrow(wide v)
{
    if (v > std::numeric_limits<std::int64_t>::max() || v < std::numeric_limits<std::int64_t>::min())
        throw std::overflow_error("rent_vs_buy: a figure does not fit 64 bits");
    return static_cast<std::int64_t>(v);
}

wide divide_half_up(wide a, wide b) { return (2 * a + b) / (2 * b); }  // a ≥ 0, b > 0
wide divide_up(wide a, wide b) { return (a + b - 1) / b; }            // a ≥ 0, b > 0

money scaled_money(wide amount) { return money::from_micros(narrow(divide_half_up(amount, scale))); }

decimal_text hundredths(std::int64_t units) { return units_to_decimal(units, 1, 1, 2); }

// The break-even horizon: the purchase over the monthly saving of owning (rent minus energy and
// hosting), at the utilisation given.
break_even months_to_break_even(rent_vs_buy_request const& q, wide rented_per_hour)
{
    wide const saving = wide(rules::month_hours) * q.utilisation_hundredths *
                            (rules::watts_per_kilowatt * rented_per_hour - wide(q.power_watts) * q.electricity_price.micros()) -
                        wide(q.hosting_per_month.micros()) * scale;
    if (saving <= 0)
        return {break_even_state::never, std::nullopt};
    wide const months = divide_up(wide(q.purchase_price.micros()) * scale * 100, saving);
    auto const state = months <= wide(q.months) * 100 ? break_even_state::within : break_even_state::beyond;
    if (months > wide(rules::longest_break_even_months) * 100)
        return {state, std::nullopt};
    return {state, hundredths(narrow(months))};
}

// The break-even utilisation: the purchase and the horizon's hosting over what each working hour
// of owning saves, spread over the horizon's hours.
break_even utilisation_to_break_even(rent_vs_buy_request const& q, wide rented_per_hour)
{
    wide const saved_per_hour =
        rules::watts_per_kilowatt * rented_per_hour - wide(q.power_watts) * q.electricity_price.micros();
    if (saved_per_hour <= 0)
        return {break_even_state::never, std::nullopt};
    wide const fixed = wide(q.purchase_price.micros()) + wide(q.hosting_per_month.micros()) * q.months;
    wide const needed = divide_up(fixed * rules::watts_per_kilowatt * full_time,
                                  wide(q.months) * rules::month_hours * saved_per_hour);
    if (needed > full_time)
        return {break_even_state::beyond, std::nullopt};
    return {break_even_state::within, hundredths(narrow(needed))};
}

}

parsed<rent_vs_buy_request> parse_rent_vs_buy(rent_vs_buy_parameters const& p, catalog const& cat,
                                              std::span<const price_sheet> sheets, price_sheet const* current)
{
    rent_vs_buy_request q;
    auto const model = find_gpu_parameter("gpu", p.gpu, cat);
    if (!model)
        return model.err();
    q.model = *model;
    if (p.gpus) {
        auto const gpus = units_parameter("gpus", *p.gpus, 0);
        if (!gpus)
            return gpus.err();
        q.gpus = static_cast<int>(*gpus);
    }
    auto const t = tier_parameter(p.tier);
    if (!t)
        return t.err();
    q.rented = *t;
    auto const price = units_parameter("purchase_price", p.purchase_price, 6);
    if (!price)
        return price.err();
    q.purchase_price = money::from_micros(*price);
    auto const watts = units_parameter("power_watts", p.power_watts, 0);
    if (!watts)
        return watts.err();
    q.power_watts = *watts;
    auto const tariff = units_parameter("electricity_price", p.electricity_price, 6);
    if (!tariff)
        return tariff.err();
    q.electricity_price = money::from_micros(*tariff);
    auto const hosting = units_parameter("hosting_per_month", p.hosting_per_month, 6);
    if (!hosting)
        return hosting.err();
    q.hosting_per_month = money::from_micros(*hosting);
    auto const used = units_parameter("utilisation", p.utilisation, rules::utilisation_decimals);
    if (!used)
        return used.err();
    q.utilisation_hundredths = *used;
    auto const months = units_parameter("months", p.months, 0);
    if (!months)
        return months.err();
    q.months = static_cast<int>(*months);
    auto const sheet = week_parameter(p.week, sheets, current);
    if (!sheet)
        return sheet.err();
    q.sheet = *sheet;
    return q;
}

std::string_view to_string(rent_vs_buy_verdict v)
{
    switch (v) {
    case rent_vs_buy_verdict::rent: return "rent";
    case rent_vs_buy_verdict::buy: return "buy";
    case rent_vs_buy_verdict::even: return "even";
    }
    return "even";
}

std::string_view to_string(break_even_state s)
{
    switch (s) {
    case break_even_state::within: return "within";
    case break_even_state::beyond: return "beyond";
    case break_even_state::never: return "never";
    }
    return "never";
}

outcome<rent_vs_buy_answer> compare_rent_vs_buy(rent_vs_buy_request const& q)
{
    auto const* row = q.sheet->find(q.model->id);
    if (!row || !row->rates)
    {
        // The reason is the sheet's own words, published in English only.
        std::string const why =
            row && !row->unavailable_reason.empty() ? ": " + row->unavailable_reason : std::string();
        return error{errc::unpriced, q.model->id + " has no price on the sheet " + to_string(q.sheet->week) + why,
                     q.model->id + " n’a pas de prix sur le tarif " + to_string(q.sheet->week) + why};
    }
    rent_vs_buy_answer a;
    a.request = q;
    a.per_gpu_hour = row->rates->of(q.rented);
    wide const rented_per_hour = wide(a.per_gpu_hour.micros()) * q.gpus;
    // Hours in ten-thousandths: months × 730 × hundredths of a percent.
    wide const hours = wide(q.months) * rules::month_hours * q.utilisation_hundredths;
    wide const rent = rented_per_hour * hours * rules::watts_per_kilowatt;
    wide const energy = wide(q.power_watts) * q.electricity_price.micros() * hours;
    wide const hosting = wide(q.hosting_per_month.micros()) * q.months * scale;
    wide const own = wide(q.purchase_price.micros()) * scale + hosting + energy;
    a.used_hours = units_to_decimal(narrow(hours), 1, 1, 4);
    a.rent_total = scaled_money(rent);
    a.energy_total = scaled_money(energy);
    a.hosting_total = scaled_money(hosting);
    a.own_total = scaled_money(own);
    a.difference = a.rent_total - a.own_total;
    a.verdict = own < rent ? rent_vs_buy_verdict::buy : rent < own ? rent_vs_buy_verdict::rent : rent_vs_buy_verdict::even;
    a.months = months_to_break_even(q, rented_per_hour);
    a.utilisation = utilisation_to_break_even(q, rented_per_hour);
    return a;
}

}
