#include "pricing/gpu_lookup.hpp"

#include "pricing/estimate.hpp"
#include "pricing/rules.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace lcg::pricing;

namespace {

gpu_model model(std::string id, std::string name, std::string architecture, std::string form_factor, int vram_gb)
{
    gpu_model g;
    g.id = std::move(id);
    g.name = std::move(name);
    g.architecture = std::move(architecture);
    g.form_factor = std::move(form_factor);
    g.vram_gb = vram_gb;
    return g;
}

// Ids, names, architectures, form factors and memory as the catalog (../shared/data/gpu-facts.csv)
// has them, in its order.
catalog sample_catalog()
{
    catalog c;
    c.gpus = {model("rtx-4090", "GeForce RTX 4090", "Ada Lovelace", "consumer", 24),
              model("rtx-5090", "GeForce RTX 5090", "Blackwell", "consumer", 32),
              model("rtx-a6000", "NVIDIA RTX A6000", "Ampere", "PCIe", 48),
              model("rtx-6000-ada", "NVIDIA RTX 6000 Ada Generation", "Ada Lovelace", "PCIe", 48),
              model("rtx-pro-6000-blackwell", "NVIDIA RTX PRO 6000 Blackwell (96 GB; Workstation / Server Edition)",
                    "Blackwell", "PCIe", 96),
              model("l4", "NVIDIA L4", "Ada Lovelace", "PCIe", 24),
              model("l40", "NVIDIA L40", "Ada Lovelace", "PCIe", 48),
              model("l40s", "NVIDIA L40S", "Ada Lovelace", "PCIe", 48),
              model("a100-40gb-sxm", "NVIDIA A100 40GB SXM4", "Ampere", "SXM", 40),
              model("a100-80gb-pcie", "NVIDIA A100 80GB PCIe", "Ampere", "PCIe", 80),
              model("a100-80gb-sxm", "NVIDIA A100 80GB SXM4", "Ampere", "SXM", 80),
              model("h100-pcie", "NVIDIA H100 PCIe 80GB", "Hopper", "PCIe", 80),
              model("h100-sxm", "NVIDIA H100 SXM5 80GB", "Hopper", "SXM", 80),
              model("h100-nvl", "NVIDIA H100 NVL (94 GB, per GPU)", "Hopper", "PCIe", 94),
              model("h200-sxm", "NVIDIA H200 SXM5 141GB", "Hopper", "SXM", 141),
              model("h200-nvl", "NVIDIA H200 NVL (141 GB, PCIe)", "Hopper", "PCIe", 141),
              model("b200", "NVIDIA B200 (HGX, SXM6 180GB)", "Blackwell", "SXM", 180),
              model("mi300x", "AMD Instinct MI300X", "CDNA3", "OAM", 192),
              model("mi325x", "AMD Instinct MI325X", "CDNA3", "OAM", 256)};
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
    CHECK(found("nvidia-l40") == "l40");
    CHECK(found("RTX PRO 6000") == "rtx-pro-6000-blackwell");
    CHECK(found("RTX 6000 Ada") == "rtx-6000-ada");
    // Squeezed forms: two or three of a model's words written as one.
    CHECK(found("h100sxm") == "h100-sxm");
    CHECK(found("rtx4090") == "rtx-4090");
    CHECK(found("RTX6000ADA") == "rtx-6000-ada");
    CHECK(found("h200 nvl") == "h200-nvl");
}

TEST_CASE("a loose lookup never answers: each case gets its ranked candidates and the reason")
{
    struct row {
        std::string_view text;
        gpu_miss miss;
        std::vector<std::string> first;  // the candidates, best first (a prefix of them)
    };
    std::vector<row> const rows{
        {"H100", gpu_miss::several, {"h100-sxm", "h100-pcie", "h100-nvl"}},
        {"nvidia-h100", gpu_miss::several, {"h100-sxm", "h100-pcie", "h100-nvl"}},
        {"a100 80gb", gpu_miss::several, {"a100-80gb-sxm", "a100-80gb-pcie"}},
        // The cloud document's id: 80 is the memory, so the 40 GB model is not a candidate.
        {"nvidia-a100-80", gpu_miss::several, {"a100-80gb-sxm", "a100-80gb-pcie"}},
        {"rtx 6000", gpu_miss::several, {"rtx-6000-ada", "rtx-pro-6000-blackwell"}},
        // A family or a memory size is never one model, even where one name carries the word.
        {"blackwell", gpu_miss::family, {"rtx-pro-6000-blackwell", "b200", "rtx-5090"}},
        {"ada", gpu_miss::family, {"rtx-6000-ada", "rtx-4090", "l4", "l40", "l40s"}},
        {"hopper", gpu_miss::family, {"h100-sxm", "h200-sxm", "h100-pcie"}},
        {"141gb", gpu_miss::family, {"h200-sxm", "h200-nvl"}},
        {"cdna3", gpu_miss::family, {"mi300x", "mi325x"}},
        // Typos and cut names: candidates, never "several GPUs".
        {"h10-sxm", gpu_miss::close, {"h100-sxm"}},
        {"mi300", gpu_miss::close, {"mi300x"}},
        {"H100 SXM 94GB", gpu_miss::close, {"h100-sxm", "h100-nvl"}},
        {"qwxz", gpu_miss::unknown, {}},
        {"nvidia", gpu_miss::unknown, {}},  // brand words name nothing
    };
    static catalog const c = sample_catalog();
    for (auto const& r : rows) {
        CAPTURE(r.text);
        auto const m = lookup_gpu(r.text, c);
        CHECK(m.model == nullptr);
        CHECK(m.miss == r.miss);
        auto const got = candidates(r.text);
        REQUIRE(got.size() >= r.first.size());
        CHECK(std::vector<std::string>(got.begin(), got.begin() + static_cast<std::ptrdiff_t>(r.first.size())) == r.first);
        CHECK(got.size() <= static_cast<std::size_t>(rules::gpu_candidates));
    }
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
    auto const typo = find_gpu_parameter("gpu", "h10-sxm", c);
    REQUIRE_FALSE(typo);
    CHECK(typo.err().cause.message.starts_with("gpu: 'h10-sxm' is not a GPU of the catalog; closest: h100-sxm"));
    auto const family = find_gpu_parameter("gpu", "blackwell", c);
    REQUIRE_FALSE(family);
    CHECK(family.err().cause.message.starts_with("gpu: 'blackwell' names a family or a memory size, not one GPU; closest: "));

    // A long name is read only up to its first rules::max_gpu_name_bytes bytes, and echoed as much.
    std::string const long_name = "h100 " + std::string(100'000, 'x');
    auto const refused = find_gpu_parameter("gpu", long_name, c);
    REQUIRE_FALSE(refused);
    CHECK(refused.err().cause.message.find(std::string(rules::max_gpu_name_bytes, 'x')) == std::string::npos);
    CHECK(refused.err().cause.message.size() < 700);  // the echo, the reason and the catalog's ids
    CHECK(found(std::string(rules::max_gpu_name_bytes, ' ') + "h100-sxm").empty());
}
