// lowcostgpu collect (issue 24, item 6): the sources of a sources file fetched from a local server
// that serves two real SkyPilot files of ../shared correctly and misbehaves on the others (it stalls,
// answers 500, dies mid-body, announces a body over the bound, breaks its chunked encoding, redirects
// for ever), plus local paths. Each good source is imported whole, each bad one not at all, and
// every one says what became of it.
#include "harness.hpp"

#include "pricing/rules.hpp"

#include <boost/json.hpp>
#include <doctest/doctest.h>
#include <pqxx/pqxx>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <csignal>
#include <cstdlib>
#include <unistd.h>
#include <vector>

using namespace lcg::testing;
namespace json = boost::json;
namespace fs = std::filesystem;

namespace {

// Far from the sample data's weeks, as in market_test.cpp.
std::string const observed_at = "2019-01-02T12:00:00Z";

std::string vms_csv(std::string const& source) { return market_catalog_dir() + "/" + source + "/vms.csv"; }

std::string file_bytes(std::string const& path)
{
    std::ifstream in(path, std::ios::binary);
    REQUIRE(in);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A folder of its own under the system's temporary folder, removed at the end of the test.
struct scratch_folder {
    fs::path path = fs::temp_directory_path() / ("lcg-collect-" + std::to_string(getpid()) + "-" +
                                                 std::to_string(reinterpret_cast<std::uintptr_t>(this)));
    scratch_folder() { fs::create_directories(path); }
    ~scratch_folder()
    {
        std::error_code ignored;
        fs::remove_all(path, ignored);
    }
    std::string write(std::string const& name, std::string const& text) const
    {
        std::ofstream(path / name, std::ios::binary) << text;
        return (path / name).string();
    }
};

// The local market: what each target answers. Counts the requests it gets.
struct market_server {
    std::atomic<int> requests{0};
    std::string const lambda = file_bytes(vms_csv("lambda"));
    std::string const vast = file_bytes(vms_csv("vast"));
    std::string const hyperstack = file_bytes(vms_csv("hyperstack"));
    std::string const shadeform = file_bytes(vms_csv("shadeform"));
    fake_upstream server{[this](std::string const& target, std::map<std::string, std::string> const&)
                             -> std::optional<std::string> {
        ++requests;
        if (target == "/lambda/vms.csv")
            return raw_response(200, lambda, {"Content-Type: text/csv"});
        if (target == "/vast/vms.csv")
            return raw_response(200, vast);
        if (target == "/old/hyperstack.csv")
            return raw_response(301, "", {"Location: /hyperstack/vms.csv"});
        if (target == "/hyperstack/vms.csv")
            return raw_response(200, hyperstack);
        if (target == "/slow")
            return std::nullopt;
        if (target == "/error")
            return raw_response(500, "internal error");
        if (target == "/truncated")  // announces the whole file, sends half of it, closes
            return "HTTP/1.1 200 OK\r\nContent-Length: " + std::to_string(shadeform.size()) + "\r\n\r\n" +
                   shadeform.substr(0, shadeform.size() / 2);
        if (target == "/huge")  // announces one byte over the bound, sends a little
            return "HTTP/1.1 200 OK\r\nContent-Length: " +
                   std::to_string(lcg::pricing::rules::max_listings_file_bytes + 1) + "\r\n\r\n" +
                   shadeform.substr(0, 100);
        if (target == "/chunked")  // a good first chunk, then a chunk size that is not hex
            return "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n10\r\n" + shadeform.substr(0, 16) +
                   "\r\nzz\r\nnonsense\r\n0\r\n\r\n";
        if (target == "/loop")
            return raw_response(302, "", {"Location: /loop"});
        return raw_response(404, "not found");
    }};
    std::string url(std::string const& target) const { return server.url() + target; }
};

json::object url_entry(std::string const& source, std::string const& url)
{
    return {{"source", source}, {"format", "skypilot-vms"}, {"url", url}};
}
json::object path_entry(std::string const& source, std::string const& path)
{
    return {{"source", source}, {"format", "skypilot-vms"}, {"path", path}};
}

std::string sources_file(scratch_folder const& dir, json::array entries)
{
    return dir.write("sources.json", json::serialize(json::object{{"sources", std::move(entries)}}));
}

command_result collect(test_database const& db, std::string const& sources, std::vector<std::string> extra = {})
{
    std::vector<std::string> args{"collect", "--database-url", db.url("publisher"), "--sources", sources,
                                  "--timeout", "1", "--total", "10"};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_lowcostgpu(args);
}

// What the database holds of one source: raw files, observations, and the raw files' bytes.
struct stored {
    long raw_files = 0;
    long observations = 0;
    std::vector<std::string> bytes;
    std::vector<std::string> observed_at;
};

stored stored_of(test_database const& db, std::string const& source)
{
    pqxx::connection c(db.url("owner"));
    pqxx::read_transaction tx(c);
    stored s;
    s.observations = tx.exec_params1("SELECT count(*) FROM observation WHERE source = $1", source)[0].as<long>();
    for (auto const& r : tx.exec_params("SELECT bytes, to_char(observed_at AT TIME ZONE 'UTC', "
                                        "'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"') FROM raw_input WHERE source = $1",
                                        source)) {
        s.bytes.push_back(pqxx::binarystring(r[0]).str());
        s.observed_at.push_back(r[1].as<std::string>());
    }
    s.raw_files = static_cast<long>(s.bytes.size());
    return s;
}

std::map<std::string, json::object> by_source(std::string const& out)
{
    std::map<std::string, json::object> m;
    auto const doc = json::parse(out);
    for (auto const& v : doc.as_object().at("sources").as_array())
        m[std::string(v.as_object().at("source").as_string())] = v.as_object();
    return m;
}

}

TEST_CASE("collect imports the good sources whole and nothing of the bad ones, each saying why")
{
    test_database db;
    market_server market;
    scratch_folder dir;
    std::string const refused = dir.write("refused.csv", "this is not,a catalog\n1,2\n");
    auto const sources = sources_file(
        dir, {url_entry("lambda", market.url("/lambda/vms.csv")), url_entry("vast", market.url("/vast/vms.csv")),
              url_entry("hyperstack", market.url("/old/hyperstack.csv")), path_entry("jarvislabs", vms_csv("jarvislabs")),
              url_entry("cudo", market.url("/slow")), url_entry("nebius", market.url("/error")),
              url_entry("shadeform", market.url("/truncated")), url_entry("spheron", market.url("/huge")),
              url_entry("verda", market.url("/chunked")), url_entry("mithril", market.url("/loop")),
              path_entry("yotta", refused), path_entry("seeweb", (dir.path / "missing.csv").string()),
              path_entry("nosuch", vms_csv("lambda"))});
    long const observations_before = db.count("observation");

    auto const started = std::chrono::steady_clock::now();
    auto const r = collect(db, sources, {"--observed-at", observed_at, "--json"});
    auto const took = std::chrono::steady_clock::now() - started;
    CAPTURE(r.out);
    CAPTURE(r.err);
    CHECK(r.exit_code == 1);
    CHECK(r.err.find("9 of 13 sources not imported") != std::string::npos);
    CHECK(took < std::chrono::seconds(20));  // the stalled source costs its --timeout, not more
    auto const results = by_source(r.out);
    REQUIRE(results.size() == 13);

    // The good ones: every listing the file gives, its bytes kept, at the time given.
    std::map<std::string, std::string> const good = {{"lambda", market.lambda},
                                                      {"vast", market.vast},
                                                      {"hyperstack", market.hyperstack},
                                                      {"jarvislabs", file_bytes(vms_csv("jarvislabs"))}};
    long imported = 0;
    for (auto const& entry : good) {
        std::string const& source = entry.first;  // not a structured binding: clang 14 cannot capture one
        std::string const& bytes = entry.second;
        CAPTURE(source);
        auto const& res = results.at(source);
        REQUIRE(res.at("ok").as_bool());
        CHECK_FALSE(res.contains("error"));
        auto const& summary = res.at("summary").as_object();
        CHECK(summary.at("source").as_string() == source);
        CHECK(summary.at("observed_at").as_string() == observed_at);
        auto const s = stored_of(db, source);
        CHECK(summary.at("imported").as_int64() > 0);
        CHECK(s.observations == summary.at("imported").as_int64());
        REQUIRE(s.raw_files == 1);
        CHECK(s.bytes[0] == bytes);
        CHECK(s.observed_at[0] == observed_at);
        imported += s.observations;
    }
    CHECK(db.count("observation") == observations_before + imported);

    // The bad ones: nothing of them, and why.
    std::map<std::string, std::vector<std::string>> const bad = {
        {"cudo", {"/slow", "timed out reading the answer", "1 s without progress"}},
        {"nebius", {"/error", "answered 500"}},
        {"shadeform", {"/truncated", "truncated", std::to_string(market.shadeform.size() / 2) + " of the " +
                                                      std::to_string(market.shadeform.size()) + " bytes"}},
        {"spheron", {"/huge", "larger than " + std::to_string(lcg::pricing::rules::max_listings_file_bytes) + " bytes"}},
        {"verda", {"/chunked", "broken chunked encoding"}},
        {"mithril", {"/loop", "more than 5 redirects"}},
        {"yotta", {"refused.csv", "the file is refused, nothing was imported"}},
        {"seeweb", {"missing.csv", "cannot open"}},
        {"nosuch", {"is not in market_source"}}};
    for (auto const& entry : bad) {
        std::string const& source = entry.first;  // not a structured binding: clang 14 cannot capture one
        auto const& reasons = entry.second;
        CAPTURE(source);
        auto const& res = results.at(source);
        CHECK_FALSE(res.at("ok").as_bool());
        CHECK_FALSE(res.contains("summary"));
        std::string const error(res.at("error").as_string());
        CAPTURE(error);
        for (auto const& reason : reasons)
            CHECK(error.find(reason) != std::string::npos);
        auto const s = stored_of(db, source);
        CHECK(s.raw_files == 0);
        CHECK(s.observations == 0);
    }
}

TEST_CASE("collect's summary of a source is the object import-listings --json prints for the same file")
{
    test_database collected_db, imported_db;
    market_server market;
    scratch_folder dir;
    auto const sources = sources_file(dir, {url_entry("lambda", market.url("/lambda/vms.csv"))});
    auto const c = collect(collected_db, sources, {"--observed-at", observed_at, "--json"});
    CAPTURE(c.err);
    REQUIRE(c.exit_code == 0);
    auto const i = run_lowcostgpu({"import-listings", "--database-url", imported_db.url("publisher"), "--format",
                                   "skypilot-vms", "--source", "lambda", "--observed-at", observed_at, "--json",
                                   vms_csv("lambda")});
    CAPTURE(i.err);
    REQUIRE(i.exit_code == 0);
    CHECK(by_source(c.out).at("lambda").at("summary") == json::parse(i.out));
}

TEST_CASE("collect exits 0 when every source is imported, one line each, dated by the fetch by default")
{
    test_database db;
    market_server market;
    scratch_folder dir;
    auto const sources =
        sources_file(dir, {url_entry("lambda", market.url("/lambda/vms.csv")), url_entry("vast", market.url("/vast/vms.csv"))});
    auto const before = std::chrono::time_point_cast<std::chrono::seconds>(std::chrono::system_clock::now());
    auto const r = collect(db, sources);
    auto const after = std::chrono::time_point_cast<std::chrono::seconds>(std::chrono::system_clock::now());
    CAPTURE(r.out);
    CAPTURE(r.err);
    CHECK(r.exit_code == 0);
    CHECK(r.err.empty());
    REQUIRE(std::count(r.out.begin(), r.out.end(), '\n') == 2);
    CHECK(r.out.starts_with("lambda: ok, "));
    CHECK(r.out.find("\nvast: ok, ") != std::string::npos);
    for (std::string const source : {"lambda", "vast"}) {
        CAPTURE(source);
        auto const s = stored_of(db, source);
        REQUIRE(s.raw_files == 1);
        auto const at = lcg::pricing::parse_utc_timestamp(s.observed_at[0]);
        REQUIRE(at);
        CHECK(*at >= before);
        CHECK(*at <= after);
        CHECK(s.observations > 0);
        CHECK(r.out.find(source + ": ok, ") != std::string::npos);
        CHECK(r.out.find("observed " + s.observed_at[0]) != std::string::npos);
    }

    // Again at another time: the same bytes are a new raw file at that time.
    auto const again = collect(db, sources, {"--observed-at", observed_at});
    CHECK(again.exit_code == 0);
    CHECK(stored_of(db, "lambda").raw_files == 2);
}

TEST_CASE("collect refuses a sources file with a mistake whole, naming the entry, before fetching anything")
{
    test_database db;
    market_server market;
    scratch_folder dir;
    auto const good = url_entry("lambda", market.url("/lambda/vms.csv"));
    struct refusal {
        json::value file;
        std::string says;
    };
    std::vector<refusal> const cases = {
        {json::array{good}, "expected an object {\"sources\": [...]}"},
        {json::object{{"sources", json::array{good}}, {"extra", 1}}, "unknown key 'extra'"},
        {json::object{{"sources", json::array{}}}, "\"sources\" must be an array of 1 to"},
        {json::object{{"sources", json::array{good, json::object{{"source", "vast"}, {"format", "skypilot-vms"},
                                                                  {"url", market.url("/vast/vms.csv")}, {"uri", "x"}}}}},
         "entry 2 ('vast'): unknown key 'uri'"},
        {json::object{{"sources", json::array{json::object{{"source", "vast"}, {"format", "skypilot-vms"},
                                                           {"url", market.url("/vast/vms.csv")}, {"path", "/x"}}}}},
         "entry 1 ('vast'): give exactly one of \"url\" and \"path\""},
        {json::object{{"sources", json::array{json::object{{"source", "vast"}, {"format", "skypilot-vms"}}}}},
         "entry 1 ('vast'): give exactly one of \"url\" and \"path\""},
        {json::object{{"sources", json::array{good, json::object{{"source", "vast"}, {"format", "csv"}, {"path", "/x"}}}}},
         "entry 2 ('vast'): "},
        {json::object{{"sources", json::array{good, url_entry("vast", "ftp://example.org/vms.csv")}}},
         "entry 2 ('vast'): 'ftp://example.org/vms.csv' is not an http:// or https:// URL"},
        {json::object{{"sources", json::array{good, url_entry("Vast Ai", market.url("/vast/vms.csv"))}}},
         "entry 2 ('Vast Ai'): \"source\" must be a market_source name"},
        {json::object{{"sources", json::array{good, good}}}, "entry 2: the source 'lambda' is named twice"},
    };
    for (auto const& c : cases) {
        auto const path = dir.write("sources.json", json::serialize(c.file));
        auto const r = collect(db, path);
        CAPTURE(json::serialize(c.file));
        CAPTURE(r.err);
        CHECK(r.exit_code == 2);
        CHECK(r.err.find(c.says) != std::string::npos);
        CHECK(r.out.empty());
    }
    dir.write("sources.json", "{\"sources\": [");
    CHECK(collect(db, (dir.path / "sources.json").string()).err.find("not JSON") != std::string::npos);
    CHECK(collect(db, (dir.path / "absent.json").string()).exit_code == 2);
    CHECK(run_lowcostgpu({"collect", "--database-url", db.url("publisher")}).exit_code == 2);
    CHECK(collect(db, (dir.path / "sources.json").string(), {"--timeout", "0"}).err.find("--timeout takes") !=
          std::string::npos);
    CHECK(market.requests == 0);
    CHECK(stored_of(db, "lambda").raw_files == 0);
}

namespace {

// `openssl s_server -WWW` serving the catalog folder of ../shared over TLS on 127.0.0.1: by default
// with a certificate for wrong.example, and with one for localhost to a client that sends
// localhost as SNI. Both certificates are self-signed and in `bundle`, which no system trusts.
struct tls_server {
    scratch_folder dir;
    std::string bundle;
    int pid = -1;
    unsigned short port = 0;

