#include "audit.hpp"

#include "rules.hpp"

#include <algorithm>
#include <initializer_list>
#include <set>

namespace lcg::pricing {

namespace {

void compare(row_audit& audit, std::string_view what, std::string const& published, std::string const& expected)
{
    if (published != expected)
        audit.differences.push_back(std::string(what) + ": published " + (published.empty() ? "nothing" : published) +
                                    ", recomputed " + (expected.empty() ? "nothing" : expected));
}

// A published figure and the recomputed one, by name.
struct figure_pair {
    std::string_view what;
    std::string const& published;
    std::string const& expected;
};

void compare_all(row_audit& audit, std::initializer_list<figure_pair> figures)
{
    for (auto const& f : figures)
        compare(audit, f.what, f.published, f.expected);
}

// The cap read from the published strings only, so a wrong median cannot hide a wrong rate.
void check_cap(row_audit& audit, row_figures const& f)
{
    auto const on_demand = parse_decimal_units(f.on_demand, 6);
    auto const median_tenths = parse_decimal_units(f.median, 7);  // tenths of a micro-dollar
    if (!on_demand || !median_tenths) {
        audit.differences.push_back("on_demand or median is not an exact decimal");
        return;
    }
    auto const r = rules::on_demand_of_median;
    // on_demand ≤ ratio × median  ⇔  on_demand_micros × 10 × denominator ≤ numerator × median_tenths
    if (*on_demand * 10 * r.denominator > r.numerator * *median_tenths)
        audit.differences.push_back("on_demand " + f.on_demand + " is above the cap of 0.70 × median " + f.median);
}

// The rules read from the published strings alone, as check_cap does: whatever the inputs say, a
// priced row has enough observations, whole-mill rates of at least the minimum, and spot and
// reserved at their shares of the published on-demand.
void check_published_rules(row_audit& audit, published_row const& p, int version)
{
    if (p.observations < rules::min_observations)
        audit.differences.push_back("priced with " + std::to_string(p.observations) + " observations; at least " +
                                    std::to_string(rules::min_observations) + " are needed");
    if (version >= 2 && p.sources < rules::min_sources)
        audit.differences.push_back("priced with " + std::to_string(p.sources) + " sources; at least " +
                                    std::to_string(rules::min_sources) + " are needed");
    auto const on_demand = parse_money(p.figures.on_demand);
    if (!on_demand || !on_demand->is_whole_mills()) {
        audit.differences.push_back("on_demand " + p.figures.on_demand + " is not a whole number of mills");
        return;
    }
    tier_rates const shares = rates_from_on_demand(*on_demand);
    auto share_of = [&](std::string_view name, std::string const& published, money expected, rules::ratio r) {
        if (published != to_decimal(expected))
            audit.differences.push_back(std::string(name) + " " + published + " is not " +
                                        std::to_string(r.numerator * 100 / r.denominator) + " % of on_demand " +
                                        p.figures.on_demand + " rounded down to the mill (" + to_decimal(expected) +
                                        ")");
    };
    share_of("spot", p.figures.spot, shares.spot, rules::spot_of_on_demand);
    share_of("reserved", p.figures.reserved, shares.reserved, rules::reserved_of_on_demand);
    for (tier t : all_tiers)
        if (shares.of(t) < rules::min_published_rate)
            audit.differences.push_back(std::string(to_string(t)) + " " + to_decimal(shares.of(t)) +
                                        " is below the smallest published rate, " +
                                        to_decimal(rules::min_published_rate));
}

void check_dates(std::vector<std::string>& problems, published_sheet const& sheet, iso_week week)
{
    std::string const name = to_string(week);
    std::string const from = to_rfc3339(monday_of(week));
    std::string const until = to_rfc3339(monday_of(next_week(week)));
    if (sheet.effective_from != from)
        problems.push_back("effective_from: published " + sheet.effective_from + ", the week " + name + " starts " +
                           from);
    if (sheet.effective_until != until)
        problems.push_back("effective_until: published " + sheet.effective_until + ", the week " + name + " ends " +
                           until);
}

void check_window(std::vector<std::string>& problems, outside_window const& outside, time_window window)
{
    if (outside.count > 0)
        problems.push_back(std::to_string(outside.count) +
                           (outside.count == 1 ? " observation lies" : " observations lie") + " outside the window " +
                           to_rfc3339(window.from) + " .. " + to_rfc3339(window.until) +
                           " the sheet is computed from (first: " + outside.first_gpu + " at " +
                           to_rfc3339(outside.first_at) + ")");
}

}

bool is_sha256_hex(std::string_view text)
{
    return text.size() == 64 &&
           std::all_of(text.begin(), text.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

published_row as_published(sheet_row const& row)
{
    return {row.gpu,         row.available(),          row.observations,        published_figures(row),
            row.unavailable_reason, row.sources, published_market(row), published_sources(row)};
}

bool sheet_audit::ok() const
{
    return problems.empty() && std::all_of(rows.begin(), rows.end(), [](row_audit const& r) { return r.ok(); });
}

namespace {

void compare_count(row_audit& audit, std::string_view what, int published, int expected)
{
    if (published != expected)
        audit.differences.push_back(std::string(what) + ": published " + std::to_string(published) + ", recomputed " +
                                    std::to_string(expected));
}

void compare_market(row_audit& audit, published_row const& p, sheet_row const& expected)
{
    compare_count(audit, "sources", p.sources, expected.sources);
    auto const m = published_market(expected);
    compare_all(audit, {{"market.min", p.market.min, m.min},
                        {"market.p25", p.market.p25, m.p25},
                        {"market.median", p.market.median, m.median},
                        {"market.p75", p.market.p75, m.p75},
                        {"market.max", p.market.max, m.max}});
    if (p.by_source != published_sources(expected))
        audit.differences.push_back("by_source: the published sources' prices are not those of the inputs");
}

sheet_audit audit_rows(std::vector<published_row> const& published, listing_tally const& inputs, int version)
{
    std::vector<std::string> ids;
    for (auto const& p : published)
        ids.push_back(p.gpu);
    std::vector<sheet_row> const recomputed = inputs.compute_rows(ids, version);
    sheet_audit report;
    std::set<std::string, std::less<>> listed;
    for (std::size_t i = 0; i < published.size(); ++i) {
        published_row const& p = published[i];
        if (!listed.insert(p.gpu).second)
            report.problems.push_back("the sheet lists " + p.gpu + " twice");
        sheet_row const& expected = recomputed[i];
        row_audit audit{p.gpu, {}};
        if (version >= 2)
            compare_market(audit, p, expected);
        if (p.available != expected.available())
            audit.differences.push_back(std::string("available: published ") + (p.available ? "true" : "false") +
                                        ", recomputed " + (expected.available() ? "true" : "false"));
        compare_count(audit, "observations", p.observations, expected.observations);
        auto const e = published_figures(expected);
        compare_all(audit, {{"median", p.figures.median, e.median},
                            {"cap", p.figures.cap, e.cap},
                            {"on_demand", p.figures.on_demand, e.on_demand},
                            {"spot", p.figures.spot, e.spot},
                            {"reserved", p.figures.reserved, e.reserved},
                            {"headroom", p.figures.headroom, e.headroom}});
        if (p.available) {
            check_cap(audit, p.figures);
            check_published_rules(audit, p, version);
            if (!p.reason.empty())
                audit.differences.push_back("reason: published " + quote(p.reason) + " for a priced row");
        } else if (p.reason != expected.unavailable_reason) {
            audit.differences.push_back("reason: published " + (p.reason.empty() ? "nothing" : quote(p.reason)) +
                                        ", the rules give " + quote(expected.unavailable_reason));
        }
        report.rows.push_back(std::move(audit));
    }
    for (auto const& gpu : inputs.models())
        if (!listed.contains(gpu))
            report.problems.push_back("the inputs hold observations of " + gpu + ", which the sheet does not list");
    return report;
}

}

sheet_audit audit_sheet(published_sheet const& sheet, inputs_tally const& inputs)
{
    sheet_audit report;
    if (sheet.rules_version < rules::oldest_rules_version || sheet.rules_version > rules::rules_version) {
        report.problems.push_back("rules_version: published " + std::to_string(sheet.rules_version) +
                                  "; this auditor knows versions " + std::to_string(rules::oldest_rules_version) +
                                  " to " + std::to_string(rules::rules_version));
        return report;
    }
    report = audit_rows(sheet.rows, inputs.listings(), sheet.rules_version);
    auto& problems = report.problems;
    auto const week = parse_week(sheet.week);
    if (!week) {
        problems.push_back("week: " + week.err().message);
    } else {
        check_dates(problems, sheet, *week);
        check_window(problems, inputs.outside(), observation_window(*week));
    }
    if (sheet.observations != inputs.observations())
        problems.push_back("observations: published " + std::to_string(sheet.observations) + ", the inputs hold " +
                           std::to_string(inputs.observations()));
    auto const priced = std::count_if(sheet.rows.begin(), sheet.rows.end(), [](auto const& r) { return r.available; });
    if (sheet.priced_models != priced)
        problems.push_back("priced_models: published " + std::to_string(sheet.priced_models) + ", the rows price " +
                           std::to_string(priced));
    if (!is_sha256_hex(sheet.inputs_sha256))
        problems.push_back("inputs_sha256: published " + quote(sheet.inputs_sha256) +
                           ", which is not 64 lower-case hexadecimal digits");
    if (!inputs.is_canonical())
        problems.push_back("the observations are not the canonical CSV of their rows (sorted by gpu, observed_at, "
                           "price, listing_id; prices with 6 decimals; \\n line ends)");
    return report;
}

}
