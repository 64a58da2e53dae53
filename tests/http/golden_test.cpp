// Golden files, reviewed like code: the Markdown of the sheet, the catalog, a glossary term and
// llms.txt, and French pages, rendered from the fixture snapshot. LCG_UPDATE_GOLDEN=1 rewrites them after a change.
#include "fixture.hpp"

#include <doctest/doctest.h>

using namespace lcg::testing;

TEST_CASE("golden Markdown and llms.txt")
{
    for (auto const& [target_name, file_name] : std::initializer_list<std::pair<std::string, std::string>>{
             {"/v1/prices.md", "prices.md"},
             {"/v1/gpus.md", "gpus.md"},
             {"/v1/glossary/interruptible-instance.md", "glossary-interruptible-instance.md"},
             {"/llms.txt", "llms.txt"},
             // The same in French, and the French of a computed page and of the pages around the sheet.
             {"/v1/prices.md?lang=fr", "fr/prices.md"},
             {"/v1/gpus.md?lang=fr", "fr/gpus.md"},
             {"/v1/gpus/h100-sxm.md?lang=fr", "fr/gpu-h100-sxm.md"},
             {"/v1/glossary/interruptible-instance.md?lang=fr", "fr/glossary-interruptible-instance.md"},
             {"/llms.txt?lang=fr", "fr/llms.txt"},
             {"/v1/methodology.md?lang=fr", "fr/methodology.md"},
             {"/v1/sheets.md?lang=fr", "fr/sheets.md"},
             {"/v1/prices/h100-sxm/history.md?lang=fr", "fr/history-h100-sxm.md"},
             {"/v1/sheets.atom?lang=fr", "fr/sheets.atom"},
             {"/v1/estimate.md?gpu=h100-sxm&gpus=2&hours=10&tier=spot&storage_gb=500&egress_gb=50&tokens_per_second=1500&lang=fr",
              "fr/estimate.md"},
             {"/v1/estimate.md?gpu=h100-sxm&hours=2&tier=reserved&images_per_hour=120&lang=fr", "fr/estimate-reserved.md"},
             {"/v1/sizing.md?params_b=70&precision=int8&lang=fr", "fr/sizing.md"},
             {"/v1/compare.md?gpus=h100-sxm,a100-80gb-sxm,mi300x&lang=fr", "fr/compare.md"},
             {"/v1/cheapest.md?params_b=70&precision=fp8&hours=10&lang=fr", "fr/cheapest.md"},
             {"/v1/instances/check.md?gpu=h100-sxm&gpus=8&vcpus=512&memory_gib=2048&cpu_generation=v7&lang=fr",
              "fr/instance-check.md"}}) {
        std::string const target = target_name, file = file_name;  // doctest's macros cannot capture bindings
        CAPTURE(target);
        auto const res = fixture_request(target);
        REQUIRE(res.result() == lcg::http::beast_http::status::ok);
        CHECK_MESSAGE(matches_golden(file, res.body().str()),
                      "tests/golden/" << file << " differs; review the change and rerun with LCG_UPDATE_GOLDEN=1");
    }
}

TEST_CASE("llms.txt follows llmstxt.org and links only to pages that answer 200")
{
    auto const text = fixture_request("/llms.txt").body().str();
    CHECK(text.starts_with("# LowCostGPU pricing API\n\n> "));
    CHECK(text.find("\n## Optional\n") != std::string::npos);
    CHECK(fixture_request("/.well-known/llms.txt").body() == text);
    int links = 0;
    for (std::size_t at = text.find("](/"); at != std::string::npos; at = text.find("](/", at + 1)) {
        auto const end = text.find(')', at);
        std::string const url = text.substr(at + 2, end - at - 2);
        CAPTURE(url);
        CHECK(fixture_request(url).result() == lcg::http::beast_http::status::ok);
        ++links;
    }
    CHECK(links >= 15);
    auto const full = fixture_request("/llms-full.txt").body();
    CHECK(full.find("# GPU price sheet 2026-W49") != std::string::npos);
    CHECK(full.find("# H100 SXM") != std::string::npos);
    CHECK(full.find("# Pricing methodology") != std::string::npos);
}
