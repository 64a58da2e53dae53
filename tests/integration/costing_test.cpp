// The costing tools and the catalog over HTTP, against a real server on the sample data (H100 SXM
// median exactly 2.400 → on-demand 1.680, spot 0.840, reserved 1.092).
#include "harness.hpp"

#include <boost/json.hpp>
#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace lcg::testing;
namespace json = boost::json;

namespace {

json::object parse(std::string const& body) { return json::parse(body).as_object(); }

std::string text(json::value const& v) { return std::string(v.as_string()); }

json::object get_ok(server_process const& server, std::string const& target)
{
    auto const r = server.get(target);
    CAPTURE(target);
    CAPTURE(r.body);
    REQUIRE(r.status == 200);
    CHECK(r.header("content-type") == "application/json");
    return parse(r.body);
}

json::object const& line(json::object const& estimate, char const* item)
{
    for (auto const& l : estimate.at("lines").as_array())
        if (l.at("item").as_string() == item)
            return l.as_object();
    FAIL("no line " << item);
    return estimate;
}

json::object const& model_row(json::object const& sizing, char const* gpu)
{
    for (auto const& m : sizing.at("models").as_array())
        if (m.at("gpu").as_string() == gpu)
            return m.as_object();
    FAIL("no model " << gpu);
    return sizing;
}

std::vector<std::string> ids(json::value const& v)
{
    std::vector<std::string> out;
    for (auto const& id : v.as_array())
        out.push_back(text(id));
    return out;
}

}

TEST_CASE("/v1/estimate: 12 minutes of one H100 SXM on demand cost 0.336 USD")
{
    test_database db;
    server_process server(db.url("reader"));
    for (char const* target : {"/v1/estimate?gpu=h100-sxm&seconds=720", "/v1/estimate?gpu=h100-sxm&hours=0.2",
                               "/v1/estimate?gpu=H100-SXM&gpus=1&hours=0.2&tier=on_demand"}) {
        auto const e = get_ok(server, target);
        CHECK(text(e.at("total")) == "0.336");
        CHECK(text(e.at("total_micros")) == "336000");
        CHECK(text(e.at("total_display")) == "$0.34");
        CHECK(text(e.at("tier")) == "on_demand");
        CHECK(text(e.at("effective_per_gpu_hour")) == "1.680");
        auto const& gpu = line(e, "gpu_time");
        CHECK(text(gpu.at("quantity")) == "0.2");
        CHECK(text(gpu.at("unit")) == "GPU-hour");
        CHECK(text(gpu.at("unit_rate")) == "1.680");
        CHECK(text(gpu.at("amount")) == "0.336");
        CHECK(text(e.at("duration").at("seconds")) == "720");
    }
}

TEST_CASE("/v1/estimate: 2 × H100 SXM spot for 10 h with a 200 GB volume and 50 GB of egress")
{
    test_database db;
    server_process server(db.url("reader"));
    auto const bare = get_ok(server, "/v1/estimate?gpu=h100-sxm&gpus=2&hours=10&tier=spot");
    CHECK(text(bare.at("total")) == "16.800");
    CHECK(text(line(bare, "gpu_time").at("quantity")) == "20");
    CHECK(text(line(bare, "gpu_time").at("unit_rate")) == "0.840");

    auto const e = get_ok(server, "/v1/estimate?gpu=h100-sxm&gpus=2&hours=10&tier=spot&storage_gb=200&egress_gb=50");
    CHECK(text(line(e, "gpu_time").at("amount")) == "16.800");
    CHECK(text(line(e, "storage").at("amount")) == "0.219178");  // 0.08 × 200 × 10 / 730
    CHECK(text(line(e, "storage").at("unit_rate")) == "0.080");
    CHECK(text(line(e, "egress").at("amount")) == "0.500");
    CHECK(text(line(e, "ingress").at("amount")) == "0.000");
    CHECK(text(e.at("total")) == "17.519178");
    CHECK(text(e.at("total_display")) == "$17.52");
    CHECK(text(e.at("effective_per_gpu_hour")) == "0.875959");

    auto const& tiers = e.at("tiers").as_array();
    REQUIRE(tiers.size() == 3);
    CHECK(text(tiers[0].at("tier")) == "on_demand");
    CHECK(text(tiers[0].at("gpu_time")) == "33.600");
    CHECK(text(tiers[0].at("total")) == "34.319178");
    CHECK(tiers[1].at("selected").as_bool());
    CHECK(text(tiers[2].at("per_gpu_hour")) == "1.092");
    CHECK(text(tiers[2].at("gpu_time")) == "21.840");

    auto const& reserved = e.at("reserved_term").as_object();
    CHECK(reserved.at("months").as_int64() == 3);
    CHECK(reserved.at("hours").as_int64() == 2190);
    CHECK(text(reserved.at("commitment")) == "4782.960");  // 3 × 730 h × 2 × 1.092
    CHECK(reserved.at("break_even_utilization_percent").as_int64() == 65);
    CHECK(e.at("throughput").is_null());
}

