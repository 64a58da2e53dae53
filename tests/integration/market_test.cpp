// Real market offers (issue 24): every SkyPilot file of ../shared imported through import-listings,
// checked row by row and model by model against tests/integration/market_expected.py, the tests'
// own implementation of the mapping policy and of rules version 2 (it shares no code with the
// service), and the traps of the market README one by one.
#include "harness.hpp"

#include "pricing/calendar.hpp"

#include <boost/json.hpp>
#include <doctest/doctest.h>
#include <pqxx/pqxx>

#include <algorithm>
#include <map>
#include <unistd.h>
#include <string>
#include <vector>

using namespace lcg::testing;
namespace json = boost::json;

namespace {

// The sixteen sources of the catalog folder (common/ holds no offers).
std::vector<std::string> const sources = {"cudo",   "daytona",        "hyperbolic", "hyperstack", "jarvislabs", "lambda",
                                          "lium",   "mithril",        "nebius",     "primeintellect", "seeweb",
                                          "shadeform", "spheron",     "vast",       "verda",      "yotta"};
std::vector<std::string> const outcomes = {"imported", "duplicate", "not_gpu", "no_price", "not_in_catalog", "ambiguous"};

// Far from the sample data's weeks, so the sheet of its week holds these listings only.
std::string const observed_at = "2019-01-02T12:00:00Z";

std::string vms_csv(std::string const& source) { return market_catalog_dir() + "/" + source + "/vms.csv"; }

command_result import(test_database const& db, std::string const& source, std::vector<std::string> extra = {})
{
    std::vector<std::string> args{"import-listings", "--database-url", db.url("publisher"), "--format", "skypilot-vms",
                                  "--source",        source,           "--observed-at",     observed_at};
    args.insert(args.end(), extra.begin(), extra.end());
    args.push_back(vms_csv(source));
    return run_lowcostgpu(args);
}

json::object import_json(test_database const& db, std::string const& source)
{
    auto const r = import(db, source, {"--json"});
    CAPTURE(source);
    CAPTURE(r.err);
    REQUIRE(r.exit_code == 0);
    return json::parse(r.out).as_object();
}

// A file given on standard input, imported as lambda's: the import's summary.
json::object import_text(test_database const& db, std::string const& csv)
{
    auto const r = run_lowcostgpu({"import-listings", "--database-url", db.url("publisher"), "--format", "skypilot-vms",
                                   "--source", "lambda", "--observed-at", observed_at, "--json", "-"},
                                  csv);
    CAPTURE(r.err);
    REQUIRE(r.exit_code == 0);
    return json::parse(r.out).as_object();
}

// listing id → gpu of the observations import_text stored (the sample data's are at other times).
std::map<std::string, std::string> models_observed(test_database const& db)
{
    pqxx::connection c(db.url("owner"));
    pqxx::read_transaction tx(c);
    std::map<std::string, std::string> models;
    for (auto const& row : tx.exec_params("SELECT listing_id, gpu FROM observation WHERE observed_at = $1", observed_at))
        models[row[0].as<std::string>()] = row[1].as<std::string>();
    return models;
}

json::object const& expected()
{
    static json::object const e = [] {
        auto const r = run_shell("python3 " + std::string(LCG_SOURCE_DIR) + "/tests/integration/market_expected.py --rows "
                                 "--market " + market_catalog_dir());
        REQUIRE(r.status == 0);
        return json::parse(r.out).as_object();
    }();
    return e;
}

// source → listing id → gpu, for every listing the service imported.
std::map<std::string, std::map<std::string, std::string>> imported_listings(test_database const& db)
{
    pqxx::connection c(db.url("owner"));
    pqxx::read_transaction tx(c);
    std::map<std::string, std::map<std::string, std::string>> out;
    for (auto const& r : tx.exec("SELECT source, listing_id, gpu FROM observation WHERE raw_input_id IS NOT NULL"))
        out[r[0].as<std::string>()][r[1].as<std::string>()] = r[2].as<std::string>();
    return out;
}

struct imported_market {
    test_database db;
    std::map<std::string, json::object> summaries;
    imported_market()
    {
        for (auto const& s : sources)
            summaries[s] = import_json(db, s);
    }
    // The week whose window holds observed_at, published once.
    std::string published_week()
    {
        auto const observed = lcg::pricing::parse_utc_timestamp(observed_at);
        REQUIRE(observed);
        std::string const week = lcg::pricing::to_string(lcg::pricing::next_week(lcg::pricing::week_containing(*observed)));
        if (!published) {
            auto const r = run_lowcostgpu({"publish", "--database-url", db.url("publisher"), "--week", week});
            CAPTURE(r.err);
            REQUIRE(r.exit_code == 0);
            published = true;
        }
        return week;
    }
    bool published = false;
};

imported_market& market()
{
    static imported_market m;
    return m;
}

}

