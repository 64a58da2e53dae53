#include "history.hpp"

#include "rules.hpp"

#include <cstdlib>

namespace lcg::pricing {

std::vector<history_week> price_history(std::span<const price_sheet> sheets, std::string_view gpu)
{
    std::vector<history_week> out;
    out.reserve(sheets.size());
    sheet_row const* previous = nullptr;
    for (auto const& sheet : sheets) {
        auto const* row = sheet.find(gpu);
        out.push_back({&sheet, row, previous});
        previous = row;
    }
    return out;
}

outcome<price_sheet const*> sheet_for_week(std::string_view text, std::span<const price_sheet> sheets,
                                           price_sheet const* current)
{
    if (text == "current") {
        if (!current)
            return error{errc::not_found, "week: no sheet is in effect yet", "week\u202F: aucun tarif n’est encore en vigueur"};
        return current;
    }
    if (text == "latest") {
        if (sheets.empty())
            return error{errc::not_found, "week: no sheet has been published yet", "week\u202F: aucun tarif n’a encore été publié"};
        return &sheets.back();
    }
    auto const week = parse_week(text);
    if (!week)
        return error{errc::invalid_argument, "week: " + week.err().message + "; accepted: an ISO week, latest or current",
                     "week\u202F: " + week.err().message_fr + "\u202F; accepté\u202F: une semaine ISO, latest ou current"};
    price_sheet const* found = nullptr;
    for (auto const& sheet : sheets)
        if (sheet.week <= *week)
            found = &sheet;
    if (found && found->week == *week)
        return found;
    // Past the sheet in effect, the sheet of a week is not known until it is published.
    if (current && *week > current->week)
        return error{errc::not_found,
                     "week: no sheet is published for " + to_string(*week) + " yet; accepted: up to " +
                         to_string(sheets.back().week) + ", latest or current",
                     "week\u202F: aucun tarif n’est encore publié pour " + to_string(*week) + "\u202F; accepté\u202F: jusqu’à " +
                         to_string(sheets.back().week) + ", latest ou current"};
    if (!found)
        return error{errc::not_found,
                     "week: no sheet was in effect in " + to_string(*week) + "; accepted: " +
                         (sheets.empty() ? std::string("none yet")
                                         : to_string(sheets.front().week) + " or later, latest or current"),
                     "week\u202F: aucun tarif n’était en vigueur en " + to_string(*week) + "\u202F; accepté\u202F: " +
                         (sheets.empty() ? std::string("aucune semaine pour l’instant")
                                         : to_string(sheets.front().week) + " ou après, latest ou current")};
    return found;
}

parsed<price_sheet const*> week_parameter(std::optional<std::string> const& text, std::span<const price_sheet> sheets,
                                          price_sheet const* current)
{
    price_sheet const* sheet = current;
    if (text) {
        auto const named = sheet_for_week(*text, sheets, current);
        if (!named)
            return parameter_error{"week", named.err()};
        sheet = *named;
    }
    if (!sheet)
        return parameter_error{"week", {errc::unavailable, "week: no sheet is published yet", "week\u202F: aucun tarif n’est encore publié"}};
    return sheet;
}

std::optional<money> rate_change(history_week const& w, tier t)
{
    if (!w.row || !w.previous || !w.row->rates || !w.previous->rates)
        return std::nullopt;
    return w.row->rates->of(t) - w.previous->rates->of(t);
}

std::vector<std::string> notable_moves(price_sheet const& before, price_sheet const& now)
{
    std::vector<std::string> out;
    for (auto const& row : now.rows) {
        auto const* old = before.find(row.gpu);
        if (!row.rates || !old || !old->rates || old->rates->on_demand.micros() == 0)
            continue;
        // |new − old| / old ≥ p / 100, in integers: 100 × |new − old| ≥ p × old.
        auto const moved = std::llabs(row.rates->on_demand.micros() - old->rates->on_demand.micros());
        if (100 * moved >= rules::notable_move_percent * old->rates->on_demand.micros())
            out.push_back(row.gpu);
    }
    return out;
}

std::string signed_decimal(money change)
{
    std::string const digits = to_decimal(change);
    return change.micros() > 0 ? "+" + digits : digits;
}

}
