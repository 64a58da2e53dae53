#include "pricing/audit.hpp"

#include "pricing/calendar.hpp"
#include "pricing/inputs_tally.hpp"
#include "pricing/rules.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

using namespace lcg::pricing;

namespace {

// The audit of inputs held whole: tallied, then audited from the tally.
sheet_audit audit_sheet(published_sheet const& sheet, std::string_view inputs_csv)
{
    inputs_tally inputs(sheet.week);
    inputs.read(inputs_csv);
    inputs.finish();
    return lcg::pricing::audit_sheet(sheet, inputs);
}

iso_week const week{2030, 2};  // in effect from Monday 2030-01-07; window 2029-12-31 .. 2030-01-06

observation observed(std::string gpu, char const* when, char const* price, char const* listing)
{
    return {*parse_utc_timestamp(when), std::move(gpu), *parse_money(price), "m", listing, ""};
}

std::vector<observation> sample_inputs()
{
    std::vector<observation> out;
    for (char const* p : {"2.300", "2.400", "2.400", "2.500", "2.600"})
        out.push_back(observed("h100-sxm", "2030-01-02T10:00:00Z", p, p));
    for (char const* p : {"0.400", "0.500"})
        out.push_back(observed("l4", "2030-01-03T10:00:00Z", p, p));
    sort_canonically(out);
    return out;
}

// What an honest publisher would write for `inputs`, as the audit reads it back.
published_sheet honest_sheet(std::vector<observation> const& inputs)
{
    published_sheet s;
    s.week = to_string(week);
    s.effective_from = to_rfc3339(monday_of(week));
    s.effective_until = to_rfc3339(monday_of(next_week(week)));
    s.inputs_sha256 = std::string(64, 'a');  // its value is checked against the bytes by the caller
    s.observations = static_cast<int>(inputs.size());
    std::vector<std::string> const ids{"h100-sxm", "l4"};
    s.priced_models = 0;
    for (auto const& row : compute_rows(ids, inputs, 1)) {
        s.rows.push_back(as_published(row));
        s.priced_models += row.available() ? 1 : 0;
    }
    return s;
}

bool names(sheet_audit const& a, std::string const& needle)
{
    auto has = [&](std::string const& p) { return p.find(needle) != std::string::npos; };
    if (std::any_of(a.problems.begin(), a.problems.end(), has))
        return true;
    return std::any_of(a.rows.begin(), a.rows.end(),
                       [&](row_audit const& r) { return std::any_of(r.differences.begin(), r.differences.end(), has); });
}

std::string all_text(sheet_audit const& a)
{
    std::string out;
    for (auto const& p : a.problems)
        out += p + "\n";
    for (auto const& r : a.rows)
        for (auto const& d : r.differences)
            out += r.gpu + ": " + d + "\n";
    return out;
}

}

TEST_CASE("an honest sheet passes the audit")
{
    auto const inputs = sample_inputs();
    auto const a = audit_sheet(honest_sheet(inputs), canonical_observations_csv(inputs));
    CAPTURE(all_text(a));
    CHECK(a.ok());
}

TEST_CASE("observations outside the sheet's 7-day window fail the audit (moved to 2019)")
{
    auto inputs = sample_inputs();
    auto const sheet = honest_sheet(inputs);
    for (auto& o : inputs)
        o.observed_at -= std::chrono::days(11 * 365);
    auto const a = audit_sheet(sheet, canonical_observations_csv(inputs));
    CAPTURE(all_text(a));
    CHECK_FALSE(a.ok());
    CHECK(names(a, "7 observations lie outside the window 2029-12-31T00:00:00Z .. 2030-01-07T00:00:00Z"));
    CHECK(names(a, "2019-"));

    auto edge = sample_inputs();
    edge.front().observed_at = monday_of(week);  // the re-check instant belongs to the next window
    auto const b = audit_sheet(honest_sheet(edge), canonical_observations_csv(edge));
    CHECK(names(b, "1 observation lies outside the window"));
}

TEST_CASE("effective dates must be the week's Monday and the next Monday")
{
    auto const inputs = sample_inputs();
    auto const csv = canonical_observations_csv(inputs);
    auto moved = honest_sheet(inputs);
    moved.effective_from = "2030-01-08T00:00:00Z";
    CHECK(names(audit_sheet(moved, csv), "effective_from: published 2030-01-08T00:00:00Z, the week 2030-W02 "
                                                 "starts 2030-01-07T00:00:00Z"));
    auto longer = honest_sheet(inputs);
    longer.effective_until = "2030-01-21T00:00:00Z";
    CHECK(names(audit_sheet(longer, csv), "effective_until: published 2030-01-21T00:00:00Z"));
    auto bad_week = honest_sheet(inputs);
    bad_week.week = "2030-W60";
    CHECK(names(audit_sheet(bad_week, csv), "week: '2030-W60' is not"));
}

TEST_CASE("sheet counts, the hash's form and the canonical form of the inputs are checked")
{
    auto const inputs = sample_inputs();
    auto const csv = canonical_observations_csv(inputs);
    auto count = honest_sheet(inputs);
    count.observations = 8;
    CHECK(names(audit_sheet(count, csv), "observations: published 8, the inputs hold 7"));
    auto priced = honest_sheet(inputs);
    priced.priced_models = 2;
    CHECK(names(audit_sheet(priced, csv), "priced_models: published 2, the rows price 1"));
    auto hash = honest_sheet(inputs);
    hash.inputs_sha256 = "ABC";
    CHECK(names(audit_sheet(hash, csv), "inputs_sha256"));
    std::string reordered = csv;
    reordered.pop_back();  // no final line end: not the canonical bytes
    CHECK(names(audit_sheet(honest_sheet(inputs), reordered), "not the canonical CSV"));
}

TEST_CASE("row rules read from the published strings: shares, minimum observations, reasons, rates")
{
    auto const inputs = sample_inputs();
    auto const csv = canonical_observations_csv(inputs);
    auto const find = [](published_sheet& s, char const* gpu) -> published_row& {
        return *std::find_if(s.rows.begin(), s.rows.end(), [&](published_row const& r) { return r.gpu == gpu; });
    };
    SUBCASE("a reason other than the rules'")
    {
        auto s = honest_sheet(inputs);
        find(s, "l4").reason = "withdrawn";
        auto const a = audit_sheet(s, csv);
        CHECK(names(a, "reason: published 'withdrawn'"));
    }
    SUBCASE("an unpriced row without a reason")
    {
        auto s = honest_sheet(inputs);
        find(s, "l4").reason.clear();
        CHECK(names(audit_sheet(s, csv), "reason: published nothing"));
    }
    SUBCASE("a priced row with fewer observations than the minimum, even if the inputs agree")
    {
        auto s = honest_sheet(inputs);
        find(s, "h100-sxm").observations = rules::min_observations - 1;
        CHECK(names(audit_sheet(s, csv), "priced with 4 observations; at least 5 are needed"));
    }
    SUBCASE("spot and reserved must be the published shares of the published on-demand")
    {
        auto s = honest_sheet(inputs);
        auto& h = find(s, "h100-sxm");
        h.figures.spot = "0.900";
        h.figures.reserved = "1.200";
        auto const a = audit_sheet(s, csv);
        CHECK(names(a, "spot 0.900 is not 50 % of on_demand 1.680 rounded down to the mill (0.840)"));
        CHECK(names(a, "reserved 1.200 is not 65 % of on_demand 1.680 rounded down to the mill (1.092)"));
    }
}
