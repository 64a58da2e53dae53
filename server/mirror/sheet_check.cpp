#include "server/mirror/sheet_check.hpp"

#include "server/store/digest.hpp"

#include "pricing/audit.hpp"
#include "pricing/observation.hpp"

namespace lcg::mirror {

pricing::outcome<sheet_checked> check_sheet(pricing::price_sheet const& sheet, std::string_view inputs_csv,
                                            std::string_view pinned_keys)
{
    std::string const week = pricing::to_string(sheet.week);
    auto refuse = [&](std::string why) { return pricing::invalid("sheet " + week + " refused: " + why); };

    // SIGNATURE CHECK GOES HERE, first, once sheets carry signatures (lcg::trust, issue 16 point 2):
    //   auto ring = trust::parse_key_ring(pinned_keys);        // refuse on error
    //   auto ok = trust::verify_sheet(sheet, *ring);          // refuse with ok.err().message
    // Until then the pinned keys are read and passed here, but not used.
    static_cast<void>(pinned_keys);

    std::string const actual = store::sha256_hex(inputs_csv);
    if (actual != sheet.inputs_sha256)
        return refuse("its inputs hash to " + actual + ", the sheet says " + sheet.inputs_sha256);

    auto const inputs = pricing::parse_observations_csv(inputs_csv, [](std::string_view) { return true; });
    if (!inputs.ok())
        return refuse("its inputs CSV has " + std::to_string(inputs.bad_lines) + " bad line(s), the first at line " +
                      std::to_string(inputs.problems.front().line) + ": " + inputs.problems.front().reason);
    if (static_cast<std::size_t>(sheet.observations) != inputs.observations.size())
        return refuse("it counts " + std::to_string(sheet.observations) + " observations, its inputs hold " +
                      std::to_string(inputs.observations.size()));

    std::vector<pricing::published_row> claimed;
    for (auto const& row : sheet.rows)
        claimed.push_back(pricing::as_published(row));
    auto const audit = pricing::audit_rows(claimed, inputs.observations);
    if (!audit.problems.empty())
        return refuse(audit.problems.front());
    for (auto const& r : audit.rows)
        if (!r.ok())
            return refuse(r.gpu + ": " + r.differences.front());
    return sheet_checked{static_cast<int>(sheet.rows.size()), static_cast<long>(inputs.observations.size())};
}

}