TEST_CASE("/v1/estimate: storage for a month, egress, ingress and throughput")
{
    test_database db;
    server_process server(db.url("reader"));
    auto const month = get_ok(server, "/v1/estimate?gpu=h100-sxm&hours=730&storage_gb=100&egress_gb=50&ingress_gb=1.5");
    CHECK(text(line(month, "storage").at("amount")) == "8.000");  // 100 GB for 730 h = $8.00
    CHECK(text(line(month, "storage").at("quantity")) == "100");  // GB-months
    CHECK(text(line(month, "egress").at("amount")) == "0.500");   // 50 GB = $0.50
    CHECK(text(line(month, "ingress").at("amount")) == "0.015");
    CHECK(text(line(month, "gpu_time").at("amount")) == "1226.400");
    CHECK(text(month.at("total")) == "1234.915");

    auto const kept = get_ok(server, "/v1/estimate?gpu=h100-sxm&hours=1&storage_gb=100&storage_hours=730");
    CHECK(text(line(kept, "storage").at("amount")) == "8.000");

    auto const tokens = get_ok(server, "/v1/estimate?gpu=h100-sxm&hours=1&tokens_per_second=1000");
    CHECK(text(tokens.at("throughput").at("cost_per_million_tokens")) == "0.466667");  // 1.68 / 3.6 M × 10^6
    auto const images = get_ok(server, "/v1/estimate?gpu=h100-sxm&hours=1&images_per_hour=100&tier=spot");
    CHECK(text(images.at("throughput").at("cost_per_image")) == "0.0084");  // 0.840 / 100
}