TEST_CASE("every SkyPilot file imports, its counts add up and equal the independent reading")
{
    auto& m = market();
    auto const& files = expected().at("files").as_object();
    for (auto const& source : sources) {
        CAPTURE(source);
        auto const& got = m.summaries.at(source);
        auto const& want = files.at(source).as_object();
        std::int64_t sum = 0;
        for (auto const& o : outcomes) {
            CAPTURE(o);
            CHECK(got.at(o).as_int64() == want.at(o).as_int64());
            sum += got.at(o).as_int64();
        }
        CHECK(sum == got.at("rows").as_int64());
        CHECK(got.at("rows").as_int64() == want.at("rows").as_int64());
        CHECK(got.at("raw_file_new").as_bool());
    }
}

TEST_CASE("each listing is imported under the model the independent reading gives, or not at all")
{
    auto const all = imported_listings(market().db);
    long compared = 0;
    for (auto const& row : expected().at("rows").as_array()) {
        auto const& r = row.as_object();
        std::string const source(r.at("source").as_string());
        std::string const id(r.at("listing_id").as_string());
        CAPTURE(source);
        CAPTURE(id);
        auto s = all.find(source);
        bool const stored = s != all.end() && s->second.contains(id);
        if (r.at("outcome").as_string() == "imported") {
            REQUIRE(stored);
            CHECK(s->second.at(id) == r.at("gpu").as_string());
            ++compared;
        } else if (r.at("outcome").as_string() != "duplicate") {
            CHECK_FALSE(stored);
        }
    }
    CHECK(compared > 500);
}

TEST_CASE("a second import of every file adds nothing and says why")
{
    auto& m = market();
    long const observations = m.db.count("observation");
    long const raw_files = m.db.count("raw_input");
    for (auto const& source : sources) {
        CAPTURE(source);
        auto const again = import_json(m.db, source);
        auto const& first = m.summaries.at(source);
        CHECK(again.at("imported").as_int64() == 0);
        CHECK(again.at("duplicate").as_int64() == first.at("imported").as_int64() + first.at("duplicate").as_int64());
        CHECK(again.at("rows").as_int64() == first.at("rows").as_int64());
        CHECK_FALSE(again.at("raw_file_new").as_bool());
    }
    CHECK(m.db.count("observation") == observations);
    CHECK(m.db.count("raw_input") == raw_files);
}

TEST_CASE("the sheet of the real listings' week equals a recomputation by rules version 2")
{
    auto& m = market();
    std::string const week = m.published_week();

    pqxx::connection c(m.db.url("owner"));
    pqxx::read_transaction tx(c);
    CHECK(tx.exec_params1("SELECT rules_version FROM sheet WHERE week = $1", week)[0].as<int>() == 2);
    auto const& models = expected().at("models").as_object();
    int priced = 0;
    for (auto const& row : tx.exec_params("SELECT gpu, observations, coalesce(sources, 0), median2_micros, "
                                          "on_demand_micros FROM sheet_row WHERE week = $1",
                                          week)) {
        std::string const gpu = row[0].as<std::string>();
        CAPTURE(gpu);
        auto const it = models.find(gpu);
        if (it == models.end()) {
            CHECK(row[1].as<int>() == 0);
            continue;
        }
        auto const& want = it->value().as_object();
        CHECK(row[1].as<int>() == want.at("listings").as_int64());
        CHECK(row[2].as<int>() == want.at("sources").as_int64());
        if (want.at("on_demand").is_null()) {
            CHECK(row[4].is_null());
            continue;
        }
        ++priced;
        CHECK(row[3].as<std::int64_t>() == want.at("twice_median_micros").as_int64());
        CHECK(std::to_string(row[4].as<std::int64_t>() / 1000) ==
              std::to_string(std::stoll(std::string(want.at("on_demand").as_string()).erase(1, 1))));
        // each source's price, as the independent reading gives it
        std::map<std::string, std::pair<std::int64_t, int>> by_source;
        for (auto const& s : tx.exec_params("SELECT source, price_micros, listings FROM sheet_row_source WHERE week = $1 "
                                            "AND gpu = $2", week, gpu))
            by_source[s[0].as<std::string>()] = {s[1].as<std::int64_t>(), s[2].as<int>()};
        auto const& want_sources = want.at("by_source").as_array();
        CHECK(by_source.size() == want_sources.size());
        for (auto const& ws : want_sources) {
            auto const& w = ws.as_object();
            std::string const name(w.at("source").as_string());
            CAPTURE(name);
            REQUIRE(by_source.contains(name));
            CHECK(by_source[name].first == w.at("price_micros").as_int64());
            CHECK(by_source[name].second == w.at("listings").as_int64());
        }
    }
    CHECK(priced >= 10);
}

