#include "audit.hpp"

#include "rules.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace lcg::pricing {

namespace {

void compare(row_audit& audit, std::string_view what, std::string const& published, std::string const& expected)
{
    if (published != expected)
        audit.differences.push_back(std::string(what) + ": published " + (published.empty() ? "nothing" : published) +
                                    ", recomputed " + (expected.empty() ? "nothing" : expected));
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

}

published_row as_published(sheet_row const& row)
{
    return {row.gpu, row.available(), row.observations, published_figures(row)};
}

bool sheet_audit::ok() const
{
    return problems.empty() && std::all_of(rows.begin(), rows.end(), [](row_audit const& r) { return r.ok(); });
}

sheet_audit audit_rows(std::vector<published_row> const& published, std::vector<observation> const& inputs)
{
    std::map<std::string, std::vector<money>, std::less<>> prices;
    for (auto const& o : inputs)
        prices[o.gpu].push_back(o.price);
    sheet_audit report;
    std::set<std::string, std::less<>> listed;
    for (auto const& p : published) {
        if (!listed.insert(p.gpu).second)
            report.problems.push_back("the sheet lists " + p.gpu + " twice");
        auto it = prices.find(p.gpu);
        sheet_row const expected = compute_row(p.gpu, it == prices.end() ? std::vector<money>{} : it->second);
        row_audit audit{p.gpu, {}};
        if (p.available != expected.available())
            audit.differences.push_back(std::string("available: published ") + (p.available ? "true" : "false") +
                                        ", recomputed " + (expected.available() ? "true" : "false"));
        if (p.observations != expected.observations)
            audit.differences.push_back("observations: published " + std::to_string(p.observations) +
                                        ", recomputed " + std::to_string(expected.observations));
        auto const e = published_figures(expected);
        compare(audit, "median", p.figures.median, e.median);
        compare(audit, "cap", p.figures.cap, e.cap);
        compare(audit, "on_demand", p.figures.on_demand, e.on_demand);
        compare(audit, "spot", p.figures.spot, e.spot);
        compare(audit, "reserved", p.figures.reserved, e.reserved);
        compare(audit, "headroom", p.figures.headroom, e.headroom);
        if (p.available)
            check_cap(audit, p.figures);
        report.rows.push_back(std::move(audit));
    }
    for (auto const& [gpu, _] : prices)
        if (!listed.contains(gpu))
            report.problems.push_back("the inputs hold observations of " + gpu + ", which the sheet does not list");
    return report;
}

}
