#include "pricing/sizing.hpp"

#include "pricing/catalog.hpp"
#include "pricing/sheet.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

using lcg::pricing::catalog;
using lcg::pricing::errc;
using lcg::pricing::gpu_model;
using lcg::pricing::half_bytes_per_param;
using lcg::pricing::mig_profile;
using lcg::pricing::needed_memory_units;
using lcg::pricing::needed_units_per_gb;
using lcg::pricing::parse_model_spec;
using lcg::pricing::parse_precision;
using lcg::pricing::precision;
using lcg::pricing::price_sheet;
using lcg::pricing::rates_from_median;
using lcg::pricing::sheet_row;
using lcg::pricing::size_model;
using lcg::pricing::sizing_parameters;
using lcg::pricing::sizing_result;
using lcg::pricing::sizing_row;
using lcg::pricing::smallest_mig_fit;
using lcg::pricing::tier;
using lcg::pricing::to_decimal;

namespace {

gpu_model model(std::string id, int vram, int max_gpus, std::vector<mig_profile> profiles = {},
                std::string architecture = "Hopper")
{
    gpu_model g;
    g.id = std::move(id);
    g.architecture = std::move(architecture);
    g.fp16_dense_tflops = {"989.4", true};
    g.vram_gb = vram;
    g.max_gpus_per_instance = max_gpus;
    g.mig_profiles = std::move(profiles);
    g.mig_max_instances = g.mig_profiles.empty() ? 0 : 7;
    return g;
}

std::vector<mig_profile> h100_profiles()
{
    return {{"1g.10gb", 10, 1, 7}, {"1g.10gb+me", 10, 1, 1}, {"1g.20gb", 20, 1, 4}, {"2g.20gb", 20, 2, 3},
            {"3g.40gb", 40, 3, 2}, {"4g.40gb", 40, 4, 1},    {"7g.80gb", 80, 7, 1}};
}

catalog sample_catalog()
{
    catalog c;
    c.gpus = {model("b200", 180, 8, {}, "Blackwell"),
              model("h100-sxm", 80, 8, h100_profiles()),
              model("h200-sxm", 141, 8,
                    {{"1g.18gb", 18, 1, 7}, {"1g.35gb", 35, 1, 4}, {"3g.71gb", 71, 3, 2}, {"7g.141gb", 141, 7, 1}}),
              model("l40s", 48, 8, {}, "Ada Lovelace"), model("rtx-4090", 24, 4, {}, "Ada Lovelace"),
              model("rtx-a6000", 48, 8, {}, "Ampere")};
    return c;
}

sheet_row priced(std::string gpu, std::int64_t twice_median)
{
    sheet_row r;
    r.gpu = std::move(gpu);
    r.observations = 5;
    r.twice_median_micros = twice_median;
    r.rates = rates_from_median(twice_median);
    return r;
}

price_sheet sample_sheet()
{
    price_sheet s;
    s.rows = {priced("b200", 10'000'000),   // median 5.000 → 3.500
              priced("h100-sxm", 4'800'000),  // median 2.400 → 1.680
              priced("h200-sxm", 6'000'000),  // median 3.000 → 2.100
              priced("l40s", 2'000'000)};     // median 1.000 → 0.700
    sheet_row missing;
    missing.gpu = "rtx-4090";
    missing.observations = 2;
    missing.unavailable_reason = "only 2 observations";
    s.rows.push_back(missing);
    s.rows.push_back(priced("rtx-a6000", 400'000));  // median 0.200 → 0.140: the cheapest GPU-hour, but no FP8
    return s;
}

sizing_result size(char const* params_b, char const* p, std::optional<std::string> gpu = {})
{
    auto const spec = parse_model_spec({params_b, p, std::move(gpu)}, sample_catalog());
    REQUIRE(spec.has_value());
    price_sheet const sheet = sample_sheet();
    return size_model(*spec, sample_catalog(), &sheet);
}

sizing_row const& row_of(sizing_result const& r, std::string const& gpu)
{
    for (auto const& row : r.rows)
        if (row.gpu == gpu)
            return row;
    FAIL("no row for " << gpu);
    return r.rows.front();
}

}

TEST_CASE("bytes per parameter and memory needed, exactly")
{
    CHECK(half_bytes_per_param(precision::fp32) == 8);
    CHECK(half_bytes_per_param(precision::fp16) == 4);
    CHECK(half_bytes_per_param(precision::bf16) == 4);
    CHECK(half_bytes_per_param(precision::fp8) == 2);
    CHECK(half_bytes_per_param(precision::int8) == 2);
    CHECK(half_bytes_per_param(precision::int4) == 1);
    // 70 B × 1 byte × 1.5 = 105 GB; 400 B → 600 GB; 7 B fp16 → 21 GB; 1.1 B int4 → 0.825 GB
    CHECK(needed_memory_units(70'000'000, precision::int8) == 105 * needed_units_per_gb);
    CHECK(needed_memory_units(400'000'000, precision::fp8) == 600 * needed_units_per_gb);
    CHECK(needed_memory_units(7'000'000, precision::fp16) == 21 * needed_units_per_gb);
    CHECK(needed_memory_units(1'100'000, precision::int4) == 82'500'000);
    CHECK(needed_memory_units(1, precision::int4) == 75);  // 0.000001 B × 0.5 × 1.5 = 750 bytes
    CHECK(*parse_precision("BF16") == precision::bf16);
    CHECK_FALSE(parse_precision("fp64").has_value());
}

TEST_CASE("70B at 1 byte: 105 GB → H100 80 GB: 2, H200 141 GB: 1, B200: 1")
{
    sizing_result const r = size("70", "fp8");  // the RTX A6000's cheaper GPU-hours do not count: no FP8
    CHECK(r.needed_units == 105 * needed_units_per_gb);
    struct expect {
        char const* gpu;
        std::int64_t needed;
        int practical;
    };
    for (auto const& e : {expect{"h100-sxm", 2, 2}, expect{"h200-sxm", 1, 1}, expect{"b200", 1, 1},
                          expect{"l40s", 3, 4}, expect{"rtx-4090", 5, 8}}) {
        CAPTURE(e.gpu);
        auto const& row = row_of(r, e.gpu);
        CHECK(row.gpus_needed == e.needed);
        REQUIRE(row.practical_gpus.has_value());
        CHECK(*row.practical_gpus == e.practical);
        CHECK(row.fits_one_node);
    }
    CHECK(row_of(r, "h100-sxm").fits_one_instance);
    CHECK(to_decimal(row_of(r, "h100-sxm").hourly->on_demand) == "3.360");  // 2 × 1.680
    CHECK(to_decimal(row_of(r, "h100-sxm").hourly->spot) == "1.680");
    CHECK(to_decimal(row_of(r, "h200-sxm").hourly->on_demand) == "2.100");
    CHECK(to_decimal(row_of(r, "l40s").hourly->on_demand) == "2.800");     // 4 × 0.700
    // The RTX 4090 takes at most 4 per instance: 8 does not fit one, and it has no price anyway.
    CHECK_FALSE(row_of(r, "rtx-4090").fits_one_instance);
    CHECK_FALSE(row_of(r, "rtx-4090").hourly.has_value());
    CHECK_FALSE(row_of(r, "rtx-4090").priced);
    CHECK(row_of(r, "rtx-4090").unpriced_reason == "only 2 observations");
    // MIG: 105 GB fits no slice of an H100, and on the H200 only the whole GPU (7g.141gb), not a slice.
    CHECK_FALSE(row_of(r, "h100-sxm").mig.has_value());
    CHECK_FALSE(row_of(r, "h200-sxm").mig.has_value());
    CHECK(smallest_mig_fit(sample_catalog().gpus[2], 71 * needed_units_per_gb)->profile == "3g.71gb");
    CHECK(smallest_mig_fit(sample_catalog().gpus[2], 71 * needed_units_per_gb)->instances_per_gpu == 2);
    CHECK_FALSE(row_of(r, "b200").mig.has_value());  // no profiles in this sample catalog

    SUBCASE("the cheapest configuration per tier")
    {
        REQUIRE(r.cheapest.size() == 3);
        CHECK(r.cheapest[0].billed == tier::on_demand);
        CHECK(r.cheapest[0].gpu == "h200-sxm");
        CHECK(r.cheapest[0].gpus == 1);
        CHECK(to_decimal(r.cheapest[0].hourly) == "2.100");
        CHECK(r.cheapest[1].gpu == "h200-sxm");
        CHECK(to_decimal(r.cheapest[1].hourly) == "1.050");
        CHECK(r.cheapest[2].gpu == "h200-sxm");
    }
}

TEST_CASE("400B at 1 byte: 600 GB → H100: 8, H200: 5 (practical 8), B200: 4")
{
    sizing_result const r = size("400", "fp8");
    CHECK(r.needed_units == 600 * needed_units_per_gb);
    CHECK(row_of(r, "h100-sxm").gpus_needed == 8);
    CHECK(*row_of(r, "h100-sxm").practical_gpus == 8);
    CHECK(row_of(r, "h200-sxm").gpus_needed == 5);
    CHECK(*row_of(r, "h200-sxm").practical_gpus == 8);
    CHECK(row_of(r, "b200").gpus_needed == 4);
    CHECK(*row_of(r, "b200").practical_gpus == 4);
    CHECK(to_decimal(row_of(r, "b200").hourly->on_demand) == "14.000");  // 4 × 3.500
    // L40S: 600 / 48 = 12.5 → 13 GPUs: two nodes of 8 in practice (2 instances), 13 at the least (2
    // instances of at most 8), priced linearly: 16 × 0.700 and 13 × 0.700.
    auto const& l40s = row_of(r, "l40s");
    CHECK(l40s.gpus_needed == 13);
    CHECK(*l40s.practical_gpus == 16);
    CHECK_FALSE(l40s.fits_one_node);
    CHECK_FALSE(l40s.fits_one_instance);
    CHECK(l40s.instances == 2);
    CHECK(l40s.smallest_instances == 2);
    CHECK(to_decimal(l40s.hourly->on_demand) == "11.200");
    CHECK(to_decimal(l40s.smallest_hourly->on_demand) == "9.100");
    // 9.100 for 13 L40S is less than 10.500 for 5 H200, but one instance comes before several.
    // Five H200 hold it for less than any power of two: 5 × 2.100 = 10.500 < 8 × 1.680 = 13.440 < 4 × 3.500.
    CHECK(to_decimal(row_of(r, "h200-sxm").smallest_hourly->on_demand) == "10.500");
    CHECK(to_decimal(row_of(r, "h200-sxm").hourly->on_demand) == "16.800");  // the practical 8
    CHECK_FALSE(row_of(r, "h100-sxm").smallest_hourly.has_value());  // 8 is both counts
    // Five H200 hold it for less (10.500), but five GPUs may not shard: the practical 8 H100 at 8 × 1.680
    // come first, before 4 B200 at 14.000. The A6000 would cost 13 × … in two instances, and has no FP8.
    CHECK(r.cheapest[0].gpu == "h100-sxm");
    CHECK(r.cheapest[0].gpus == 8);
    CHECK(to_decimal(r.cheapest[0].hourly) == "13.440");
}

TEST_CASE("native precisions: an Ampere card is never ranked first for FP8, and says what emulating it costs")
{
    // 70 B at fp8: 105 GB → 3 A6000 (4 in practice, 0.560 an hour) are the cheapest GPU-hours, but Ampere
    // has no FP8: one H200 (2.100) comes first, and the A6000 row says it computes in FP16.
    sizing_result const r = size("70", "fp8");
    auto const& a6000 = row_of(r, "rtx-a6000");
    CHECK(*a6000.practical_gpus == 4);
    CHECK_FALSE(a6000.support.native);
    CHECK(a6000.support.computes_in == precision::fp16);
    CHECK(a6000.support.dense_tflops->value == "989.4");
    CHECK(row_of(r, "h100-sxm").support.native);
    CHECK(row_of(r, "h100-sxm").support.computes_in == precision::fp8);
    for (auto const& c : r.cheapest) {
        CHECK(c.gpu == "h200-sxm");
        CHECK(c.native);
    }
    // In FP16 the A6000 runs natively: 210 GB on 8 of them (1.120 an hour) come first on price.
    sizing_result const fp16 = size("70", "fp16");
    CHECK(row_of(fp16, "rtx-a6000").support.native);
    CHECK(fp16.cheapest[0].gpu == "rtx-a6000");
    CHECK(to_decimal(fp16.cheapest[0].hourly) == "1.120");
    // INT4: Ada and Ampere have it natively, Hopper and Blackwell do not.
    sizing_result const int4 = size("70", "int4");
    CHECK(row_of(int4, "rtx-a6000").support.native);
    CHECK_FALSE(row_of(int4, "h100-sxm").support.native);
    CHECK_FALSE(row_of(int4, "b200").support.native);
    CHECK(row_of(int4, "l40s").support.native);
}

TEST_CASE("every precision: a native configuration is ranked first wherever one holds the model")
{
    for (auto const p : lcg::pricing::all_precisions)
        for (char const* params : {"1", "7", "70", "180", "405", "1000"}) {
            sizing_result const r = size(params, std::string(lcg::pricing::to_string(p)).c_str());
            bool const any_native = std::any_of(r.rows.begin(), r.rows.end(), [](sizing_row const& row) {
                return row.support.native && row.hourly;
            });
            CAPTURE(params);
            CAPTURE(lcg::pricing::to_string(p));
            for (auto const& c : r.cheapest)
                CHECK(c.native == any_native);
            for (auto const& row : r.rows)
                if (row.practical_gpus && row.gpus_needed <= 8)
                    CHECK((*row.practical_gpus & (*row.practical_gpus - 1)) == 0);  // 1, 2, 4 or 8
                else if (row.practical_gpus)
                    CHECK(*row.practical_gpus % 8 == 0);  // whole nodes
        }
}

TEST_CASE("a small model fits a MIG slice: the smallest profile that holds it")
{
    // 7 B at int4: 5.25 GB → 1g.10gb, 7 per GPU (not 1g.10gb+me, 1 per GPU)
    sizing_result const r = size("7", "int4", "h100-sxm");
    REQUIRE(r.rows.size() == 1);
    auto const& row = r.rows.front();
    CHECK(row.gpus_needed == 1);
    REQUIRE(row.mig.has_value());
    CHECK(row.mig->profile == "1g.10gb");
    CHECK(row.mig->instances_per_gpu == 7);
    // 13 B fp8: 19.5 GB → 1g.20gb (one slice, 4 per GPU) rather than 2g.20gb
    CHECK(smallest_mig_fit(sample_catalog().gpus[1], needed_memory_units(13'000'000, precision::fp8))->profile ==
          "1g.20gb");
    // exactly 40 GB → 3g.40gb
    CHECK(smallest_mig_fit(sample_catalog().gpus[1], 40 * needed_units_per_gb)->profile == "3g.40gb");
    // just above 40 GB: only 7g.80gb holds it, and that is the whole GPU, not a slice
    CHECK_FALSE(smallest_mig_fit(sample_catalog().gpus[1], 40 * needed_units_per_gb + 1).has_value());
    // a profile with all the GPU's memory is the whole GPU too (RTX PRO 6000: 4g.96gb of 96 GB)
    gpu_model const pro = model("rtx-pro-6000-blackwell", 96, 8, {{"1g.24gb", 24, 1, 4}, {"2g.48gb", 48, 2, 2},
                                                                   {"4g.96gb", 96, 4, 1}});
    CHECK(smallest_mig_fit(pro, 48 * needed_units_per_gb)->profile == "2g.48gb");
    CHECK_FALSE(smallest_mig_fit(pro, 49 * needed_units_per_gb).has_value());
    // Its GPU is cut in four, not seven: 2g.48gb is 2/4 of the compute.
    CHECK(lcg::pricing::mig_compute_slices(pro) == 4);
    CHECK(smallest_mig_fit(pro, 48 * needed_units_per_gb)->slices_per_gpu == 4);
    CHECK(row.mig->slices_per_gpu == 7);
}

TEST_CASE("sizing parameters are validated")
{
    struct row {
        sizing_parameters params;
        char const* parameter;
        char const* phrase;
    };
    row const rows[] = {
        {{"seventy", "fp16", {}}, "params_b", "not a plain decimal"},
        {{"70", "fp64", {}}, "precision", "fp32, fp16, bf16, fp8, int8, int4"},
        {{"70", "int8", "h999"}, "gpu", "not a GPU of the catalog"},
    };
    for (auto const& r : rows) {
        auto const spec = parse_model_spec(r.params, sample_catalog());
        REQUIRE_FALSE(spec.has_value());
        CAPTURE(spec.err().cause.message);
        CHECK(spec.err().parameter == r.parameter);
        CHECK(spec.err().cause.code == errc::invalid_argument);
        CHECK(spec.err().cause.message.find(r.phrase) != std::string::npos);
    }
}

TEST_CASE("without a sheet nothing is priced and nothing is cheapest")
{
    auto const spec = parse_model_spec({"70", "fp16", {}}, sample_catalog());
    REQUIRE(spec.has_value());
    sizing_result const r = size_model(*spec, sample_catalog(), nullptr);
    CHECK(r.rows.size() == 6);
    for (auto const& row : r.rows) {
        CHECK_FALSE(row.priced);
        CHECK_FALSE(row.hourly.has_value());
    }
    CHECK(r.cheapest.empty());
}