TEST_CASE("the traps of the market README put no listing under the wrong model")
{
    auto& m = market();
    struct trap {
        char const* what;
        char const* source;
        char const* listing_id;
        char const* gpu;  // "" when the listing must not be imported
    };
    trap const traps[] = {
        {"H100 PCIe told by lambda's instance name", "lambda", "gpu_1x_h100_pcie|europe-central-1", "h100-pcie"},
        {"H100 SXM told by lambda's instance name", "lambda", "gpu_8x_h100_sxm5|europe-central-1", "h100-sxm"},
        {"an H100 with no form factor anywhere is refused", "daytona", "1x-H100|earth", ""},
        {"vast's H100_NVL with 93.6 GiB per GPU is the H100 NVL", "vast", "1x-H100_NVL-32-65536|Bulgaria, BG, EU", "h100-nvl"},
        {"spheron's 80 GB H100_NVL is Hyperstack's PCIe NVLink id, not the 94 GB NVL", "spheron",
         "n3-H100x8-NVLink__CANADA-1|CANADA-1", "h100-pcie"},
        {"hyperbolic's HBM3 H100 is SXM", "hyperbolic", "1x-H100-75-722|default", "h100-sxm"},
        {"DataCrunch's 80S id is SXM", "verda", "1H100.80S.32V|FIN-02", "h100-sxm"},
        {"Hyperstack's n3-H100x1 under primeintellect's bare H100 is PCIe", "primeintellect",
         "hyperstack__1xH100_80GB__28__180|CA|CANADA-1", "h100-pcie"},
        {"an A100 40 GB without form factor is refused", "lambda", "gpu_1x_a100|europe-central-1", ""},
        {"lambda's A100 SXM4 40 GB", "lambda", "gpu_1x_a100_sxm4|europe-central-1", "a100-40gb-sxm"},
        {"vast's A100_PCIE is the 80 GB PCIe (total MiB per instance)", "vast", "1x-A100_PCIE-32-65536|Oklahoma, US, NA",
         "a100-80gb-pcie"},
        {"shadeform's GB figure: the A100 SXM4 40 GB", "shadeform", "lambdalabs_A100-sxm4|phoenix-usa-2", "a100-40gb-sxm"},
        {"an SXM4 instance under spheron's PCIe name is refused", "spheron", "gpu_1x_a100_SXM4_us-central-3|us-central-3", ""},
        {"the Quadro RTX6000 is not the RTX 6000 Ada", "lambda", "gpu_1x_rtx6000|europe-central-1", ""},
        {"the RTX 6000 Ada under vast's spelling", "vast", "1x-RTX_6000Ada-32-65536|Japan, JP, AS", "rtx-6000-ada"},
        {"the RTX 3060 Ti under vast's RTX3060 is refused", "vast", "2x-RTX_3060_Ti-32-65536|Michigan, US, NA", ""},
        {"the 12 GB RTX 3060", "vast", "1x-RTX_3060-32-65536|Italy, IT, EU", "rtx-3060-12gb"},
        {"a 48 GB RTX 4090 is not the 24 GB card", "vast", "1x-RTX_4090-32-65536|Hong Kong, HK, AS", ""},
        {"a 24 GB RTX 4090", "vast", "1x-RTX_4090-32-65536|Germany, DE, EU", "rtx-4090"},
        {"an L40 row that names the L40S too is refused", "primeintellect", "latitude__8xL40_48GB__128__1536|DE|FRA2", ""},
        {"an H200 without form factor is refused", "daytona", "1x-H200|earth", ""},
        {"mithril's auction floor, written as its price and its spot price, is no on-demand price", "mithril",
         "ccs-h200.sxm.1x|us-central2-b", ""},
        {"the RTX PRO 6000 with SizeInMiB 0", "seeweb", "ECS1GPU12|", "rtx-pro-6000-blackwell"},
        {"the GH200 is not in the catalog", "lambda", "gpu_1x_gh200|europe-central-1", ""},
    };
    auto const all = imported_listings(m.db);
    for (auto const& t : traps) {
        std::string const what = t.what, id = t.listing_id;
        CAPTURE(what);
        CAPTURE(id);
        // Every trap names a row of the file: the independent reading read it too.
        bool const in_file = std::any_of(expected().at("rows").as_array().begin(), expected().at("rows").as_array().end(),
                                         [&](json::value const& r) {
                                             return r.at("source").as_string() == t.source && r.at("listing_id").as_string() == id;
                                         });
        REQUIRE(in_file);
        // A source none of whose listings is imported (mithril) has no entry.
        auto const source = all.find(t.source);
        auto const* gpu = source == all.end() || !source->second.contains(id) ? nullptr : &source->second.at(id);
        if (std::string(t.gpu).empty()) {
            CHECK(gpu == nullptr);
        } else {
            REQUIRE(gpu != nullptr);
            CHECK(*gpu == t.gpu);
        }
    }
}