    tls_server()
    {
        for (std::string const name : {"wrong.example", "localhost"}) {
            auto const r = run_shell("openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 "
                                     "-subj /CN=" + name + " -addext subjectAltName=DNS:" + name + " -keyout " +
                                     (dir.path / (name + ".key")).string() + " -out " +
                                     (dir.path / (name + ".pem")).string() + " 2>&1");
            REQUIRE_MESSAGE(r.status == 0, r.out);
        }
        bundle = dir.write("bundle.pem", file_bytes((dir.path / "wrong.example.pem").string()) +
                                             file_bytes((dir.path / "localhost.pem").string()));
        auto const d = dir.path.string();
        auto const r = run_shell("cd " + market_catalog_dir() + " && { timeout 60 openssl s_server -WWW -accept 127.0.0.1:0 "
                                 "-cert " + d + "/wrong.example.pem -key " + d + "/wrong.example.key -servername localhost "
                                 "-cert2 " + d + "/localhost.pem -key2 " + d + "/localhost.key > " + d +
                                 "/s_server.log 2>&1 & echo $!; }");
        pid = std::stoi(r.out);
        REQUIRE(eventually([&] {
            auto const log = file_bytes(d + "/s_server.log");
            auto const at = log.find("ACCEPT 127.0.0.1:");
            if (at == std::string::npos || log.find('\n', at) == std::string::npos)
                return false;
            port = static_cast<unsigned short>(std::stoi(log.substr(at + 17)));
            return true;
        }, std::chrono::seconds(10)));
    }
    ~tls_server()
    {
        if (pid > 0)
            kill(pid, SIGTERM);
    }
};

// collect, with SSL_CERT_FILE (OpenSSL's default trust store) set to `trust` unless it is empty.
command_result collect_trusting(std::string const& trust, test_database const& db, std::string const& sources)
{
    if (!trust.empty())
        setenv("SSL_CERT_FILE", trust.c_str(), 1);
    auto r = collect(db, sources, {"--json"});
    unsetenv("SSL_CERT_FILE");
    return r;
}

}

TEST_CASE("collect over https verifies the certificate against the trust store, for the name it sends as SNI")
{
    test_database db;
    tls_server tls;
    scratch_folder dir;
    std::string const path = ":" + std::to_string(tls.port) + "/lambda/vms.csv";

    // localhost sent as SNI gets the localhost certificate, which the trust store holds: imported.
    auto const ok = collect_trusting(tls.bundle, db, sources_file(dir, {url_entry("lambda", "https://localhost" + path)}));
    CAPTURE(ok.out);
    CAPTURE(ok.err);
    CHECK(ok.exit_code == 0);
    CHECK(by_source(ok.out).at("lambda").at("ok").as_bool());
    auto const s = stored_of(db, "lambda");
    REQUIRE(s.raw_files == 1);
    CHECK(s.bytes[0] == file_bytes(vms_csv("lambda")));

    // An address sends no SNI and gets wrong.example's certificate: trusted, but not the address's.
    auto const ip = collect_trusting(tls.bundle, db, sources_file(dir, {url_entry("vast", "https://127.0.0.1" + path)}));
    CAPTURE(ip.out);
    CHECK(ip.exit_code == 1);
    CHECK(std::string(by_source(ip.out).at("vast").at("error").as_string()).find("certificate is refused: IP address mismatch") !=
          std::string::npos);

    // The system's own store does not trust a self-signed certificate.
    auto const untrusted = collect_trusting("", db, sources_file(dir, {url_entry("cudo", "https://localhost" + path)}));
    CAPTURE(untrusted.out);
    CHECK(untrusted.exit_code == 1);
    CHECK(std::string(by_source(untrusted.out).at("cudo").at("error").as_string()).find("certificate is refused: self-signed") !=
          std::string::npos);
    CHECK(stored_of(db, "vast").raw_files == 0);
    CHECK(stored_of(db, "cudo").raw_files == 0);
}
