#include "glossary/placeholders.hpp"

#include "fixtures.hpp"

#include "pricing/rules.hpp"

#include <doctest/doctest.h>

#include <algorithm>

using namespace lcg::glossary;
using namespace lcg::glossary::testing;
namespace pricing = lcg::pricing;

namespace {

std::string resolved(std::string_view inner, language lang = language::en)
{
    auto const catalog = synthetic_catalog();
    auto const sheet = synthetic_sheet();
    auto const r = resolve_placeholder(inner, lang, {sheet, catalog});
    REQUIRE_MESSAGE(r.has_value(), r.err().message);
    return *r;
}

pricing::error failure(std::string_view text, pricing::catalog const& catalog = synthetic_catalog(),
                       pricing::price_sheet const& sheet = synthetic_sheet())
{
    auto const r = resolve_text(text, language::en, {sheet, catalog});
    REQUIRE_FALSE(r.has_value());
    return r.err();
}

}

TEST_CASE("figures are written per language")
{
    auto const rate = pricing::money::from_mills(1680);
    CHECK(format_rate(rate, language::en) == "$1.680");
    CHECK(format_rate(rate, language::fr) == "1,680\u202F$");
    CHECK(format_amount(pricing::money::from_micros(80'000), language::en) == "$0.08");
    CHECK(format_amount(pricing::money::from_micros(80'000), language::fr) == "0,08\u202F$");
    CHECK(format_amount(pricing::money::from_dollars(40), language::en) == "$40");
    CHECK(format_amount(pricing::money::from_dollars(40), language::fr) == "40\u202F$");
    CHECK(format_decimal("0.70", language::fr) == "0,70");
    CHECK(format_percent("99.9", language::en) == "99.9%");
    CHECK(format_percent("99.9", language::fr) == "99,9\u202F%");
}

TEST_CASE("every fact resolves in both languages")
{
    struct expectation {
        char const* name;
        char const* en;
        char const* fr;
    };
    // The figures the methodology states (DESIGN §2); the code derives them from pricing/rules.hpp.
    expectation const expected[] = {
        {"on_demand_ratio", "0.70", "0,70"},   {"on_demand_percent", "70%", "70\u202F%"},
        {"discount_percent", "30%", "30\u202F%"},   {"spot_percent", "50%", "50\u202F%"},
        {"reserved_percent", "65%", "65\u202F%"},   {"reserved_term_months", "3", "3"},
        {"storage_gb_month", "$0.08", "0,08\u202F$"}, {"network_gb", "$0.01", "0,01\u202F$"},
        {"min_top_up", "$40", "40\u202F$"},         {"sla_percent", "99.9%", "99,9\u202F%"},
        {"regions", "32", "32"},               {"max_gpus", "8", "8"},
        {"min_observations", "5", "5"},        {"month_hours", "730", "730"},
        {"reserved_break_even_percent", "65%", "65\u202F%"},
    };
    CHECK(fact_names().size() == std::size(expected));
    for (auto const& e : expected) {
        CAPTURE(e.name);
        CHECK(std::find(fact_names().begin(), fact_names().end(), e.name) != fact_names().end());
        CHECK(resolved(std::string("fact:") + e.name, language::en) == e.en);
        CHECK(resolved(std::string("fact:") + e.name, language::fr) == e.fr);
    }
}

TEST_CASE("regions is the number of regions of the catalog")
{
    auto const sheet = synthetic_sheet();
    auto const catalog = synthetic_catalog(7);
    CHECK(*resolve_placeholder("fact:regions", language::en, {sheet, catalog}) == "7");
    auto const none = synthetic_catalog(0);
    auto const r = resolve_placeholder("fact:regions", language::en, {sheet, none});
    REQUIRE_FALSE(r.has_value());
    CHECK(r.err().code == pricing::errc::unavailable);
}

TEST_CASE("prices come from the sheet, per tier")
{
    CHECK(resolved("price:h100-sxm:on_demand") == "$1.680");
    CHECK(resolved("price:h100-sxm:spot") == "$0.840");
    CHECK(resolved("price:h100-sxm:reserved") == "$1.092");
    CHECK(resolved("price:h100-sxm:spot", language::fr) == "0,840\u202F$");
    CHECK(resolved("price:rtx-4090:on_demand") == "$0.700");
}

TEST_CASE("resolve_text replaces every placeholder and keeps the rest")
{
    auto const catalog = synthetic_catalog();
    auto const sheet = synthetic_sheet();
    auto const r = resolve_text("Spot is {{fact:spot_percent}} of on demand: {{price:h100-sxm:spot}}/h.", language::en,
                                {sheet, catalog});
    REQUIRE(r.has_value());
    CHECK(*r == "Spot is 50% of on demand: $0.840/h.");
    CHECK(*resolve_text("No placeholder.", language::fr, {sheet, catalog}) == "No placeholder.");
    CHECK(resolve_text("", language::fr, {sheet, catalog}).value().empty());
}

TEST_CASE("a placeholder that does not resolve is an error, never an empty string")
{
    auto e = failure("x {{fact:nope}} y");
    CHECK(e.code == pricing::errc::invalid_argument);
    CHECK(e.message.starts_with("{{fact:nope}}: unknown fact 'nope' (known: on_demand_ratio, "));

    e = failure("{{price:h999:spot}}");
    CHECK(e.code == pricing::errc::not_found);
    CHECK(e.message == "{{price:h999:spot}}: 'h999' is not a GPU of the catalog");

    e = failure("{{price:h100-sxm:cheap}}");
    CHECK(e.code == pricing::errc::invalid_argument);

    e = failure("{{price:h100-sxm}}");
    CHECK(e.message == "{{price:h100-sxm}}: expected {{price:<gpu-id>:<on_demand|spot|reserved>}}");

    e = failure("{{cost:h100-sxm}}");
    CHECK(e.message == "{{cost:h100-sxm}}: unknown placeholder 'cost' (expected 'price' or 'fact')");

    e = failure("an {{fact:max_gpus");
    CHECK(e.message == "an unclosed '{{' at byte 3");

    // A model of the catalog that this week's sheet does not price.
    auto sheet = synthetic_sheet();
    for (auto& row : sheet.rows)
        if (row.gpu == "h100-sxm") {
            row.rates.reset();
            row.observations = 3;
            row.unavailable_reason = "3 observations; at least 5 are needed";
        }
    e = failure("{{price:h100-sxm:spot}}", synthetic_catalog(), sheet);
    CHECK(e.code == pricing::errc::unavailable);
    CHECK(e.message == "{{price:h100-sxm:spot}}: 'h100-sxm' has no price on the 2026-W49 sheet: "
                       "3 observations; at least 5 are needed");
    sheet.rows.clear();
    e = failure("{{price:rtx-4090:spot}}", synthetic_catalog(), sheet);
    CHECK(e.message == "{{price:rtx-4090:spot}}: 'rtx-4090' has no price on the 2026-W49 sheet");
}

TEST_CASE("check_placeholders: shape only, no sheet needed")
{
    CHECK(check_placeholders("{{price:any-gpu:spot}} and {{fact:regions}}").empty());
    CHECK(check_placeholders("{{fact:regoins}}").starts_with("{{fact:regoins}}: unknown fact"));
    CHECK(check_placeholders("{{price:H100:spot}}") ==
          "{{price:H100:spot}}: expected {{price:<gpu-id>:<on_demand|spot|reserved>}}");
    CHECK(check_placeholders("{{fact:regions") == "an unclosed '{{'");
    CHECK(check_placeholders("fact:regions}}") == "a '}}' without its '{{'");
    CHECK(placeholders_in("a {{fact:x}} b {{price:y:spot}}") ==
          std::vector<std::string_view>{"{{fact:x}}", "{{price:y:spot}}"});
}