TEST_CASE("import-listings refuses a bad file whole, an unknown source and a bad time")
{
    test_database db;
    long const before = db.count("observation");
    auto bad = run_lowcostgpu({"import-listings", "--database-url", db.url("publisher"), "--format", "skypilot-vms",
                               "--source", "vast", "--observed-at", observed_at, "-"},
                              "InstanceType,AcceleratorName,AcceleratorCount,Price,Region,GpuInfo\n"
                              "a,H100_SXM5,1,2.0,r,\n"
                              "b,H100_SXM5,1,2.0\n");
    CHECK(bad.exit_code == 1);
    CHECK(bad.err.find("line 3") != std::string::npos);
    auto unknown = run_lowcostgpu({"import-listings", "--database-url", db.url("publisher"), "--format", "skypilot-vms",
                                   "--source", "nowhere", "--observed-at", observed_at, vms_csv("vast")});
    CHECK(unknown.exit_code == 1);
    CHECK(unknown.err.find("market_source") != std::string::npos);
    auto time = run_lowcostgpu({"import-listings", "--database-url", db.url("publisher"), "--format", "skypilot-vms",
                                "--source", "vast", "--observed-at", "yesterday", vms_csv("vast")});
    CHECK(time.exit_code == 2);
    auto format = run_lowcostgpu({"import-listings", "--database-url", db.url("publisher"), "--format", "csv",
                                  "--source", "vast", "--observed-at", observed_at, vms_csv("vast")});
    CHECK(format.exit_code == 2);
    // An endless file is refused once it passes the bound, not read until memory runs out.
    auto endless = run_lowcostgpu({"import-listings", "--database-url", db.url("publisher"), "--format", "skypilot-vms",
                                   "--source", "vast", "--observed-at", observed_at, "/dev/zero"});
    CHECK(endless.exit_code == 2);
    CHECK(endless.err.find("/dev/zero is larger than 67108864 bytes") != std::string::npos);
    CHECK(db.count("observation") == before);
    CHECK(db.count("raw_input") == 0);
}

