// Golden files, reviewed like code: the Markdown of the sheet, the catalog, a glossary term and
// llms.txt, rendered from the fixture snapshot. LCG_UPDATE_GOLDEN=1 rewrites them after a change.
#include "fixture.hpp"

#include <doctest/doctest.h>

using namespace lcg::testing;

TEST_CASE("golden Markdown and llms.txt")
{
    for (auto const& [target_name, file_name] : std::initializer_list<std::pair<std::string, std::string>>{
             {"/v1/prices.md", "prices.md"},
             {"/v1/gpus.md", "gpus.md"},
             {"/v1/glossary/interruptible-instance.md", "glossary-interruptible-instance.md"},
             {"/llms.txt", "llms.txt"}}) {
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
