#pragma once

#include "money.hpp"
#include "quantity.hpp"
#include "sheet.hpp"

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

// A model's prices over the published weeks, and what moved from one sheet to the next. Computed
// from the sheets themselves, so every figure of a history is the one its week's sheet publishes.
namespace lcg::pricing {

// One published week of one model. `row` is null when the model was not on that week's sheet (it
// joined the catalog later); `previous` is the same model's row on the sheet before, if any.
struct history_week {
    price_sheet const* sheet = nullptr;
    sheet_row const* row = nullptr;
    sheet_row const* previous = nullptr;
};

// Every published week of `gpu`, oldest first.
std::vector<history_week> price_history(std::span<const price_sheet> sheets, std::string_view gpu);

// The sheet a `week` argument names: "latest" (the newest published, which may not be in effect
// yet), "current" (the one in effect, `current`), or an ISO week "2026-W48", meaning the sheet in
// effect during that week: its own, or the newest before it when none was published for it.
// Refused, naming the parameter, when the text is not one of those or no sheet was in effect then.
outcome<price_sheet const*> sheet_for_week(std::string_view text, std::span<const price_sheet> sheets,
                                           price_sheet const* current);

// The `week` parameter of a question answered at one sheet's rates: the sheet it names, or
// `current` when it is absent; refused naming "week", and unavailable before any sheet is in effect.
parsed<price_sheet const*> week_parameter(std::optional<std::string> const& text, std::span<const price_sheet> sheets,
                                          price_sheet const* current);

// The change of a tier's rate from the previous week, exact; empty unless both weeks are priced.
std::optional<money> rate_change(history_week const& w, tier t);

// The models whose on-demand rate moved by rules::notable_move_percent or more between two
// consecutive sheets (both priced), in the order of `now`'s rows: what a feed of new sheets tells.
std::vector<std::string> notable_moves(price_sheet const& before, price_sheet const& now);

// A signed decimal of a change: "+0.010", "-0.005", "0.000".
std::string signed_decimal(money change);

}