TEST_CASE("the rules added since 012: an H200 naming NVLink, SkyPilot's A100-80GB-SXM (015), Vast's Ti and D (016)")
{
    struct imported_file {
        std::string rows;
        std::string refusals;  // the outcome of the refused rows
        long refused;
        std::map<std::string, std::string> models;
    };
    std::vector<imported_file> const files = {
        {"h200-8x-nvlink,H200,8,24.0,r,\nh200-nvl-1x,H200,1,3.0,r,\n1x_A100-80GB-SXM_SECURE,A100-80GB-SXM,1,1.5,r,\n",
         "ambiguous", 1, {{"h200-nvl-1x|r", "h200-nvl"}, {"1x_A100-80GB-SXM_SECURE|r", "a100-80gb-sxm"}}},
        {"1x-RTX_3090_Ti,RTX3090,1,0.3,r,\n1x-RTX_4090D,RTX4090,1,0.4,r,\n1x-RTX_5090_D,RTX5090,1,0.6,r,\n"
         "1x-RTX_3090,RTX3090,1,0.2,r,\n",
         "not_in_catalog", 3, {{"1x-RTX_3090|r", "rtx-3090"}}},
    };
    for (auto const& f : files) {
        CAPTURE(f.rows);
        test_database db;
        auto const summary = import_text(db, "InstanceType,AcceleratorName,AcceleratorCount,Price,Region,GpuInfo\n" + f.rows);
        CHECK(summary.at(f.refusals).as_int64() == f.refused);
        CHECK(models_observed(db) == f.models);
    }
}

TEST_CASE("the same file at the same time under another mapping is refused whole, a later time reads it anew")
{
    test_database db;
    std::string const file = "InstanceType,AcceleratorName,AcceleratorCount,Price,Region,GpuInfo\n1x-H100,H100,1,2.0,r,\n";
    CHECK(import_text(db, file).at("ambiguous").as_int64() == 1);
    long const observations = db.count("observation"), raw_files = db.count("raw_input");
    // The operator tells this H100 by its instance name, then imports the same bytes again.
    {
        pqxx::connection c(db.url("owner"));
        pqxx::work tx(c);
        tx.exec("INSERT INTO market_alias (accelerator, hint, outcome, gpu) VALUES ('h100', '1x-h100', 'gpu', 'h100-sxm')");
        tx.commit();
    }
    auto const import_at = [&](std::string const& at) {
        return run_lowcostgpu({"import-listings", "--database-url", db.url("publisher"), "--format", "skypilot-vms",
                               "--source", "lambda", "--observed-at", at, "--json", "-"},
                              file);
    };
    auto const again = import_at(observed_at);
    CHECK(again.exit_code == 1);
    CHECK(again.err.find("with another mapping, memory convention or reader, nothing was imported") != std::string::npos);
    CHECK(db.count("observation") == observations);
    CHECK(db.count("raw_input") == raw_files);
    auto const later = import_at("2019-01-02T13:00:00Z");
    CAPTURE(later.err);
    REQUIRE(later.exit_code == 0);
    CHECK(json::parse(later.out).at("imported").as_int64() == 1);
}

TEST_CASE("a listing id repeated within one file counts once, the first row")
{
    test_database db;
    std::string const file = "InstanceType,AcceleratorName,AcceleratorCount,Price,Region,GpuInfo\n"
                             "x,H100_SXM5,2,4.000001,r,\n"
                             "x,H100_SXM5,1,9.0,r,\n"
                             "y,,,0.1,r,\n";
    auto const s = import_text(db, file);
    CHECK(s.at("rows").as_int64() == 3);
    CHECK(s.at("imported").as_int64() == 1);
    CHECK(s.at("duplicate").as_int64() == 1);
    CHECK(s.at("not_gpu").as_int64() == 1);
    pqxx::connection c(db.url("owner"));
    pqxx::read_transaction tx(c);
    // 4.000001 / 2 = 2.0000005, half-up to 2.000001
    CHECK(tx.exec1("SELECT price_micros FROM observation WHERE listing_id = 'x|r'")[0].as<long>() == 2'000'001);
}