TEST_CASE("/v1/sizing: 70B and 400B at one byte per parameter")
{
    test_database db;
    server_process server(db.url("reader"));
    auto const s70 = get_ok(server, "/v1/sizing?params_b=70&precision=int8");
    CHECK(text(s70.at("needed_gb")) == "105");
    CHECK(text(s70.at("bytes_per_param")) == "1");
    CHECK(s70.at("models").as_array().size() == 27);
    CHECK(model_row(s70, "h100-sxm").at("gpus_needed").as_int64() == 2);
    CHECK(model_row(s70, "h200-sxm").at("gpus_needed").as_int64() == 1);
    CHECK(model_row(s70, "b200").at("gpus_needed").as_int64() == 1);
    CHECK(text(model_row(s70, "h100-sxm").at("hourly").at("on_demand")) == "3.360");  // 2 × 1.680
    CHECK(text(model_row(s70, "h100-sxm").at("hourly").at("spot")) == "1.680");
    for (char const* t : {"on_demand", "spot", "reserved"})
        CHECK(s70.at("cheapest").at(t).is_object());

    auto const s400 = get_ok(server, "/v1/sizing?params_b=400&precision=fp8");
    CHECK(text(s400.at("needed_gb")) == "600");
    CHECK(model_row(s400, "h100-sxm").at("gpus_needed").as_int64() == 8);
    CHECK(model_row(s400, "h100-sxm").at("practical_gpus").as_int64() == 8);
    CHECK(model_row(s400, "h200-sxm").at("gpus_needed").as_int64() == 5);
    CHECK(model_row(s400, "h200-sxm").at("practical_gpus").as_int64() == 8);
    CHECK(model_row(s400, "b200").at("gpus_needed").as_int64() == 4);
    CHECK(model_row(s400, "b200").at("practical_gpus").as_int64() == 4);
    CHECK(text(model_row(s400, "h100-sxm").at("hourly").at("on_demand")) == "13.440");
    auto const& l40s = model_row(s400, "l40s");
    CHECK(l40s.at("gpus_needed").as_int64() == 13);
    CHECK(l40s.at("practical_gpus").as_int64() == 16);  // two nodes of 8
    CHECK(l40s.at("instances").as_int64() == 2);
    CHECK_FALSE(l40s.at("fits_one_node").as_bool());
    CHECK(text(l40s.at("note")).find("2 instances") != std::string::npos);

    auto const one = get_ok(server, "/v1/sizing?params_b=7&precision=int4&gpu=h100-sxm");
    REQUIRE(one.at("models").as_array().size() == 1);
    CHECK(text(one.at("needed_gb")) == "5.25");
    auto const& mig = model_row(one, "h100-sxm").at("mig");
    CHECK(mig.at("fits").as_bool());
    CHECK(text(mig.at("profile")) == "1g.10gb");
    CHECK(mig.at("instances_per_gpu").as_int64() == 7);
}

TEST_CASE("/v1/compare: L40S against A100, with the winners")
{
    test_database db;
    server_process server(db.url("reader"));
    auto const c = get_ok(server, "/v1/compare?gpus=l40s,a100-80gb-sxm,h100-sxm");
    auto const& rows = c.at("gpus").as_array();
    REQUIRE(rows.size() == 3);
    CHECK(text(rows[0].at("gpu")) == "l40s");
    CHECK(text(rows[0].at("power_score").at("value")) == "509.9");
    CHECK(text(rows[1].at("power_score").at("value")) == "439.4");
    CHECK(text(rows[2].at("power_score").at("value")) == "1393.5");
    // 1.680 × 71 / 989.4 = 0.120558… and 1.680 / 80 = 0.021
    CHECK(text(rows[2].at("price_per_100_power_score")) == "0.120558");
    CHECK(text(rows[2].at("price_per_gb_vram_hour")) == "0.021");
    auto const& w = c.at("winners");
    CHECK(ids(w.at("most_vram")) == std::vector<std::string>{"a100-80gb-sxm", "h100-sxm"});
    CHECK(ids(w.at("most_bandwidth")) == std::vector<std::string>{"h100-sxm"});
    CHECK(ids(w.at("highest_power_score")) == std::vector<std::string>{"h100-sxm"});
    for (char const* key : {"lowest_price_per_power_score", "lowest_price_per_gb_vram"})
        CHECK(w.at(key).as_array().size() >= 1);
    for (char const* t : {"on_demand", "spot", "reserved"})
        CHECK(w.at("lowest_price").at(t).as_array().size() >= 1);
}

