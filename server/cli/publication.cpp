#include "server/cli/publication.hpp"

#include "server/digest/digest.hpp"

#include "pricing/observation.hpp"
#include "pricing/sheet.hpp"
#include "pricing/signing.hpp"

#include <chrono>

namespace lcg::cli {

namespace {

// The sheet of `week` as computed from the inputs `p` read; refused while a rate is above the cap.
pricing::price_sheet compute_sheet(store::publication const& p, pricing::iso_week week,
                                   pricing::time_window const& window, pricing::instant now)
{
    pricing::price_sheet sheet;
    sheet.week = week;
    sheet.effective_from = window.until;
    sheet.effective_until = window.until + std::chrono::days{7};
    sheet.published_at = now;
    sheet.rows = pricing::compute_rows(p.gpu_ids(), p.observations(), sheet.rules_version);
    if (auto const bad = pricing::cap_violations(sheet.rows); !bad.empty())
        throw store::store_error(
            "refusing to publish " + pricing::to_string(week) + ": on-demand above the cap for " + bad.front(), true);
    sheet.observations = static_cast<int>(p.observations().size());
    return sheet;
}

}

publish_summary publish(store::database& db, pricing::iso_week week, bool replace, pricing::instant now,
                        store::sheet_signer const& sign, store::catalog_signer const& sign_catalog,
                        store::log_signing const& log)
{
    auto const window = pricing::observation_window(week);
    if (!pricing::published_in_time(window.until, now))
        throw store::store_error("refusing to publish " + pricing::to_string(week) + ": its observation window closes at " +
                                     pricing::to_rfc3339(window.until) +
                                     "; a week is published once its window has closed",
                                 true);
    auto publication = db.begin_publication(week, replace);
    auto sheet = compute_sheet(publication, week, window, now);
    std::string const canonical = pricing::canonical_observations_csv(publication.observations());
    sheet.inputs_sha256 = digest::sha256_hex(canonical);
    if (sign)
        sign(sheet);
    auto const written = publication.commit(sheet, canonical, sign_catalog, log);

    publish_summary summary;
    summary.week = week;
    summary.replaced = publication.replaces();
    summary.models = static_cast<int>(sheet.rows.size());
    summary.observations = sheet.observations;
    summary.inputs_sha256 = sheet.inputs_sha256;
    summary.key_id = sheet.key_id;
    summary.catalog_signed = written.catalog_signed;
    summary.log_size = written.log_size;
    for (auto const& row : sheet.rows) {
        if (row.rates)
            ++summary.priced_models;
        else if (row.observations > 0)
            summary.refused.push_back({row.gpu, row.observations, row.unavailable_reason});
    }
    return summary;
}

}