TEST_CASE("audit re-reads the exported raw files into the sheet's observations, and fails on one changed byte")
{
    auto& m = market();
    std::string const week = m.published_week();
    std::string const dir = "/tmp/lcg-export-" + std::to_string(getpid());
    run_shell("rm -rf " + dir);
    auto const exported = run_lowcostgpu({"export-inputs", "--database-url", m.db.url("reader"), "--week", week, "--out", dir});
    CAPTURE(exported.err);
    REQUIRE(exported.exit_code == 0);
    auto const listed = json::parse(run_shell("cat " + dir + "/sources.json").out).as_object();
    CHECK(listed.at("count").as_int64() == 16);
    std::vector<std::string> const audit_args{"audit",        "--sheet",      dir + "/sheet.json", "--observations",
                                              dir + "/observations.csv", "--raw-inputs", dir + "/sources.json",
                                              "--keys",       required_env("LCG_PUBLIC_KEYS_FILE")};
    auto const honest = run_lowcostgpu(audit_args);
    CAPTURE(honest.out);
    CHECK(honest.exit_code == 0);
    CHECK(honest.out.find("give the sheet's observations byte for byte") != std::string::npos);

    // The audit of the manifest as a line of Python edits it (d: the manifest, f: its first file).
    auto const audit_edited = [&](std::string const& edit) {
        std::string const edited = dir + "/sources.edited.json";
        REQUIRE(run_shell("python3 -c \"import json, sys; d=json.load(open(sys.argv[1])); f=d['files'][0]; " + edit +
                          "; json.dump(d, open(sys.argv[2], 'w'))\" " + dir + "/sources.json " + edited)
                    .status == 0);
        auto args = audit_args;
        args[6] = edited;
        return run_lowcostgpu(args);
    };
    // A manifest that names a file once more, seen a second later, gives more observations than the
    // sheet counts: re-reading stops there, whatever the files that follow would bring.
    auto const more = audit_edited("g=dict(f); g['observed_at']=f['observed_at'][:-3]+'01Z'; d['files'].insert(1, g)");
    CAPTURE(more.out);
    CHECK(more.exit_code == 1);
    CHECK(more.out.find("BAD raw inputs: the raw files give more observations than the sheet's") != std::string::npos);
    // A manifest whose hash is a path would have the auditor read and hash a file outside sources/.
    auto const away = audit_edited("f['sha256']='../observations.csv'; f['path']='sources/../observations.csv'");
    CAPTURE(away.out);
    CHECK(away.exit_code == 1);
    CHECK(away.out.find("BAD raw inputs: an entry's sha256 ../observations.csv is not 64 lower-case hex digits") !=
          std::string::npos);
    CHECK(away.out.find("hash to") == std::string::npos);

    // Each file is re-read with the reader it was imported with: Mithril's, said to be read with the
    // first revision, gives its four rows again (which the sheet does not hold); a file without a
    // revision, from an older server, is read with the first (no other file holds such a row); a
    // revision this build does not know is refused.
    std::string const mithril = "f=[x for x in d['files'] if x['source']=='mithril'][0]; ";
    auto const first = audit_edited(mithril + "f['reader']=1");
    CAPTURE(first.out);
    CHECK(first.exit_code == 1);
    CHECK((first.out.find("more observations than the sheet's") != std::string::npos ||
           first.out.find("DIFF the raw files do not give the sheet's observations") != std::string::npos));
    CHECK(audit_edited("[x.pop('reader') for x in d['files'] if x['source']!='mithril']").exit_code == 0);
    auto const unknown = audit_edited(mithril + "f['reader']=3");
    CAPTURE(unknown.out);
    CHECK(unknown.exit_code == 1);
    CHECK(unknown.out.find("it was read with reader revision 3, which this build does not know") != std::string::npos);

    // One byte of one raw file: a price digit of lambda's file.
    std::string file;
    for (auto const& f : listed.at("files").as_array())
        if (f.at("source") == "lambda")
            file = dir + "/" + std::string(f.at("path").as_string());
    REQUIRE(!file.empty());
    REQUIRE(run_shell("python3 -c \"import sys; p=sys.argv[1]; b=bytearray(open(p,'rb').read()); "
                      "i=b.index(b',31.92,'); b[i+1]=ord('4'); open(p,'wb').write(b)\" " + file).status == 0);
    auto const tampered = run_lowcostgpu(audit_args);
    CAPTURE(tampered.out);
    CHECK(tampered.exit_code == 1);
    CHECK(tampered.out.find("DIFF raw file") != std::string::npos);
    run_shell("rm -rf " + dir);
}