TEST_CASE("/v1/instances/check: every broken limit, and the sovereign region")
{
    test_database db;
    server_process server(db.url("reader"));
    auto const ok = get_ok(server, "/v1/instances/check?gpu=h100-sxm&vcpus=32&memory_gib=256&cpu_generation=v7");
    CHECK(text(ok.at("status")) == "ok");
    CHECK(ok.at("problems").as_array().empty());

    auto const bad =
        get_ok(server, "/v1/instances/check?gpu=h100-sxm&gpus=9&vcpus=40&memory_gib=512&cpu_generation=v6");
    CHECK(text(bad.at("status")) == "vm-specs-mismatch");
    auto const& problems = bad.at("problems").as_array();
    REQUIRE(problems.size() == 4);
    CHECK(text(problems[0].at("limit")) == "max_gpus_per_instance");
    CHECK(problems[0].at("allowed").as_int64() == 8);
    CHECK(text(problems[1].at("limit")) == "max_vcpus");
    CHECK(problems[1].at("allowed").as_int64() == 32);
    CHECK(problems[1].at("requested").as_int64() == 40);
    CHECK(text(problems[2].at("limit")) == "max_memory_gib");
    CHECK(problems[2].at("allowed").as_int64() == 256);
    CHECK(text(problems[3].at("limit")) == "cpu_generation");
    CHECK(ids(problems[3].at("allowed")) == std::vector<std::string>{"v7"});
    CHECK(text(problems[3].at("requested")) == "v6");

    auto const l40 = get_ok(server, "/v1/instances/check?gpu=l40&vcpus=35&memory_gib=251&cpu_generation=v7");
    REQUIRE(l40.at("problems").as_array().size() == 1);
    CHECK(l40.at("problems").at(0).at("allowed").as_int64() == 250);

    // The A100 80GB takes v6 everywhere, and v7 too in the sovereign region.
    auto const elsewhere = get_ok(
        server, "/v1/instances/check?gpu=a100-80gb-sxm&vcpus=35&memory_gib=256&cpu_generation=v7&region=eu-paris-1");
    CHECK(text(elsewhere.at("status")) == "vm-specs-mismatch");
    auto const sovereign = get_ok(
        server, "/v1/instances/check?gpu=a100-80gb-pcie&vcpus=35&memory_gib=256&cpu_generation=v7&region=eu-paris-2");
    CHECK(text(sovereign.at("status")) == "ok");
    CHECK(ids(sovereign.at("limits").at("cpu_generations")) == std::vector<std::string>{"v6", "v7"});
}

