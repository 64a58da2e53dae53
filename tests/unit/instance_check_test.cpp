#include "pricing/instance_check.hpp"

#include "pricing/catalog.hpp"

#include <doctest/doctest.h>

#include <string>
#include <tuple>
#include <utility>
#include <vector>

using lcg::pricing::catalog;
using lcg::pricing::check_instance;
using lcg::pricing::errc;
using lcg::pricing::gpu_model;
using lcg::pricing::instance_check;
using lcg::pricing::instance_parameters;
using lcg::pricing::limits_in_region;
using lcg::pricing::parse_instance_request;
using lcg::pricing::region;

namespace {

using strings = std::vector<std::string>;

gpu_model model(std::string id, int max_gpus, int vcpus, int memory, strings generations)
{
    gpu_model g;
    g.id = std::move(id);
    g.max_gpus_per_instance = max_gpus;
    g.max_vcpus = vcpus;
    g.max_memory_gib = memory;
    g.cpu_generations = std::move(generations);
    return g;
}

// The documented limits: L40 35 vCPUs / 250 GiB / v7; H100 32 / 256 / v7; A100 80GB 35 / 256 / v6,
// and v6 and v7 in the sovereign region eu-paris-2.
catalog sample_catalog()
{
    catalog c;
    gpu_model a100 = model("a100-80gb-sxm", 8, 35, 256, {"v6"});
    a100.extra_cpu_generations = {{"eu-paris-2", {"v7"}}};
    c.gpus = {a100, model("h100-sxm", 8, 32, 256, {"v7"}), model("l40", 8, 35, 250, {"v7"}),
              model("rtx-4090", 4, 32, 192, {"v6", "v7"})};
    c.regions = {{"eu-paris-1", "Paris", "FR", "Europe", false}, {"eu-paris-2", "Paris", "FR", "Europe", true},
                 {"us-dallas-1", "Dallas", "US", "North America", false}};
    return c;
}

instance_check check(instance_parameters const& p)
{
    catalog const cat = sample_catalog();
    auto const req = parse_instance_request(p, cat);
    REQUIRE(req.has_value());
    return check_instance(*req, *cat.find(req->gpu));
}

}

TEST_CASE("an instance within every limit is ok")
{
    for (auto const& p : {instance_parameters{"h100-sxm", "8", "32", "256", "v7", {}},
                          instance_parameters{"l40", {}, "35", "250", "V7", "us-dallas-1"},
                          instance_parameters{"a100-80gb-sxm", "2", "16", "128", "v6", {}},
                          instance_parameters{"a100-80gb-sxm", "1", "35", "256", "v7", "eu-paris-2"},
                          instance_parameters{"A100-80GB-SXM", "1", "35", "256", "v6", "EU-PARIS-2"}}) {
        instance_check const c = check(p);
        CAPTURE(c.request.gpu);
        CHECK(c.ok());
        CHECK(c.problems.empty());
    }
}

TEST_CASE("each broken limit is reported with the allowed and requested values")
{
    SUBCASE("vCPUs")
    {
        instance_check const c = check({"h100-sxm", "1", "40", "256", "v7", {}});
        REQUIRE(c.problems.size() == 1);
        CHECK(c.problems[0].limit == "max_vcpus");
        CHECK(c.problems[0].allowed == 32);
        CHECK(c.problems[0].requested == 40);
    }
    SUBCASE("memory")
    {
        instance_check const c = check({"l40", "1", "35", "251", "v7", {}});
        REQUIRE(c.problems.size() == 1);
        CHECK(c.problems[0].limit == "max_memory_gib");
        CHECK(c.problems[0].allowed == 250);
        CHECK(c.problems[0].requested == 251);
    }
    SUBCASE("CPU generation")
    {
        instance_check const c = check({"a100-80gb-sxm", "1", "35", "256", "v7", "eu-paris-1"});
        REQUIRE(c.problems.size() == 1);
        CHECK(c.problems[0].limit == "cpu_generation");
        CHECK(c.problems[0].allowed_generations == strings{"v6"});
        CHECK(c.problems[0].requested_generation == "v7");
    }
    SUBCASE("GPUs per instance")
    {
        instance_check const c = check({"rtx-4090", "8", "32", "192", "v7", {}});
        REQUIRE(c.problems.size() == 1);
        CHECK(c.problems[0].limit == "max_gpus_per_instance");
        CHECK(c.problems[0].allowed == 4);
        CHECK(c.problems[0].requested == 8);
    }
    SUBCASE("all four at once, in a fixed order")
    {
        instance_check const c = check({"h100-sxm", "9", "40", "512", "v6", "eu-paris-2"});
        CHECK_FALSE(c.ok());
        REQUIRE(c.problems.size() == 4);
        CHECK(c.problems[0].limit == "max_gpus_per_instance");
        CHECK(c.problems[1].limit == "max_vcpus");
        CHECK(c.problems[2].limit == "max_memory_gib");
        CHECK(c.problems[3].limit == "cpu_generation");
        CHECK(c.problems[3].allowed_generations == strings{"v7"});  // eu-paris-2 adds nothing to the H100
    }
}

