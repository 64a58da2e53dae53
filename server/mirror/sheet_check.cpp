#include "server/mirror/sheet_check.hpp"

#include "server/trust/trust.hpp"

#include "pricing/audit.hpp"

namespace lcg::mirror {

namespace {

pricing::error refused(pricing::price_sheet const& sheet, std::string const& why)
{
    return pricing::invalid("sheet " + pricing::to_string(sheet.week) + " refused: " + why);
}

}

pricing::outcome<bool> check_signature(pricing::price_sheet const& sheet, pricing::key_ring const& pinned_keys)
{
    if (auto const signed_by = trust::verify_sheet(sheet, pinned_keys); !signed_by)
        return refused(sheet, "its signature: " + signed_by.err().message);
    return true;
}

pricing::outcome<sheet_checked> check_sheet(pricing::price_sheet const& sheet, std::string_view inputs_csv,
                                            pricing::key_ring const& pinned_keys)
{
    // The signature first: it says the operator published these figures and this inputs_sha256.
    if (auto const signed_by = check_signature(sheet, pinned_keys); !signed_by)
        return signed_by.err();
    return check_inputs(sheet, inputs_csv);
}

pricing::outcome<sheet_checked> check_inputs(pricing::price_sheet const& sheet, std::string_view inputs_csv)
{
    inputs_check check(sheet);
    check.read(inputs_csv);
    return check.finish();
}

// Read once, into what the audit needs: neither the bytes nor the observations are kept.
inputs_check::inputs_check(pricing::price_sheet const& sheet) : sheet_(sheet), tally_(pricing::to_string(sheet.week)) {}

void inputs_check::read(std::string_view bytes)
{
    hasher_.update(bytes);
    tally_.read(bytes);
}

pricing::outcome<sheet_checked> inputs_check::finish()
{
    auto const& sheet = sheet_;
    auto refuse = [&](std::string const& why) { return refused(sheet, why); };

    std::string const actual = hasher_.finish();
    if (actual != sheet.inputs_sha256)
        return refuse("its inputs hash to " + actual + ", the sheet says " + sheet.inputs_sha256);

    auto& inputs = tally_;
    inputs.finish();
    if (inputs.bad_lines() > 0)
        return refuse("its inputs CSV has " + std::to_string(inputs.bad_lines()) + " bad line(s), the first at line " +
                      std::to_string(inputs.problems().front().line) + ": " + inputs.problems().front().reason);
    if (sheet.observations != inputs.observations())
        return refuse("it counts " + std::to_string(sheet.observations) + " observations, its inputs hold " +
                      std::to_string(inputs.observations()));

    // Every published rule, as `lowcostgpu audit` checks it: the rows recomputed from the inputs, the
    // week and window, the counts, and that the bytes are the canonical CSV.
    pricing::published_sheet claimed{pricing::to_string(sheet.week),
                                     pricing::to_rfc3339(sheet.effective_from),
                                     pricing::to_rfc3339(sheet.effective_until),
                                     sheet.inputs_sha256,
                                     sheet.observations,
                                     sheet.priced_models(),
                                     sheet.rules_version,
                                     {}};
    for (auto const& row : sheet.rows)
        claimed.rows.push_back(pricing::as_published(row));
    auto const audit = pricing::audit_sheet(claimed, inputs);
    if (!audit.problems.empty())
        return refuse(audit.problems.front());
    for (auto const& r : audit.rows)
        if (!r.ok())
            return refuse(r.gpu + ": " + r.differences.front());
    return sheet_checked{static_cast<int>(sheet.rows.size()), inputs.observations()};
}

}