TEST_CASE("/v1/gpus: every model carries PowerScore, limits, MIG and regions, and filters apply per request")
{
    test_database db;
    server_process server(db.url("reader"));
    auto const all = get_ok(server, "/v1/gpus");
    CHECK(all.at("count").as_int64() == 27);
    for (auto const& g : all.at("gpus").as_array()) {
        CAPTURE(json::serialize(g.at("id")));
        CHECK(g.at("power_score").at("value").is_string());
        CHECK(g.at("regions").at("count").as_int64() == 32);
        auto const gpus = g.at("instance_limits").at("max_gpus").as_int64();
        CHECK((gpus >= 1 && gpus <= 8));
        CHECK(g.at("mig").at("profiles").is_array());
        CHECK(text(g.at("fp16_dense_tflops").at("convention")).find("FP32 accumulate") != std::string::npos);
    }
    auto const h100 = get_ok(server, "/v1/gpus/h100-sxm");
    CHECK(text(h100.at("power_score").at("value")) == "1393.5");
    CHECK(h100.at("instance_limits").at("max_vcpus").as_int64() == 32);
    CHECK(h100.at("instance_limits").at("max_memory_gib").as_int64() == 256);
    CHECK(text(get_ok(server, "/v1/gpus/rtx-3090").at("power_score").at("value")) == "100.0");
    auto const rtx2060 = get_ok(server, "/v1/gpus/rtx-2060");
    CHECK_FALSE(rtx2060.at("power_score").at("confirmed").as_bool());
    auto const a100 = get_ok(server, "/v1/gpus/a100-80gb-sxm");
    CHECK(ids(a100.at("instance_limits").at("extra_cpu_generations_by_region").at("eu-paris-2")) ==
          std::vector<std::string>{"v7"});
    auto const l40 = get_ok(server, "/v1/gpus/l40");
    CHECK(l40.at("instance_limits").at("max_vcpus").as_int64() == 35);
    CHECK(l40.at("instance_limits").at("max_memory_gib").as_int64() == 250);

    auto const amd = get_ok(server, "/v1/gpus?vendor=amd");
    CHECK(amd.at("count").as_int64() == 3);
    auto const hopper = get_ok(server, "/v1/gpus?architecture=HOPPER&min_vram_gb=94");
    std::vector<std::string> hopper_ids;
    for (auto const& g : hopper.at("gpus").as_array())
        hopper_ids.push_back(text(g.at("id")));
    CHECK(hopper_ids == std::vector<std::string>{"h100-nvl", "h200-nvl", "h200-sxm"});
    auto const mig = get_ok(server, "/v1/gpus?mig=true&nvlink=true");
    CHECK(mig.at("count").as_int64() == 11);  // every MIG model but the RTX PRO 6000 (no NVLink)
    CHECK(get_ok(server, "/v1/gpus?mig=false").at("count").as_int64() == 15);
    // Migration 010: the link is named with its kind, and no MIG profile is larger than its GPU.
    auto const listed = get_ok(server, "/v1/gpus");
    for (auto const& v : listed.at("gpus").as_array()) {
        auto const& g = v.as_object();
        std::string const id = text(g.at("id"));
        CAPTURE(id);
        auto const& kind = g.at("interconnect_kind");
        CHECK(kind.is_null() == g.at("interconnect_gbs").is_null());
        if (!kind.is_null())
            CHECK(text(kind) == (text(g.at("vendor")) == "AMD" ? "Infinity Fabric" : "NVLink"));
        CHECK_FALSE(g.contains("nvlink_gbs"));
        auto const& partitions = g.at("mig").as_object();
        for (auto const& p : partitions.at("profiles").as_array()) {
            CHECK(p.at("memory_gb").as_int64() <= g.at("vram_gb").as_int64());
            CHECK(text(p.at("compute_fraction")) ==
                  std::to_string(p.at("compute_slices").as_int64()) + "/" + std::to_string(partitions.at("compute_slices").as_int64()));
        }
    }
    CHECK(get_ok(server, "/v1/gpus/rtx-pro-6000-blackwell").at("mig").at("compute_slices").as_int64() == 4);
    CHECK(get_ok(server, "/v1/gpus/b200").at("notes").as_string().find("180 GB") != std::string::npos);
    auto const nine = get_ok(server, "/v1/estimate?gpu=h100-sxm&gpus=9&hours=1");
    CHECK(nine.at("instances").as_int64() == 2);
    CHECK(text(nine.at("total")) == "15.120");  // 9 × 1.680, linear past one instance
}

