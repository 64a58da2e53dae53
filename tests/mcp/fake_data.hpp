#pragma once

// A data view built by hand from pricing types, for the MCP core's tests: four GPU models (one
// without a price), two weekly sheets, the real glossary content resolved against them, and small
// JSON documents standing in for the HTTP API's.

#include "mcp/data_view.hpp"

#include "glossary/glossary.hpp"

#include "pricing/calendar.hpp"
#include "pricing/catalog.hpp"
#include "pricing/sheet.hpp"

#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace lcg::mcp::testing {

inline pricing::gpu_model make_gpu(std::string id, std::string name, std::string vendor, std::string architecture,
                                   int vram, int bandwidth, std::string tflops, int max_gpus)
{
    pricing::gpu_model m;
    m.id = std::move(id);
    m.name = std::move(name);
    m.vendor = std::move(vendor);
    m.architecture = std::move(architecture);
    m.form_factor = "SXM";
    m.vram_gb = vram;
    m.memory_type = "HBM3";
    m.memory_bandwidth_gbs = bandwidth;
    m.fp16_dense_tflops = pricing::parse_figure(tflops);
    m.fp16_dense_tflops_fp16acc = m.fp16_dense_tflops;
    m.tdp_w = pricing::parse_figure("700");
    m.source = "test fixture";
    m.max_gpus_per_instance = max_gpus;
    m.max_vcpus = 192;
    m.max_memory_gib = 2048;
    m.cpu_generations = {"v6", "v7"};
    m.regions = {"eu-par-1", "us-nyc-1"};
    return m;
}

inline pricing::catalog fake_catalog()
{
    pricing::catalog c;
    auto a100 = make_gpu("a100-80gb-sxm", "NVIDIA A100 80GB SXM", "NVIDIA", "Ampere", 80, 2039, "312", 8);
    a100.mig_max_instances = 7;
    a100.mig_profiles = {{"1g.10gb", 10, 1, 7}, {"3g.40gb", 40, 3, 2}, {"7g.80gb", 80, 7, 1}};
    a100.nvlink_gbs = pricing::parse_figure("600");
    auto h100 = make_gpu("h100-sxm", "NVIDIA H100 SXM5 80GB", "NVIDIA", "Hopper", 80, 3350, "989.4", 8);
    h100.nvlink_gbs = pricing::parse_figure("900");
    auto mi300 = make_gpu("mi300x", "AMD Instinct MI300X", "AMD", "CDNA 3", 192, 5300, "1307.4?", 8);
    auto rtx = make_gpu("rtx-4090", "GeForce RTX 4090", "NVIDIA", "Ada Lovelace", 24, 1008, "165.2", 4);
    rtx.form_factor = "PCIe";
    rtx.memory_type = "GDDR6X";
    c.gpus = {a100, h100, mi300, rtx};
    for (int i = 0; i < 32; ++i)
        c.regions.push_back({"r" + std::to_string(i), "City", "Country", "Europe", false});
    return c;
}

// A sheet where every model but the MI300X is priced: H100 SXM from a $2.400 median (so $1.680).
inline pricing::price_sheet fake_sheet(pricing::iso_week week, std::int64_t h100_median_micros)
{
    pricing::price_sheet s;
    s.week = week;
    s.effective_from = pricing::monday_of(week);
    s.effective_until = pricing::monday_of(pricing::next_week(week));
    s.published_at = s.effective_from;
    s.inputs_sha256 = std::string(64, '0');
    std::map<std::string, std::int64_t> medians{
        {"a100-80gb-sxm", 1'400'000}, {"h100-sxm", h100_median_micros}, {"rtx-4090", 400'000}};
    for (auto const& m : fake_catalog().gpus) {
        pricing::sheet_row row;
        row.gpu = m.id;
        if (auto it = medians.find(m.id); it != medians.end()) {
            row.observations = 12;
            row.twice_median_micros = 2 * it->second;
            row.rates = pricing::rates_from_median(2 * it->second);
        } else {
            row.observations = 3;
            row.twice_median_micros = 2 * 2'000'000;
            row.unavailable_reason = "only 3 market observations in the window; at least 5 are needed";
        }
        s.observations += row.observations;
        s.rows.push_back(row);
    }
    return s;
}

class fake_data final : public data_view {
public:
    fake_data()
        : catalog_(fake_catalog()),
          sheets_{fake_sheet({2026, 48}, 2'500'000), fake_sheet({2026, 49}, 2'400'000)}
    {
        auto const& text = glossary::embedded();
        if (!text)
            throw std::runtime_error(text.err().message);
        auto resolved = glossary::resolve(*text, {sheets_.back(), catalog_});
        if (!resolved)
            throw std::runtime_error(resolved.err().message);
        glossary_ = std::move(resolved).value();
        documents_["/v1/prices"] = R"({"week":"2026-W49","rows":"…"})";
        documents_["/v1/gpus/h100-sxm"] = R"({"id":"h100-sxm"})";
        documents_["/v1/sheets/2026-W48"] = R"({"week":"2026-W48"})";
    }

    pricing::catalog const& catalog() const override { return catalog_; }
    pricing::price_sheet const* current_sheet() const override { return &sheets_.back(); }
    std::span<const pricing::price_sheet> sheets() const override { return sheets_; }
    glossary::document const* glossary(glossary::language lang) const override { return &glossary_->in(lang); }
    std::string_view glossary_problem() const override { return {}; }
    std::optional<document_ref> document(std::string_view path) const override
    {
        auto it = documents_.find(path);
        if (it == documents_.end())
            return std::nullopt;
        return document_ref{"application/json", it->second};
    }

private:
    pricing::catalog catalog_;
    std::vector<pricing::price_sheet> sheets_;
    std::optional<glossary::content> glossary_;
    std::map<std::string, std::string, std::less<>> documents_;
};

}
