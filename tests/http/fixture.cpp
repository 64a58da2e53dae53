#include "fixture.hpp"

#include "pricing/rules.hpp"

#include "server/mcp_bridge/snapshot_view.hpp"

#include "server/digest/digest.hpp"
#include "server/tlog/entry.hpp"
#include "server/tlog/note.hpp"
#include "server/trust/trust.hpp"

#include "pricing/observation.hpp"
#include "render/json.hpp"

#include <zlib.h>

#include <cstdlib>
#include <stdexcept>
#include <unistd.h>
#include <fstream>
#include <sstream>

namespace lcg::testing {

namespace {

using namespace std::chrono;
using pricing::figure;

pricing::gpu_model model(std::string id, std::string name, std::string vendor, std::string architecture, int vram,
                         int bandwidth, figure tflops, int max_gpus)
{
    pricing::gpu_model m;
    m.id = std::move(id);
    m.name = std::move(name);
    m.vendor = std::move(vendor);
    m.architecture = std::move(architecture);
    m.form_factor = "SXM";
    m.vram_gb = vram;
    m.memory_type = "HBM3";
    m.memory_bandwidth_gbs = bandwidth;
    m.fp16_dense_tflops = std::move(tflops);
    m.tdp_w = {"700", true};
    m.source = "synthetic test catalog";
    m.max_gpus_per_instance = max_gpus;
    m.max_vcpus = 96;
    m.max_memory_gib = 768;
    m.cpu_generations = {"v4", "v5"};
    m.regions = {"ap-tokyo-1", "eu-paris-1", "us-east-1"};
    return m;
}

pricing::catalog make_catalog()
{
    pricing::catalog c;
    auto a100 = model("a100-80gb-sxm", "A100 80GB SXM", "NVIDIA", "Ampere", 80, 2039, {"312", true}, 8);
    a100.memory_type = "HBM2e";
    a100.interconnect_gbs = figure{"600", true};
    a100.interconnect_kind = "NVLink";
    a100.mig_max_instances = 7;
    a100.sm_count = 108;
    a100.mig_profiles = {{"1g.10gb", 10, 1, 7}, {"3g.40gb", 40, 3, 2}, {"7g.80gb", 80, 7, 1}};
    auto h100 = model("h100-sxm", "H100 SXM", "NVIDIA", "Hopper", 80, 3350, {"989.4", true}, 8);
    h100.fp8_dense_tflops = figure{"1978.9", true};
    h100.interconnect_gbs = figure{"900", true};
    h100.interconnect_kind = "NVLink";
    h100.mig_max_instances = 7;
    h100.sm_count = 132;
    h100.mig_profiles = {{"1g.10gb", 10, 1, 7}, {"3g.40gb", 40, 3, 2}, {"7g.80gb", 80, 7, 1}};
    h100.extra_cpu_generations = {{"eu-paris-1", {"v6"}}};
    auto mi300x = model("mi300x", "Instinct MI300X", "AMD", "CDNA3", 192, 5300, {"1307.4", false}, 8);
    mi300x.form_factor = "OAM";
    mi300x.interconnect_gbs = figure{"896", true};
    mi300x.interconnect_kind = "Infinity Fabric";
    auto rtx = model("rtx-3090", "GeForce RTX 3090", "NVIDIA", "Ampere", 24, 936, {"71", true}, 4);
    rtx.form_factor = "PCIe";
    rtx.memory_type = "GDDR6X";
    rtx.tdp_w = {"350", true};
    c.gpus = {std::move(a100), std::move(h100), std::move(mi300x), std::move(rtx)};
    c.regions = {{"ap-tokyo-1", "Tokyo", "Japan", "Asia", false},
                 {"eu-paris-1", "Paris", "France", "Europe", true},
                 {"us-east-1", "Ashburn", "United States", "North America", false}};
    c.inventory = {{"a100-80gb-sxm", "eu-paris-1", 12}, {"h100-sxm", "ap-tokyo-1", 3}, {"h100-sxm", "us-east-1", 16},
                   {"rtx-3090", "eu-paris-1", 5}};
    c.sources = {{"lambda", "cloud", "https://lambda.ai", "skypilot-vms"},
                 {"synthetic-alpha", "synthetic", "", "observations-csv"},
                 {"synthetic-bravo", "synthetic", "", "observations-csv"},
                 {"synthetic-charlie", "synthetic", "", "observations-csv"},
                 {"synthetic-delta", "synthetic", "", "observations-csv"},
                 {"vast", "marketplace", "https://vast.ai", "skypilot-vms"}};
    return c;
}

// One listing of a week's window: its per-GPU price in micro-dollars and the synthetic source that
// offers it.
struct listing {
    std::int64_t micros;
    char const* source;
};

// The listings per model, for one week's window; `shift` moves the week's level. Rules version 2
// takes each source's lower median, then the median of those: they give the medians of the
// methodology's worked example (H100 SXM 2.400), A100 1.600 from four sources, RTX 3090 0.320
// (0.330 in the shifted week), and the MI300X three listings, too few to be priced.
std::map<std::string, std::vector<listing>> week_listings(std::int64_t shift)
{
    constexpr char const* alpha = "synthetic-alpha";
    constexpr char const* bravo = "synthetic-bravo";
    constexpr char const* charlie = "synthetic-charlie";
    constexpr char const* delta = "synthetic-delta";
    return {{"a100-80gb-sxm",
             {{1'500'000 + shift, alpha}, {1'550'000 + shift, alpha}, {1'580'000, bravo}, {1'620'000, charlie},
              {1'650'000, charlie}, {1'700'000, delta}}},
            {"h100-sxm",
             {{2'300'000 + shift, alpha}, {2'350'000, bravo}, {2'400'000, bravo}, {2'450'000, charlie},
              {2'500'000 - shift, bravo}}},
            {"mi300x", {{2'900'000, alpha}, {3'000'000, bravo}, {3'100'000, charlie}}},
            {"rtx-3090",
             {{300'000, alpha}, {310'000 + shift, bravo}, {320'000, bravo}, {330'000, charlie}, {340'000, bravo}}}};
}

struct week_data {
    pricing::price_sheet sheet;
    std::string csv;
};

week_data make_week(pricing::catalog const& c, pricing::iso_week week, std::int64_t shift)
{
    auto const window = pricing::observation_window(week);
    std::vector<pricing::observation> observations;
    int n = 0;
    for (auto const& [gpu, listings] : week_listings(shift))
        for (auto const& l : listings) {
            observations.push_back({window.from + hours(5 + 7 * n), gpu, pricing::money::from_micros(l.micros),
                                    l.source, "SYN-" + std::to_string(n), {}});
            ++n;
        }
    week_data w;
    w.csv = pricing::canonical_observations_csv(observations);
    auto const ids = c.ids();
    w.sheet.week = week;
    w.sheet.effective_from = pricing::monday_of(week);
    w.sheet.effective_until = pricing::monday_of(pricing::next_week(week));
    w.sheet.published_at = w.sheet.effective_from + std::chrono::seconds(4);  // once its window has closed
    w.sheet.inputs_sha256 = digest::sha256_hex(w.csv);
    w.sheet.observations = n;
    w.sheet.rules_version = 2;
    w.sheet.rows = pricing::compute_rows(ids, observations, w.sheet.rules_version);
    return w;
}

}

// The fixture's sheets are signed with RFC 8032's first test key: never a key of the service.
trust::signing_key const& fixture_signing_key()
{
    static auto const key = trust::signing_key::from_pem("-----BEGIN PRIVATE KEY-----\n"
                                                         "MC4CAQAwBQYDK2VwBCIEIJ1hsZ3v/VpguoRK9JLsLMREScVpezJpGXA7rAMcrn9g\n"
                                                         "-----END PRIVATE KEY-----\n")
                                   .value();
    return key;
}

pricing::instant fixture_now() { return pricing::instant(sys_days(2026y / December / 2).time_since_epoch() + hours(12)); }

namespace {

// The log of the two publications, its checkpoint signed by the fixture key as publish signs one.
std::shared_ptr<const snapshot::publication_log> fixture_log(std::vector<pricing::price_sheet> const& sheets)
{
    std::vector<tlog::logged_version> versions;
    tlog::merkle_tree tree;
    for (auto const& sheet : sheets) {
        tlog::log_entry e{sheet.week, tlog::entry_kind::publication, sheet.published_at, sheet.published_at,
                          digest::sha256_hex(pricing::signed_bytes(sheet)), sheet.inputs_sha256, sheet.key_id, ""};
        versions.push_back({tlog::entry_text(e), pricing::signed_bytes(sheet), sheet.key_id, sheet.signature});
        tree.append(tlog::leaf_hash(versions.back().entry));
    }
    auto const& key = fixture_signing_key();
    tlog::note_signer const signer{std::string(tlog::default_origin), tlog::raw_public_key(key.public_key_pem()).value(),
                                   [&](std::string_view bytes) { return *tlog::base64_decode(key.sign(bytes)); }};
    return snapshot::make_log(std::move(versions),
                              tlog::sign_note(tlog::checkpoint_body(tlog::default_origin, tree.size(), tree.root(tree.size())), signer));
}

struct fixture_data {
    std::shared_ptr<const snapshot::snapshot> snap;
    std::map<std::string, std::string> inputs;  // each week's canonical CSV
};

fixture_data build_fixture(std::string public_url, pricing::instant now = fixture_now())
{
    auto catalog = make_catalog();
    auto w48 = make_week(catalog, {2026, 48}, 20'000);
    auto w49 = make_week(catalog, {2026, 49}, 0);
    fixture_signing_key().sign(w48.sheet);
    fixture_signing_key().sign(w49.sheet);
    pricing::key_ring keys{{{fixture_signing_key().key_id(), fixture_signing_key().public_key_pem(),
                             pricing::instant(sys_days(2026y / January / 1).time_since_epoch()), std::nullopt}}};
    std::map<std::string, std::string> inputs{{"2026-W48", w48.csv}, {"2026-W49", w49.csv}};
    std::vector<pricing::indexed_sheet> index;
    for (auto const* w : {&w48, &w49})
        index.push_back({w->sheet.week, w->sheet.published_at, w->sheet.inputs_sha256, w->csv.size()});
    auto signed_catalog = trust::catalog_to_sign(render::catalog_document(catalog), std::move(index), fixture_now());
    fixture_signing_key().sign(signed_catalog.signature);
    auto log = fixture_log({w48.sheet, w49.sheet});
    return fixture_data{snapshot::build(std::move(catalog), {w48.sheet, w49.sheet}, nullptr, now,
                                        {std::move(keys), std::move(public_url)}, std::move(signed_catalog), std::move(log)),
                        std::move(inputs)};
}

fixture_data const& data()
{
    static auto const built = build_fixture("");
    return built;
}

}

std::shared_ptr<const snapshot::snapshot> fixture_snapshot() { return data().snap; }

std::shared_ptr<const snapshot::snapshot> fixture_snapshot_at(std::string public_url)
{
    return build_fixture(std::move(public_url)).snap;
}

std::shared_ptr<const snapshot::snapshot> fixture_snapshot_on(pricing::instant now)
{
    return build_fixture("", now).snap;
}

std::string const& fixture_inputs(pricing::iso_week week) { return data().inputs.at(pricing::to_string(week)); }

std::string const fixture_raw_file = "InstanceType,AcceleratorName,AcceleratorCount,Price,Region\n"
                                    "gpu_1x_h100_sxm5,H100,1,3.29,us-east-1\n";
std::string const fixture_mapping = "accelerator,hint,min_memory_gib,max_memory_gib,outcome,gpu,note\n";

namespace {

class text_source final : public archive::source {
public:
    text_source(csv_of_sheet csv_of, std::size_t chunk_bytes) : csv_of_(std::move(csv_of)), chunk_bytes_(chunk_bytes) {}

    pricing::input_layout layout(pricing::price_sheet const& sheet) override
    {
        auto const csv = csv_of_(sheet);
        return csv.empty() ? pricing::input_layout{} : pricing::layout_of(csv, chunk_bytes_);
    }

    std::string chunk(pricing::price_sheet const& sheet, std::size_t seq) override
    {
        auto const csv = csv_of_(sheet);
        auto const chunks = pricing::input_chunks(csv, chunk_bytes_);
        return seq < chunks.size() ? std::string(chunks[seq]) : std::string();
    }

    std::vector<pricing::raw_input> raw_inputs(pricing::price_sheet const& sheet) override
    {
        return {{"lambda", "skypilot-vms", "per-gpu-mib", sheet.effective_from - std::chrono::minutes(1),
                 digest::sha256_hex(fixture_raw_file), static_cast<std::int64_t>(fixture_raw_file.size()),
                 digest::sha256_hex(fixture_mapping), pricing::rules::offer_reader_revision}};
    }

    std::optional<std::string> raw_bytes(pricing::price_sheet const&, std::string const& sha256) override
    {
        for (auto const* bytes : {&fixture_raw_file, &fixture_mapping})
            if (digest::sha256_hex(*bytes) == sha256)
                return *bytes;
        return std::nullopt;
    }

private:
    csv_of_sheet csv_of_;
    std::size_t chunk_bytes_;
};

}

archive::source_factory text_sources(csv_of_sheet csv_of, std::size_t chunk_bytes)
{
    return [csv_of, chunk_bytes]() -> std::unique_ptr<archive::source> {
        return std::make_unique<text_source>(csv_of, chunk_bytes);
    };
}

archive::archive& fixture_archive()
{
    static archive::archive inputs(
        {}, text_sources([](pricing::price_sheet const& sheet) { return data().inputs.at(pricing::to_string(sheet.week)); },
                         fixture_chunk_bytes));
    return inputs;
}

ops::metrics& fixture_metrics()
{
    static ops::log_writer log(STDOUT_FILENO);
    static ops::metrics counters(log);
    return counters;
}

http::response fixture_request(std::string const& target, std::map<std::string, std::string> const& headers,
                               http::beast_http::verb method)
{
    return fixture_request_on(fixture_snapshot(), fixture_now(), target, headers, method);
}

http::response fixture_request_on(std::shared_ptr<const snapshot::snapshot> snap, pricing::instant now,
                                  std::string const& target, std::map<std::string, std::string> const& headers,
                                  http::beast_http::verb method)
{
    http::request req{method, target, 11};
    req.set(http::beast_http::field::host, "127.0.0.1");
    for (auto const& [k, v] : headers)
        req.set(k, v);
    static mcp_bridge::server_cache mcp_servers;  // as a server's connections share one
    http::request_context ctx{std::move(snap), now};
    ctx.archive = &fixture_archive();
    ctx.mcp_servers = &mcp_servers;
    ctx.metrics = &fixture_metrics();
    return http::handle(req, ctx);
}

std::string read_golden(std::string const& name)
{
    std::ifstream in(std::string(LCG_GOLDEN_DIR) + "/" + name, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

bool matches_golden(std::string const& name, std::string const& actual)
{
    if (char const* update = std::getenv("LCG_UPDATE_GOLDEN"); update && std::string(update) == "1") {
        std::ofstream(std::string(LCG_GOLDEN_DIR) + "/" + name, std::ios::binary) << actual;
        return true;
    }
    return read_golden(name) == actual;
}

std::optional<std::string> example_target(std::string_view pattern)
{
    constexpr std::string_view fixture_key_id = "21fe31dfa154a261";  // of fixture_signing_key()
    static std::map<std::string_view, std::string> const targets{
        {"/", "/"},
        {"/llms.txt", "/llms.txt"},
        {"/llms-full.txt", "/llms-full.txt"},
        {"/.well-known/llms.txt", "/.well-known/llms.txt"},
        {"/.well-known/llms-full.txt", "/.well-known/llms-full.txt"},
        {"/openapi.json", "/openapi.json"},
        {"/.well-known/api-catalog", "/.well-known/api-catalog"},
        {"/healthz", "/healthz"},
        {"/readyz", "/readyz"},
        {"/metrics", "/metrics"},
        {"/mcp", "/mcp"},
        {"/mcp/server-card", "/mcp/server-card"},
        {"/v1/prices", "/v1/prices"},
        {"/v1/prices/{gpu}", "/v1/prices/h100-sxm"},
        {"/v1/prices/{gpu}/history", "/v1/prices/h100-sxm/history"},
        {"/v1/prices/{gpu}/history.svg", "/v1/prices/h100-sxm/history.svg"},
        {"/v1/prices/{gpu}/sparkline.svg", "/v1/prices/h100-sxm/sparkline.svg"},
        {"/v1/history", "/v1/history"},
        {"/v1/sheets.atom", "/v1/sheets.atom"},
        {"/v1/gpus", "/v1/gpus"},
        {"/v1/gpus/{gpu}", "/v1/gpus/h100-sxm"},
        {"/v1/sheets", "/v1/sheets"},
        {"/v1/sheets/{week}", "/v1/sheets/2026-W49"},
        {"/v1/sheets/{week}/observations", "/v1/sheets/2026-W49/observations"},
        {"/v1/sheets/{week}/sources", "/v1/sheets/2026-W49/sources"},
        {"/v1/sheets/{week}/sources/{sha256}", "/v1/sheets/2026-W49/sources/" + digest::sha256_hex(fixture_raw_file)},
        {"/v1/sheets/{week}/signed.txt", "/v1/sheets/2026-W49/signed.txt"},
        {"/v1/sheets/{week}/signature.txt", "/v1/sheets/2026-W49/signature.txt"},
        {"/v1/sheets/{week}/signed.txt.sig", "/v1/sheets/2026-W49/signed.txt.sig"},
        {"/v1/sheets/{week}/signed.note", "/v1/sheets/2026-W49/signed.note"},
        {"/v1/sheets/{week}/datapackage.json", "/v1/sheets/2026-W49/datapackage.json"},
        {"/v1/sheets/{week}/csv-metadata.json", "/v1/sheets/2026-W49/csv-metadata.json"},
        {"/v1/log", "/v1/log"},
        {"/v1/log/checkpoint", "/v1/log/checkpoint"},
        {"/v1/log/entries/{index}/signed.txt", "/v1/log/entries/0/signed.txt"},
        {"/v1/log/entries/{index}/signature.txt", "/v1/log/entries/0/signature.txt"},
        {"/v1/log/tile/{tile}", "/v1/log/tile/0/000.p/2"},
        {"/v1/catalog", "/v1/catalog"},
        {"/v1/catalog/signature", "/v1/catalog/signature"},
        {"/.well-known/lowcostgpu-keys.json", "/.well-known/lowcostgpu-keys.json"},
        {"/.well-known/lowcostgpu-keys/{key}", "/.well-known/lowcostgpu-keys/" + std::string(fixture_key_id) + ".pem"},
        {"/v1/methodology", "/v1/methodology"},
        {"/v1/regions", "/v1/regions"},
        {"/v1/sources", "/v1/sources"},
        {"/v1/inventory", "/v1/inventory"},
        {"/v1/glossary", "/v1/glossary"},
        {"/v1/glossary/{term}", "/v1/glossary/interruptible-instance"},
        {"/v1/cheapest", "/v1/cheapest?params_b=70&precision=fp8&hours=10"},
        {"/.well-known/mcp/server-card.json", "/.well-known/mcp/server-card.json"},
        {"/.well-known/mcp.json", "/.well-known/mcp.json"},
        {"/v1/estimate", "/v1/estimate?gpu=h100-sxm&gpus=2&hours=10&tier=spot&storage_gb=200&egress_gb=50"},
        {"/v1/sizing", "/v1/sizing?params_b=70&precision=fp8"},
        {"/v1/compare", "/v1/compare?gpus=h100-sxm,a100-80gb-sxm"},
        {"/v1/instances/check", "/v1/instances/check?gpu=h100-sxm&vcpus=16&memory_gib=128&cpu_generation=v5"},
        {"/v1/quotes/verify", "/v1/quotes/verify?gpu=h100-sxm&tier=spot&price=0.84"},
        {"/v1/transfer", "/v1/transfer?gb=10"},
        {"/v1/log/proof", "/v1/log/proof?index=1&size=2"},
        {"/v1/rent-vs-buy", "/v1/rent-vs-buy?gpu=h100-sxm&gpus=8&purchase_price=250000&power_watts=10200&electricity_price=0.12&hosting_per_month=1500&utilisation=60&months=36"},
    };
    auto const it = targets.find(pattern);
    if (it == targets.end())
        return std::nullopt;
    return it->second;
}

std::string gunzip(std::string_view data)
{
    z_stream zs{};
    if (inflateInit2(&zs, 15 + 16) != Z_OK)
        throw std::runtime_error("inflateInit2 failed");
    std::string out(data.size() * 20 + 1024, '\0');
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
    zs.avail_in = static_cast<uInt>(data.size());
    zs.next_out = reinterpret_cast<Bytef*>(out.data());
    zs.avail_out = static_cast<uInt>(out.size());
    int const rc = inflate(&zs, Z_FINISH);
    out.resize(zs.total_out);
    bool const whole = rc == Z_STREAM_END && zs.avail_in == 0;
    inflateEnd(&zs);
    if (!whole)
        throw std::runtime_error("not one whole gzip member (zlib says " + std::to_string(rc) + ")");
    return out;
}

}