TEST_CASE("bad requests are 400 problem+json naming the parameter, never 500")
{
    test_database db;
    server_process server(db.url("reader"));
    struct row {
        char const* target;
        char const* parameter;
    };
    row const rows[] = {
        {"/v1/estimate?hours=1", "gpu"},
        {"/v1/estimate?gpu=h100&hours=1", "gpu"},
        {"/v1/estimate?gpu=h100-sxm", "hours"},
        {"/v1/estimate?gpu=h100-sxm&seconds=60&hours=1", "seconds"},
        {"/v1/estimate?gpu=h100-sxm&seconds=1.5", "seconds"},
        {"/v1/estimate?gpu=h100-sxm&seconds=99999999999999999999999", "seconds"},
        {"/v1/estimate?gpu=h100-sxm&hours=8761", "hours"},
        {"/v1/estimate?gpu=h100-sxm&hours=0.0000001", "hours"},
        {"/v1/estimate?gpu=h100-sxm&hours=NaN", "hours"},
        {"/v1/estimate?gpu=h100-sxm&hours=-1", "hours"},
        {"/v1/estimate?gpu=h100-sxm&hours=1&gpus=65", "gpus"},
        {"/v1/estimate?gpu=rtx-4090&hours=1&gpus=0", "gpus"},
        {"/v1/estimate?gpu=h100-sxm&hours=1&tier=cheap", "tier"},
        {"/v1/estimate?gpu=h100-sxm&hours=1&storage_gb=1000001", "storage_gb"},
        {"/v1/estimate?gpu=h100-sxm&hours=1&storage_hours=5", "storage_hours"},
        {"/v1/estimate?gpu=h100-sxm&hours=1&egress_gb=1e9", "egress_gb"},
        {"/v1/estimate?gpu=h100-sxm&hours=1&ingress_gb=", "ingress_gb"},
        {"/v1/estimate?gpu=h100-sxm&hours=1&tokens_per_second=5&images_per_hour=5", "images_per_hour"},
        {"/v1/estimate?gpu=h100-sxm&hours=1&hour=2", "hour"},
        {"/v1/sizing?precision=fp16", "params_b"},
        {"/v1/sizing?params_b=70", "precision"},
        {"/v1/sizing?params_b=70&precision=fp64", "precision"},
        {"/v1/sizing?params_b=0&precision=fp16", "params_b"},
        {"/v1/sizing?params_b=70&precision=fp16&gpu=nope", "gpu"},
        {"/v1/compare", "gpus"},
        {"/v1/compare?gpus=l40s", "gpus"},
        {"/v1/compare?gpus=l40s,l40s", "gpus"},
        {"/v1/compare?gpus=l40s,nope", "gpus"},
        {"/v1/compare?gpus=a10,l4,l40,l40s,h100-sxm,h200-sxm,b200,b300,gb200", "gpus"},
        {"/v1/instances/check?gpu=h100-sxm&memory_gib=1&cpu_generation=v7", "vcpus"},
        {"/v1/instances/check?gpu=h100-sxm&vcpus=1&cpu_generation=v7", "memory_gib"},
        {"/v1/instances/check?gpu=h100-sxm&vcpus=1&memory_gib=1", "cpu_generation"},
        {"/v1/instances/check?gpu=h100-sxm&vcpus=1&memory_gib=1&cpu_generation=zen4", "cpu_generation"},
        {"/v1/instances/check?gpu=h100-sxm&vcpus=1&memory_gib=1&cpu_generation=v7&region=mars-1", "region"},
        {"/v1/gpus?vendor=intel", "vendor"},
        {"/v1/gpus?architecture=volta", "architecture"},
        {"/v1/gpus?min_vram_gb=lots", "min_vram_gb"},
        {"/v1/gpus?mig=yes", "mig"},
        {"/v1/gpus?nvlink=2", "nvlink"},
        {"/v1/gpus?color=green", "color"},
    };
    for (auto const& r : rows) {
        CAPTURE(r.target);
        auto const res = server.get(r.target);
        CAPTURE(res.body);
        CHECK(res.status == 400);
        CHECK(res.header("content-type") == "application/problem+json");
        auto const o = parse(res.body);
        CHECK(text(o.at("parameter")) == r.parameter);
        CHECK(text(o.at("detail")).find(r.parameter) != std::string::npos);
    }
    auto const unknown_gpu = parse(server.get("/v1/estimate?gpu=h100&hours=1").body);
    CHECK(unknown_gpu.at("valid_ids").as_array().size() == 27);
    auto const unknown_region = parse(
        server.get("/v1/instances/check?gpu=h100-sxm&vcpus=1&memory_gib=1&cpu_generation=v7&region=x").body);
    CHECK(unknown_region.at("valid_regions").as_array().size() == 32);

    // Odd values in every parameter of every tool: a 400 or a 200, never a 500.
    char const* values[] = {"", "0", "-0", "1", "8", "9", "1.5", "00000000000000000000001", "99999999999999999999",
                            "1e309", "%00", "%ff%fe", "0x1", "+1", "true", "h100-sxm", "l40s,h100-sxm", "v7",
                            "eu-paris-2", "8760.000001", "0.000001"};
    char const* targets[] = {"/v1/estimate?gpu=h100-sxm&hours=1&", "/v1/estimate?gpu=h100-sxm&seconds=60&",
                             "/v1/sizing?params_b=7&precision=fp16&", "/v1/compare?",
                             "/v1/instances/check?gpu=h100-sxm&vcpus=1&memory_gib=1&cpu_generation=v7&", "/v1/gpus?"};
    char const* names[] = {"gpu", "gpus", "seconds", "hours", "tier", "storage_gb", "storage_hours", "egress_gb",
                           "ingress_gb", "tokens_per_second", "images_per_hour", "params_b", "precision", "vcpus",
                           "memory_gib", "cpu_generation", "region", "vendor", "architecture", "min_vram_gb",
                           "mig", "nvlink"};
    for (char const* target : targets)
        for (char const* name : names)
            for (char const* value : values) {
                std::string const url = std::string(target) + name + "=" + value;
                auto const res = server.get(url);
                CAPTURE(url);
                CHECK((res.status == 200 || res.status == 400));
            }
}

