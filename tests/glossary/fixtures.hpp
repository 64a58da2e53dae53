#pragma once

// A synthetic catalog and sheet for resolving the glossary's placeholders without a database.

#include "pricing/catalog.hpp"
#include "pricing/sheet.hpp"

#include <cstdint>
#include <string>

namespace lcg::glossary::testing {

inline pricing::catalog synthetic_catalog(int regions = 32)
{
    pricing::catalog c;
    for (char const* id : {"a100-80gb-sxm", "h100-sxm", "rtx-4090"}) {
        pricing::gpu_model m;
        m.id = id;
        m.name = id;
        c.gpus.push_back(m);
    }
    for (int i = 0; i < regions; ++i)
        c.regions.push_back({"r" + std::to_string(i), "City", "Country", "Europe", false});
    return c;
}

// Every catalog model priced from the same median, except the H100 SXM, priced from its own.
inline pricing::price_sheet synthetic_sheet(std::int64_t h100_median_micros = 2'400'000)
{
    pricing::price_sheet s;
    s.week = {2026, 49};
    for (auto const& m : synthetic_catalog().gpus) {
        pricing::sheet_row row;
        row.gpu = m.id;
        row.observations = 12;
        std::int64_t const median = m.id == "h100-sxm" ? h100_median_micros : 1'000'000;
        row.twice_median_micros = 2 * median;
        row.rates = pricing::rates_from_median(2 * median);
        s.rows.push_back(row);
    }
    return s;
}

}
