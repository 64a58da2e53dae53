// The lesson's figures on nodes, racks and MIG slices, as the catalog serves them (GET /v1/gpus/…),
// each checked against the number the lesson prints.
#include "harness.hpp"

#include <boost/json.hpp>
#include <doctest/doctest.h>

#include <string>

using namespace lcg::testing;
namespace json = boost::json;

namespace {

json::object gpu(server_process const& server, std::string const& id)
{
    auto const r = server.get("/v1/gpus/" + id);
    CAPTURE(id);
    REQUIRE(r.status == 200);
    return json::parse(r.body).as_object();
}

json::object const& profile(json::object const& g, std::string_view name)
{
    for (auto const& p : g.at("mig").at("profiles").as_array())
        if (p.at("name").as_string() == name)
            return p.as_object();
    FAIL("no MIG profile " << name);
    return g;
}

std::string tflops(json::object const& p, char const* key) { return std::string(p.at(key).at("value").as_string()); }

}

TEST_CASE("the lesson's node totals: 640, 1,128 and 1,536 GB, and the B200's 1,440 GB with why they differ")
{
    test_database db;
    server_process server(db.url("reader"));
    auto const h100 = gpu(server, "h100-sxm");
    CHECK(h100.at("node").at("gpus").as_int64() == 8);
    CHECK(h100.at("node").at("memory_gb").as_int64() == 640);
    CHECK(h100.at("node").at("lesson").is_null());
    CHECK(gpu(server, "h200-sxm").at("node").at("memory_gb").as_int64() == 1'128);
    auto const b200 = gpu(server, "b200").at("node").as_object();
    CHECK(b200.at("memory_gb").as_int64() == 1'440);  // 8 × the 180 GB of the catalog
    CHECK(b200.at("lesson").at("vram_gb").as_int64() == 192);
    CHECK(b200.at("lesson").at("memory_gb").as_int64() == 1'536);
    CHECK(std::string(b200.at("lesson").at("why").as_string()).find("180 GB") != std::string::npos);
    auto const page = server.get("/v1/gpus/b200.md");
    CHECK(page.body.find("8 × 180 GB = 1440 GB") != std::string::npos);
    CHECK(page.body.find("192 GB per GPU, 1536 GB per node") != std::string::npos);
    CHECK(server.get("/v1/gpus/b200.md?lang=fr").body.find("1\u202F536 Go par nœud") != std::string::npos);
}

TEST_CASE("the NVL72 rack: 72 GPUs on one NVLink domain")
{
    test_database db;
    server_process server(db.url("reader"));
    auto const rack = gpu(server, "gb200").at("rack").as_object();
    CHECK(rack.at("name").as_string() == "GB200 NVL72");
    CHECK(rack.at("gpus").as_int64() == 72);
    CHECK(rack.at("cpus").as_int64() == 36);
    CHECK(rack.at("link").as_string() == "nvlink-blackwell");
    CHECK(rack.at("nvlink_domain_gbs").as_int64() == 129'600);  // 72 × 1,800 GB/s, the notes' "130 TB/s"
    CHECK(rack.at("memory_gb").as_int64() == 13'392);          // 72 × 186 GB, the notes' "13.4 TB"
    CHECK(gpu(server, "b200").at("rack").is_null());
    CHECK(server.get("/v1/gpus/gb200.md").body.find("GB200 NVL72") != std::string::npos);
}

TEST_CASE("MIG slices at k/7 of an H100 SXM: 283, 565, 848 and 1,979 TFLOPS FP8, 132 SMs, 6 idle in an even split")
{
    test_database db;
    server_process server(db.url("reader"));
    auto const h100 = gpu(server, "h100-sxm");
    CHECK(tflops(profile(h100, "1g.10gb"), "fp8_dense_tflops") == "283");
    CHECK(tflops(profile(h100, "2g.20gb"), "fp8_dense_tflops") == "565");
    CHECK(tflops(profile(h100, "3g.40gb"), "fp8_dense_tflops") == "848");
    CHECK(tflops(profile(h100, "7g.80gb"), "fp8_dense_tflops") == "1979");
    CHECK(tflops(profile(h100, "3g.40gb"), "fp16_dense_tflops") == "424");  // 3/7 of 989.4
    auto const& split = h100.at("mig").at("even_split").as_object();
    CHECK(split.at("sms").as_int64() == 132);
    CHECK(split.at("sms_per_slice").as_int64() == 18);
    CHECK(split.at("idle_sms").as_int64() == 6);
    CHECK(profile(h100, "3g.40gb").at("sms").as_int64() == 54);
    // Memory slices out of eight, as the MIG User Guide's fractions: 1/8, 2/8, 4/8, the whole.
    CHECK(profile(h100, "1g.10gb").at("memory_fraction").as_string() == "1/8");
    CHECK(profile(h100, "1g.20gb").at("memory_fraction").as_string() == "2/8");
    CHECK(profile(h100, "3g.40gb").at("memory_fraction").as_string() == "4/8");
    CHECK(profile(h100, "7g.80gb").at("memory_fraction").as_string() == "8/8");
    CHECK(profile(gpu(server, "h200-sxm"), "3g.71gb").at("memory_fraction").as_string() == "4/8");
    CHECK(profile(gpu(server, "b300"), "1g.34gb").at("memory_fraction").as_string() == "1/8");
    CHECK(profile(gpu(server, "rtx-pro-6000-blackwell"), "2g.48gb").at("memory_fraction").as_string() == "2/4");
    // A 3-slice instance of an H100 outcomputes a whole L40, in FP8 and in FP16.
    auto const l40 = gpu(server, "l40");
    CHECK(std::stod(tflops(profile(h100, "3g.40gb"), "fp8_dense_tflops")) >
          std::stod(std::string(l40.at("fp8_dense_tflops").at("value").as_string())));
    CHECK(std::stod(tflops(profile(h100, "3g.40gb"), "fp16_dense_tflops")) >
          std::stod(std::string(l40.at("fp16_dense_tflops").at("value").as_string())));
    CHECK(gpu(server, "l40").at("mig").at("even_split").is_null());
    auto const page = server.get("/v1/gpus/h100-sxm.md").body;
    CHECK(page.find("| `3g.40gb` | 40 | 4/8 | 3/7 | 54 | 424 | 848 | 2 |") != std::string::npos);
    CHECK(page.find("132 SMs make 7 slices of 18, and 6 stay idle") != std::string::npos);
}

TEST_CASE("sizing and cheapest over every precision: a native GPU first, power-of-two counts, the fabric named")
{
    test_database db;
    server_process server(db.url("reader"));
    for (char const* p : {"fp32", "fp16", "bf16", "fp8", "int8", "int4"})
        for (char const* params : {"7", "70", "405", "1000"}) {
            std::string const query = std::string("params_b=") + params + "&precision=" + p;
            CAPTURE(query);
            auto const r = server.get("/v1/sizing?" + query);
            REQUIRE(r.status == 200);
            auto const sizing = json::parse(r.body).as_object();
            bool any_native = false;
            for (auto const& v : sizing.at("models").as_array()) {
                auto const& m = v.as_object();
                auto const& precision = m.at("precision").as_object();
                CHECK(precision.at("asked").as_string() == p);
                if (precision.at("native").as_bool() && m.at("hourly").is_object())
                    any_native = true;
                if (!precision.at("native").as_bool())
                    CHECK(precision.at("note").is_string());
                if (m.at("practical_gpus").is_int64()) {
                    auto const n = m.at("practical_gpus").as_int64();
                    CHECK(((n <= 8 && (n & (n - 1)) == 0) || n % 8 == 0));
                    CHECK(m.at("fabric").is_null() == (m.at("instances").as_int64() == 1));
                }
            }
            for (auto const& [tier, c] : sizing.at("cheapest").as_object())
                if (c.is_object())
                    CHECK(c.at("native").as_bool() == any_native);
            auto const cheapest = json::parse(server.get("/v1/cheapest?" + query).body).as_object();
            if (auto const& best = cheapest.at("cheapest"); best.is_object()) {
                CHECK(best.at("precision").at("native").as_bool() == any_native);
                CHECK(best.at("fabric").is_null() == (best.at("instances").as_int64() == 1));
                if (!best.at("fabric").is_null())
                    CHECK(best.at("fabric").at("between_nodes").as_string() == "infiniband-ndr");
            }
        }
}

TEST_CASE("the issue's case: 70B at fp8 for 10 hours is never an Ampere card first, nor 3 GPUs")
{
    test_database db;
    server_process server(db.url("reader"));
    auto const c = json::parse(server.get("/v1/cheapest?params_b=70&precision=fp8&hours=10").body).as_object();
    auto const& best = c.at("cheapest").as_object();
    CHECK(best.at("precision").at("native").as_bool());
    auto const gpus = best.at("gpus").as_int64();
    CHECK((gpus & (gpus - 1)) == 0);
    for (auto const& v : c.at("alternatives").as_array()) {
        auto const n = v.at("gpus").as_int64();
        CHECK((n & (n - 1)) == 0);
    }
    auto const a6000 = json::parse(server.get("/v1/sizing?params_b=70&precision=fp8&gpu=rtx-a6000").body).as_object();
    auto const& row = a6000.at("models").at(0).as_object();
    CHECK(row.at("gpus_needed").as_int64() == 3);
    CHECK(row.at("practical_gpus").as_int64() == 4);
    CHECK_FALSE(row.at("precision").at("native").as_bool());
    CHECK(row.at("precision").at("computes_in").as_string() == "fp16");
    CHECK(std::string(row.at("note").as_string()).find("may not shard") != std::string::npos);
}