TEST_CASE("computed bodies have an ETag and answer If-None-Match with 304")
{
    test_database db;
    server_process server(db.url("reader"));
    std::string const target = "/v1/estimate?gpu=h100-sxm&hours=1";
    auto const first = server.get(target);
    REQUIRE(first.status == 200);
    auto const etag = first.header("etag");
    REQUIRE(etag.size() > 2);
    CHECK(server.get(target, {{"If-None-Match", etag}}).status == 304);
    CHECK(first.header("access-control-allow-origin") == "*");
    CHECK(server.get("/v1/estimate?gpu=h100-sxm&hours=2").header("etag") != etag);
}

TEST_CASE("sizing prices 3 × RTX A6000 apart, but ranks the 4 that shard: never a count that breaks 1, 2, 4, 8")
{
    test_database db;
    server_process server(db.url("reader"));
    // 70 B at int8 needs 105 GB: three 48 GB cards hold the weights for 3 × 0.312, but tensor parallelism
    // shards over 4, at 4 × 0.312.
    auto const sizing = json::parse(server.get("/v1/sizing?params_b=70&precision=int8&gpu=rtx-a6000").body);
    auto const& row = sizing.at("models").at(0);
    CHECK(row.at("gpus_needed") == 3);
    CHECK(row.at("practical_gpus") == 4);
    CHECK(row.at("smallest_hourly").at("on_demand") == "0.936");
    CHECK(row.at("hourly").at("on_demand") == "1.248");
    CHECK(std::string(row.at("note").as_string()).find("may not shard") != std::string::npos);
    CHECK(row.at("precision").at("native") == true);  // Ampere runs INT8
    CHECK(sizing.at("cheapest").at("on_demand").at("gpus") == 4);
    auto const cheapest = json::parse(server.get("/v1/cheapest?params_b=70&precision=int8").body);
    CHECK(cheapest.at("cheapest").at("gpus") != 3);
    for (auto const& alternative : cheapest.at("alternatives").as_array())
        CHECK(alternative.at("gpus") != 3);
}

TEST_CASE("a reserved estimate states the commitment of its term in its headline")
{
    test_database db;
    server_process server(db.url("reader"));
    auto const e = json::parse(server.get("/v1/estimate?gpu=h100-sxm&hours=1&tier=reserved").body).as_object();
    std::string const headline(e.at("headline").as_string());
    std::string const commitment(e.at("reserved_term").at("commitment_display").as_string());
    CHECK(headline.starts_with("a reserved instance commits " + commitment + " for its 3-month term"));
    CHECK(headline.ends_with("this job's share at the reserved rate is " + std::string(e.at("total_display").as_string())));
    CHECK(server.get("/v1/estimate.md?gpu=h100-sxm&hours=1&tier=reserved").body.find("**a reserved instance commits " +
                                                                                    commitment) != std::string::npos);
    auto const spot = json::parse(server.get("/v1/estimate?gpu=h100-sxm&hours=1&tier=spot").body).as_object();
    CHECK(std::string(spot.at("headline").as_string()).starts_with(std::string(spot.at("total_display").as_string())));
}
