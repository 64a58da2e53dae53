#include "pricing/gpu_lookup.hpp"

#include "pricing/estimate.hpp"
#include "pricing/rules.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace lcg::pricing;

namespace {

gpu_model model(std::string id, std::string name, std::string form_factor)
{
    gpu_model g;
    g.id = std::move(id);
    g.name = std::move(name);
    g.form_factor = std::move(form_factor);
    return g;
}

// Ids, names and form factors as the catalog has them, in id order.
catalog sample_catalog()
{
    catalog c;
    c.gpus = {model("a100-80gb-pcie", "NVIDIA A100 80GB PCIe", "PCIe"),
              model("a100-80gb-sxm", "NVIDIA A100 80GB SXM4", "SXM"),
              model("h100-nvl", "NVIDIA H100 NVL (94 GB, per GPU)", "PCIe"),
              model("h100-pcie", "NVIDIA H100 PCIe 80GB", "PCIe"),
              model("h100-sxm", "NVIDIA H100 SXM5 80GB", "SXM"),
              model("l40", "NVIDIA L40", "PCIe"),
              model("l40s", "NVIDIA L40S", "PCIe"),
              model("mi300x", "AMD Instinct MI300X", "OAM"),
              model("rtx-4090", "GeForce RTX 4090", "consumer"),
              model("rtx-6000-ada", "NVIDIA RTX 6000 Ada Generation", "PCIe"),
              model("rtx-pro-6000-blackwell", "NVIDIA RTX PRO 6000 Blackwell (96 GB; Workstation / Server Edition)", "PCIe")};
    return c;
}

std::string found(std::string_view text)
{
    static catalog const c = sample_catalog();
    auto const m = lookup_gpu(text, c);
    return m.model ? m.model->id : "";
}

std::vector<std::string> candidates(std::string_view text)
{
    static catalog const c = sample_catalog();
    std::vector<std::string> out;
    for (auto const* m : lookup_gpu(text, c).candidates)
        out.push_back(m->id);
    return out;
}

}

TEST_CASE("a GPU is found by its id in any letter case, or by the words of its name")
{
    CHECK(found("h100-sxm") == "h100-sxm");
    CHECK(found("H100-SXM") == "h100-sxm");
    CHECK(found("nvidia-h100-sxm") == "h100-sxm");  // the vendor prefix of the cloud's ids
    CHECK(found("NVIDIA H100 SXM5") == "h100-sxm");  // sxm5 is the catalog's sxm
    CHECK(found("H100 NVL") == "h100-nvl");
    CHECK(found("h100_pcie") == "h100-pcie");
    CHECK(found("A100 80 GB PCIe") == "a100-80gb-pcie");
    CHECK(found("RTX 4090") == "rtx-4090");
    CHECK(found("geforce rtx 4090") == "rtx-4090");
    CHECK(found("4090") == "rtx-4090");  // one model has that word
    CHECK(found("AMD Instinct MI300X") == "mi300x");
    CHECK(found("L40") == "l40");        // a word, not a prefix: L40S is another card
    CHECK(found("RTX PRO 6000") == "rtx-pro-6000-blackwell");
}

TEST_CASE("an ambiguous or unknown name gets ranked candidates: SXM, then PCIe, then NVL")
{
    CHECK(found("H100").empty());
    CHECK(candidates("H100") == std::vector<std::string>{"h100-sxm", "h100-pcie", "h100-nvl"});
    CHECK(candidates("nvidia-h100") == std::vector<std::string>{"h100-sxm", "h100-pcie", "h100-nvl"});
    CHECK(candidates("a100 80gb") == std::vector<std::string>{"a100-80gb-sxm", "a100-80gb-pcie"});
    // The most words in common when no model has them all.
    CHECK(candidates("H100 SXM 94GB") == std::vector<std::string>{"h100-sxm"});
    CHECK(candidates("qwxz").empty());
    CHECK(candidates("nvidia").empty());  // brand words name nothing
    CHECK(candidates("rtx 6000") == std::vector<std::string>{"rtx-6000-ada", "rtx-pro-6000-blackwell"});
}

TEST_CASE("the gpu parameter names the closest models in its refusal, and its cost is bounded")
{
    auto const c = sample_catalog();
    auto const h100 = find_gpu_parameter("gpu", "H100", c);
    REQUIRE_FALSE(h100);
    CHECK(h100.err().cause.message.starts_with("gpu: 'H100' names several GPUs; closest: h100-sxm, h100-pcie, h100-nvl"));
    CHECK(h100.err().suggestions == std::vector<std::string>{"h100-sxm", "h100-pcie", "h100-nvl"});
    auto const none = find_gpu_parameter("gpu", "qwxz", c);
    REQUIRE_FALSE(none);
    CHECK(none.err().suggestions.empty());
    CHECK(none.err().cause.message.find("accepted: a catalog id") != std::string::npos);

    // A long name is read only up to its first rules::max_gpu_name_bytes bytes, and echoed as much.
    std::string const long_name = "h100 " + std::string(100'000, 'x');
    auto const refused = find_gpu_parameter("gpu", long_name, c);
    REQUIRE_FALSE(refused);
    CHECK(refused.err().cause.message.size() < 400);
    CHECK(found(std::string(rules::max_gpu_name_bytes, ' ') + "h100-sxm").empty());
}