TEST_CASE("the raw files are served with the sheet, audit --url re-reads them, and a mirror serves the same bytes")
{
    auto& m = market();
    std::string const week = m.published_week();
    server_process origin(m.db.url("reader"));
    auto const listed = origin.get("/v1/sheets/" + week + "/sources");
    REQUIRE(listed.status == 200);
    auto const doc = json::parse(listed.body).as_object();
    CHECK(doc.at("count").as_int64() == 16);
    CHECK(doc.at("sample") == false);
    for (auto const& v : doc.at("files").as_array()) {
        auto const& f = v.as_object();
        std::string const source(f.at("source").as_string());
        CAPTURE(source);
        auto const file = origin.get("/v1/sheets/" + week + "/" + std::string(f.at("path").as_string()));
        REQUIRE(file.status == 200);
        CHECK(static_cast<std::int64_t>(file.body.size()) == f.at("bytes").as_int64());
        CHECK(file.body == run_shell("cat " + vms_csv(source)).out);
    }
    CHECK(origin.get("/v1/sheets/" + week + "/sources.csv").body.starts_with("source,format,memory_convention,"));

    std::string const url = "http://127.0.0.1:" + std::to_string(origin.port());
    auto const audited = run_lowcostgpu({"audit", "--url", url, "--week", week});
    CAPTURE(audited.out);
    CHECK(audited.exit_code == 0);
    CHECK(audited.out.find("raw files: 16 re-read with 1 mapping(s)") != std::string::npos);
    CHECK(audited.out.find("give the sheet's observations byte for byte") != std::string::npos);

    server_process mirror(serve_arguments{{"--upstream", url, "--upstream-keys", required_env("LCG_PUBLIC_KEYS_FILE")}});
    CHECK(mirror.get("/v1/sheets/" + week + "/sources").body == listed.body);
    auto const& first = doc.at("files").as_array().at(0).at("path").as_string();
    CHECK(mirror.get("/v1/sheets/" + week + "/" + std::string(first)).body ==
          origin.get("/v1/sheets/" + week + "/" + std::string(first)).body);
    auto const through_mirror =
        run_lowcostgpu({"audit", "--url", "http://127.0.0.1:" + std::to_string(mirror.port()), "--week", week});
    CAPTURE(through_mirror.out);
    CHECK(through_mirror.exit_code == 0);
}

TEST_CASE("audit --url fails when a served raw file is not the one its sheet names")
{
    auto& m = market();
    std::string const week = m.published_week();
    server_process origin(m.db.url("reader"));
    std::string const url = "http://127.0.0.1:" + std::to_string(origin.port());
    // An upstream that changes one byte of every raw file it forwards.
    auto const tampering = editing_proxy(origin, [](std::string const& target, std::string& body) {
        if (target.find("/sources/") != std::string::npos && body.size() > 100)
            body[100] = body[100] == '1' ? '2' : '1';
    });
    auto const audited = run_lowcostgpu({"audit", "--url", tampering.url(), "--week", week});
    CAPTURE(audited.out);
    CHECK(audited.exit_code == 1);
    CHECK(audited.out.find("DIFF raw file") != std::string::npos);
    CHECK(audited.out.find("raw files: FAILED") != std::string::npos);
}

TEST_CASE("deploy/run --market publishes the sheet in effect from the real files, by rules version 2")
{
    // deploy/test builds this database as deploy/run --market does, from ../shared's catalog folder.
    pqxx::connection c("postgresql://lowcostgpu_reader@127.0.0.1:" + required_env("LCG_TEST_PG_PORT") + "/" +
                       required_env("LCG_TEST_MARKET_DATABASE"));
    pqxx::read_transaction tx(c);
    auto const sheet = tx.exec1("SELECT week, rules_version, observations FROM sheet");
    CHECK(sheet[0].as<std::string>() == this_week());
    CHECK(sheet[1].as<int>() == 2);
    CHECK(sheet[2].as<int>() == 827);
    CHECK(tx.exec1("SELECT count(*) FROM raw_input")[0].as<int>() == 16);
    auto const& models = expected().at("models").as_object();
    int priced = 0;
    for (auto const& row : tx.exec("SELECT gpu, median2_micros FROM sheet_row WHERE on_demand_micros IS NOT NULL")) {
        std::string const gpu = row[0].as<std::string>();
        CAPTURE(gpu);
        CHECK(row[1].as<std::int64_t>() == models.at(gpu).at("twice_median_micros").as_int64());
        ++priced;
    }
    CHECK(priced == 17);
}
