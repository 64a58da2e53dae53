// verify_quote on the fixture snapshot: a quoted rate checked against the sheet of its week, the
// verdict, the exact difference, the signature reference, the refusals and the French page.
#include "fixture_json.hpp"

#include <boost/json.hpp>
#include <doctest/doctest.h>

using namespace lcg::testing;
namespace json = boost::json;

namespace {

std::string text(json::object const& o, std::string_view key) { return std::string(o.at(key).as_string()); }

}

TEST_CASE("a quote is checked against the published rate of its week, exactly")
{
    auto o = fixture_json("/v1/quotes/verify?gpu=h100-sxm&tier=spot&price=0.84");
    CHECK(text(o, "verdict") == "published");
    CHECK(o.at("matches") == true);
    CHECK(text(o, "quoted") == "0.840");
    CHECK(text(o, "published") == "0.840");
    CHECK(text(o, "difference") == "0.000");
    CHECK(text(o, "week") == "2026-W49");
    CHECK(o.at("reason").is_null());
    auto const sheet = fixture_json("/v1/sheets/2026-W49");
    auto const& ref = o.at("sheet").as_object();
    CHECK(ref.at("key_id") == sheet.at("key_id"));
    CHECK(ref.at("signature") == sheet.at("signature"));
    CHECK(ref.at("published_at") == sheet.at("published_at"));
    CHECK(ref.at("inputs_sha256") == sheet.at("inputs_sha256"));
    CHECK(text(ref, "signed_bytes") == "/v1/sheets/2026-W49/signed.txt");
    CHECK(fixture_request(text(ref, "signed_bytes")).result_int() == 200);

    o = fixture_json("/v1/quotes/verify?gpu=H100%20SXM5&tier=spot&price=0.9");
    CHECK(text(o, "verdict") == "above");
    CHECK(o.at("matches") == false);
    CHECK(text(o, "difference") == "0.060");
    o = fixture_json("/v1/quotes/verify?gpu=h100-sxm&price=0.5");  // on-demand by default: 1.680
    CHECK(text(o, "tier") == "on_demand");
    CHECK(text(o, "verdict") == "below");
    CHECK(text(o, "difference") == "-1.180");
    CHECK(text(o, "note") ==
          "The published on_demand rate of the H100 SXM in the sheet 2026-W49 is $1.680 per GPU-hour, not $0.500.");
}

TEST_CASE("a quote for an earlier week is checked against that week's sheet, and an unpriced model says why")
{
    auto const earlier = fixture_json("/v1/sheets/2026-W48");
    for (auto const& v : earlier.at("prices").as_array()) {
        auto const& row = v.as_object();
        std::string const gpu(row.at("gpu").as_string());
        CAPTURE(gpu);
        auto const o = fixture_json("/v1/quotes/verify?gpu=" + gpu + "&tier=reserved&price=1&week=2026-W48");
        CHECK(text(o, "week") == "2026-W48");
        if (row.at("available") == true) {
            CHECK(o.at("published") == row.at("reserved"));
            CHECK(o.at("reason").is_null());
        } else {
            CHECK(text(o, "verdict") == "not_priced");
            CHECK(o.at("published").is_null());
            CHECK(o.at("difference").is_null());
            CHECK(o.at("reason") == row.at("reason"));
        }
    }
}

TEST_CASE("a bad quote is refused naming its parameter")
{
    struct row {
        std::string query;
        unsigned status;
        std::string parameter;
    };
    for (auto const& r : std::initializer_list<row>{{"gpu=h100-sxm", 400, "price"},
                                                     {"price=1", 400, "gpu"},
                                                     {"gpu=h100-sxm&price=abc", 400, "price"},
                                                     {"gpu=h100-sxm&price=-1", 400, "price"},
                                                     {"gpu=h100-sxm&price=1&tier=weekly", 400, "tier"},
                                                     {"gpu=h100-sxm&price=1&week=2001-W01", 404, "week"},  // no sheet then
                                                     {"gpu=qwxz&price=1", 400, "gpu"},
                                                     {"gpu=h100-sxm&price=1&cost=2", 400, "cost"}}) {
        CAPTURE(r.query);
        auto const o = fixture_json("/v1/quotes/verify?" + r.query, r.status);
        CHECK(text(o, "parameter") == r.parameter);
    }
}

TEST_CASE("a quote's page, in English and in French with a decimal comma")
{
    auto const md = fixture_request("/v1/quotes/verify.md?gpu=h100-sxm&tier=spot&price=0.84").body().str();
    CHECK(md.starts_with("# Quoted price: `published`\n"));
    CHECK(md.find("$0.840 per GPU-hour is the published spot rate") != std::string::npos);
    CHECK(md.find("[2026-W49](/v1/sheets/2026-W49.md)") != std::string::npos);
    auto const fr = fixture_request("/v1/quotes/verify.md?gpu=h100-sxm&tier=interruptible&price=0,84&lang=fr").body().str();
    CHECK(fr.starts_with("# Prix annoncé\u202f: `published`\n"));
    CHECK(fr.find("0,840\u202f$ par GPU-heure est bien le tarif spot publié") != std::string::npos);
}
