#include "pricing/gpu_filter.hpp"

#include "pricing/catalog.hpp"

#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

using lcg::pricing::catalog;
using lcg::pricing::errc;
using lcg::pricing::gpu_filter;
using lcg::pricing::gpu_filter_parameters;
using lcg::pricing::gpu_model;
using lcg::pricing::has_mig;
using lcg::pricing::has_nvlink;
using lcg::pricing::matches;
using lcg::pricing::parse_figure;
using lcg::pricing::parse_gpu_filter;

namespace {

gpu_model model(std::string id, std::string vendor, std::string architecture, int vram, int mig, char const* nvlink)
{
    gpu_model g;
    g.id = std::move(id);
    g.vendor = std::move(vendor);
    g.architecture = std::move(architecture);
    g.vram_gb = vram;
    g.mig_max_instances = mig;
    if (nvlink) {
        g.interconnect_gbs = parse_figure(nvlink);
        g.interconnect_kind = g.vendor == "AMD" ? "Infinity Fabric" : "NVLink";
    }
    return g;
}

catalog sample_catalog()
{
    catalog c;
    c.gpus = {model("a100-80gb-sxm", "NVIDIA", "Ampere", 80, 7, "600"), model("h100-sxm", "NVIDIA", "Hopper", 80, 7, "900"),
              model("l40s", "NVIDIA", "Ada Lovelace", 48, 0, nullptr), model("mi300x", "AMD", "CDNA3", 192, 0, "896"),
              model("rtx-3090", "NVIDIA", "Ampere", 24, 0, "112.5")};
    return c;
}

std::vector<std::string> filtered(gpu_filter_parameters const& p)
{
    catalog const cat = sample_catalog();
    auto const f = parse_gpu_filter(p, cat);
    REQUIRE(f.has_value());
    std::vector<std::string> out;
    for (auto const& m : cat.gpus)
        if (matches(*f, m))
            out.push_back(m.id);
    return out;
}

using ids = std::vector<std::string>;

}

TEST_CASE("catalog filters, case-insensitive for vendor and architecture")
{
    CHECK(filtered({}) == ids{"a100-80gb-sxm", "h100-sxm", "l40s", "mi300x", "rtx-3090"});
    CHECK(filtered({.vendor = "amd"}) == ids{"mi300x"});
    CHECK(filtered({.vendor = "Nvidia", .architecture = "AMPERE"}) == ids{"a100-80gb-sxm", "rtx-3090"});
    CHECK(filtered({.architecture = "ada lovelace"}) == ids{"l40s"});
    CHECK(filtered({.min_vram_gb = "80"}) == ids{"a100-80gb-sxm", "h100-sxm", "mi300x"});
    CHECK(filtered({.min_vram_gb = "80.5"}) == ids{"mi300x"});
    CHECK(filtered({.min_vram_gb = "0"}).size() == 5);
    CHECK(filtered({.mig = "true"}) == ids{"a100-80gb-sxm", "h100-sxm"});
    CHECK(filtered({.mig = "false"}) == ids{"l40s", "mi300x", "rtx-3090"});
    // The MI300X's figure is Infinity Fabric, not NVLink.
    CHECK(filtered({.nvlink = "TRUE"}) == ids{"a100-80gb-sxm", "h100-sxm", "rtx-3090"});
    CHECK(filtered({.nvlink = "false"}) == ids{"l40s", "mi300x"});
    CHECK(filtered({.vendor = "nvidia", .min_vram_gb = "48", .mig = "false"}) == ids{"l40s"});
    CHECK(has_mig(sample_catalog().gpus[0]));
    CHECK_FALSE(has_nvlink(sample_catalog().gpus[3]));
    CHECK(gpu_filter{}.empty());
}

TEST_CASE("bad filter values name the parameter and what is accepted")
{
    struct row {
        gpu_filter_parameters params;
        char const* parameter;
        char const* phrase;
    };
    row const rows[] = {
        {{.vendor = "intel"}, "vendor", "accepted (any letter case): AMD, NVIDIA"},
        {{.architecture = "volta"}, "architecture", "Ada Lovelace, Ampere, CDNA3, Hopper"},
        {{.min_vram_gb = "lots"}, "min_vram_gb", "not a plain decimal number"},
        {{.mig = "yes"}, "mig", "accepted: true, false"},
        {{.nvlink = "1"}, "nvlink", "accepted: true, false"},
    };
    for (auto const& r : rows) {
        auto const f = parse_gpu_filter(r.params, sample_catalog());
        REQUIRE_FALSE(f.has_value());
        CAPTURE(f.err().cause.message);
        CHECK(f.err().parameter == r.parameter);
        CHECK(f.err().cause.code == errc::invalid_argument);
        CHECK(f.err().cause.message.find(r.phrase) != std::string::npos);
    }
}
