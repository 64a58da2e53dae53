// rent_vs_buy on the fixture snapshot: the figures of the sheet in effect, every input echoed, the
// refusals naming their parameter, the French page with decimal commas, and the calculator.
#include "fixture_json.hpp"

#include <boost/json.hpp>
#include <doctest/doctest.h>

using namespace lcg::testing;
namespace json = boost::json;

namespace {

std::string text(json::object const& o, std::string_view key) { return std::string(o.at(key).as_string()); }

// Eight H100s bought for $250,000, drawing 10.2 kW at $0.12 per kWh, hosted for $1,500 a month.
std::string const eight_h100 =
    "gpu=h100-sxm&gpus=8&purchase_price=250000&power_watts=10200&electricity_price=0.12&hosting_per_month=1500";

}

TEST_CASE("rent versus buy answers at the sheet in effect, every input echoed")
{
    auto const o = fixture_json("/v1/rent-vs-buy?" + eight_h100 + "&utilisation=50&months=36");
    CHECK(text(o, "week") == "2026-W49");
    CHECK(text(o, "per_gpu_hour") == "1.680");
    auto const& inputs = o.at("inputs").as_object();
    CHECK(text(inputs, "purchase_price") == "250000.000");
    CHECK(inputs.at("power_watts") == 10200);
    CHECK(text(inputs, "electricity_price") == "0.120");
    CHECK(text(inputs, "hosting_per_month") == "1500.000");
    CHECK(text(inputs, "utilisation_percent") == "50");
    CHECK(inputs.at("months") == 36);
    CHECK(text(o, "used_hours") == "13140");
    CHECK(text(o.at("rent").as_object(), "total") == "176601.600");
    CHECK(text(o.at("own").as_object(), "total") == "320083.360");
    CHECK(text(o, "verdict") == "rent");
    CHECK(o.at("break_even_months") == json::parse(R"({"state":"beyond","value":"84.5"})"));
    CHECK(o.at("break_even_utilisation_percent") == json::parse(R"({"state":"within","value":"94.7"})"));
    CHECK(text(o, "note") ==
          "Over 36 months at 50 % use, owning costs $320083.360 and renting $176601.600: renting saves $143481.760.");
    CHECK(o.at("assumptions").as_array().size() == 4);
}

TEST_CASE("a bad rent-versus-buy call is refused naming its parameter")
{
    struct row {
        std::string query;
        unsigned status;
        std::string parameter;
    };
    for (auto const& r : std::initializer_list<row>{
             {"gpu=h100-sxm&utilisation=50&months=36", 400, "purchase_price"},
             {eight_h100 + "&months=36", 400, "utilisation"},
             {eight_h100 + "&utilisation=50", 400, "months"},
             {eight_h100 + "&utilisation=50,5&months=36", 400, "utilisation"},  // a comma only in French
             {eight_h100 + "&utilisation=101&months=36", 400, "utilisation"},
             {eight_h100 + "&utilisation=50&months=36&tier=weekly", 400, "tier"},
             {eight_h100 + "&utilisation=50&months=36&week=2001-W01", 404, "week"},
             {eight_h100 + "&utilisation=50&months=36&resale=1000", 400, "resale"}}) {
        CAPTURE(r.query);
        auto const o = fixture_json("/v1/rent-vs-buy?" + r.query, r.status);
        CHECK(text(o, "parameter") == r.parameter);
    }
}

TEST_CASE("rent versus buy in French takes decimal commas and writes the French figures")
{
    auto const fr = fixture_request("/v1/rent-vs-buy.md?gpu=h100-sxm&gpus=8&purchase_price=250000&power_watts=10200"
                                    "&electricity_price=0,12&hosting_per_month=1500&utilisation=95,5&months=36&lang=fr")
                        .body()
                        .str();
    CHECK(fr.starts_with("# Louer ou acheter 8 × H100 SXM\n"));
    CHECK(fr.find("acheter fait économiser 2\u202f589,8384\u202f$") != std::string::npos);
    CHECK(fr.find("au bout de 35,64 mois à 95,5\u202f% d’utilisation, dans les 36 mois donnés") != std::string::npos);
    CHECK(fr.find("à partir de 94,7\u202f% d’utilisation") != std::string::npos);
    CHECK(fr.find("## Hypothèses") != std::string::npos);
}

TEST_CASE("rent versus buy has a calculator page, its form filled from the query")
{
    auto const html = fixture_request("/v1/rent-vs-buy.html?" + eight_h100 + "&utilisation=50&months=36").body().str();
    for (auto const* field : {"purchase_price", "power_watts", "electricity_price", "hosting_per_month", "utilisation",
                              "months", "week"}) {
        CAPTURE(field);
        CHECK(html.find("name=\"" + std::string(field) + "\"") != std::string::npos);
    }
    CHECK(html.find("value=\"250000\"") != std::string::npos);
    CHECK(html.find("Renting saves") == std::string::npos);
    CHECK(html.find("renting saves $143481.760") != std::string::npos);
}