TEST_CASE("the attachment rules are named limits: one GPU model, the performance flag, no dedicated VM")
{
    instance_parameters p{"h100-sxm", "2", "32", "256", "v7", {}};
    CHECK(check(p).ok());  // the flag assumed on, not a dedicated VM, one model
    p.other_gpu = "H100-SXM";
    p.cpu_performance = "true";
    p.dedicated_vm = "false";
    CHECK(check(p).ok());  // the same model twice is one model
    p.other_gpu = "l40";
    p.cpu_performance = "false";
    p.dedicated_vm = "TRUE";
    instance_check const c = check(p);
    REQUIRE(c.problems.size() == 3);
    CHECK(c.problems[0].limit == "one_gpu_model");
    CHECK(c.problems[0].allowed_text == "h100-sxm");
    CHECK(c.problems[0].requested_text == "l40");
    CHECK(c.problems[1].limit == "cpu_performance_flag");
    CHECK(c.problems[1].allowed_flag == true);
    CHECK_FALSE(c.problems[1].requested_flag);
    CHECK(c.problems[2].limit == "not_dedicated_vm");
    CHECK(c.problems[2].allowed_flag == false);
    CHECK(c.problems[2].requested_flag);
    // The cloud document's word for the flag on.
    instance_parameters highest{"h100-sxm", "1", "8", "64", "v7", {}};
    highest.cpu_performance = "Highest";
    REQUIRE(parse_instance_request(highest, sample_catalog()).has_value());
    CHECK(parse_instance_request(highest, sample_catalog())->cpu_performance);
    // Bad values name their parameter.
    for (auto [field, value, name] : {std::tuple{&instance_parameters::other_gpu, "h999", "other_gpu"},
                                      std::tuple{&instance_parameters::cpu_performance, "yes", "cpu_performance"},
                                      std::tuple{&instance_parameters::dedicated_vm, "1", "dedicated_vm"}}) {
        instance_parameters bad{"h100-sxm", "1", "8", "64", "v7", {}};
        bad.*field = value;
        auto const req = parse_instance_request(bad, sample_catalog());
        REQUIRE_FALSE(req.has_value());
        CHECK(req.err().parameter == name);
    }
}

TEST_CASE("the sovereign region adds v7 to the A100 80GB, and only there")
{
    catalog const cat = sample_catalog();
    auto const& a100 = *cat.find("a100-80gb-sxm");
    CHECK(limits_in_region(a100, "eu-paris-2").cpu_generations == strings{"v6", "v7"});
    CHECK(limits_in_region(a100, "eu-paris-1").cpu_generations == strings{"v6"});
    CHECK(limits_in_region(a100, "").cpu_generations == strings{"v6"});
    CHECK(limits_in_region(a100, "eu-paris-2").max_vcpus == 35);
    CHECK(limits_in_region(a100, "eu-paris-2").max_memory_gib == 256);
    CHECK(check({"a100-80gb-sxm", "1", "8", "64", "v7", {}}).problems.size() == 1);
    CHECK(check({"a100-80gb-sxm", "1", "8", "64", "v7", "eu-paris-2"}).ok());
}

TEST_CASE("instance-check parameters are validated")
{
    struct row {
        instance_parameters params;
        char const* parameter;
        char const* phrase;
    };
    row const rows[] = {
        {{"h999", "1", "8", "64", "v7", {}}, "gpu", "not a GPU of the catalog"},
        {{"h100-sxm", "1", "8.5", "64", "v7", {}}, "vcpus", "is not an integer"},
        {{"h100-sxm", "1", "8", "64", "skylake", {}}, "cpu_generation", "not a CPU generation"},
        {{"h100-sxm", "1", "8", "64", "v", {}}, "cpu_generation", "not a CPU generation"},
        {{"h100-sxm", "1", "8", "64", "v7", "mars-1"}, "region", "eu-paris-1, eu-paris-2, us-dallas-1"},
    };
    for (auto const& r : rows) {
        auto const req = parse_instance_request(r.params, sample_catalog());
        REQUIRE_FALSE(req.has_value());
        CAPTURE(req.err().cause.message);
        CHECK(req.err().parameter == r.parameter);
        CHECK(req.err().cause.code == errc::invalid_argument);
        CHECK(req.err().cause.message.find(r.phrase) != std::string::npos);
    }
    // An unknown but well-formed generation is a mismatch, not a bad request.
    CHECK(check({"h100-sxm", "1", "8", "64", "v9", {}}).problems[0].limit == "cpu_generation");
}
