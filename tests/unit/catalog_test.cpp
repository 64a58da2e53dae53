#include "pricing/catalog.hpp"

#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

using lcg::pricing::catalog;
using lcg::pricing::figure;
using lcg::pricing::gpu_model;
using lcg::pricing::parse_figure;

namespace {

gpu_model model(std::string id, std::string name)
{
    gpu_model g;
    g.id = std::move(id);
    g.name = std::move(name);
    return g;
}

catalog sample_catalog()
{
    catalog c;
    c.gpus = {model("a100-80gb-sxm", "NVIDIA A100 80GB SXM4"), model("h100-nvl", "NVIDIA H100 NVL"),
              model("h100-sxm", "NVIDIA H100 SXM5 80GB"), model("l4", "NVIDIA L4"),
              model("rtx-4090", "GeForce RTX 4090")};
    return c;
}

}

TEST_CASE("parse_figure keeps the figure as written and reads the trailing '?'")
{
    figure const unconfirmed = parse_figure("25.8?");
    CHECK(unconfirmed.value == "25.8");
    CHECK_FALSE(unconfirmed.confirmed);

    figure const confirmed = parse_figure("989.4");
    CHECK(confirmed.value == "989.4");
    CHECK(confirmed.confirmed);

    CHECK(parse_figure("71").value == "71");
    CHECK(parse_figure("71").confirmed);
    CHECK(parse_figure("503.8?").value == "503.8");
    CHECK(parse_figure("1979.00").value == "1979.00");  // as written, not normalised
    CHECK(parse_figure("").value.empty());
    CHECK(parse_figure("").confirmed);
}

TEST_CASE("catalog::find on a catalog sorted by id")
{
    catalog const c = sample_catalog();
    for (auto const& g : c.gpus) {
        CAPTURE(g.id);
        gpu_model const* found = c.find(g.id);
        REQUIRE(found != nullptr);
        CHECK(found == &g);
        CHECK(found->name == g.name);
    }
    CHECK(c.find("h100") == nullptr);          // a prefix is not an id
    CHECK(c.find("h100-sxm5") == nullptr);     // nor is an extension
    CHECK(c.find("H100-SXM") == nullptr);      // ids are case-sensitive
    CHECK(c.find("") == nullptr);
    CHECK(c.find("a") == nullptr);             // before the first
    CHECK(c.find("zzz") == nullptr);           // after the last
    CHECK(c.find("b200") == nullptr);          // between two
    CHECK(catalog{}.find("h100-sxm") == nullptr);
}

TEST_CASE("catalog::ids lists the ids in catalog order")
{
    CHECK(sample_catalog().ids() ==
          std::vector<std::string>{"a100-80gb-sxm", "h100-nvl", "h100-sxm", "l4", "rtx-4090"});
    CHECK(catalog{}.ids().empty());
}
