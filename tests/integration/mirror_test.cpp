// Mirrors (`serve --upstream`, `mcp --upstream`): built from an origin's public documents with no
// database, byte-for-byte the same documents, a tampered sheet refused while the last good snapshot
// keeps serving; and the one HTTP client's bounds, through `audit --url` (issue 14).
#include "harness.hpp"

#include <boost/json.hpp>
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>

#include <sys/wait.h>
#include <unistd.h>

using namespace lcg::testing;
namespace json = boost::json;

namespace {

json::object parse(std::string const& body) { return json::parse(body).as_object(); }

bool contains(std::string const& haystack, std::string const& needle)
{
    return haystack.find(needle) != std::string::npos;
}

std::string last_week() { return lcg::pricing::to_string(lcg::pricing::previous_week(current_week())); }

std::string url_of(server_process const& s) { return "http://127.0.0.1:" + std::to_string(s.port()); }

// The origin's keys document, as deploy/test made it: what an operator pins on a mirror.
std::string pinned_keys() { return required_env("LCG_PUBLIC_KEYS_FILE"); }

server_process mirror_of(std::string const& upstream, bool wait_until_ready = true)
{
    return server_process(
        serve_arguments{{"--upstream", upstream, "--upstream-keys", pinned_keys(), "--upstream-interval", "1"}},
        wait_until_ready);
}

// A proxy in front of `origin` that, while `tamper` holds, raises the H100 SXM spot rate of this
// week's sheet by a mill: a figure that still parses, and that only recomputing from the inputs
// shows to be wrong.
fake_upstream tampering_proxy(server_process const& origin, std::atomic<bool> const& tamper,
                              std::atomic<int>* feed_requests = nullptr, std::atomic<int>* inputs_requests = nullptr)
{
    return fake_upstream([&origin, &tamper, feed_requests, inputs_requests](std::string const& target,
                                                                            std::map<std::string, std::string> const& in) {
        if (feed_requests && target == "/v1/sheets.atom")
            ++*feed_requests;
        if (inputs_requests && target == "/v1/sheets/" + this_week() + "/observations.csv")
            ++*inputs_requests;
        std::map<std::string, std::string> forwarded;
        for (auto const& name : {"accept", "if-none-match"})
            if (auto it = in.find(name); it != in.end())
                forwarded[name] = it->second;
        auto const r = http_request(origin.port(), "GET", target, forwarded);
        std::string body = r.body;
        if (tamper && target == "/v1/sheets/" + this_week()) {
            auto const at = body.find(R"("spot":"0.840")");
            if (at != std::string::npos)
                body.replace(at, 14, R"("spot":"0.841")");
        }
        std::vector<std::string> headers;
        for (auto const& name : {"etag", "content-type"})
            if (!r.header(name).empty())
                headers.push_back(std::string(name) + ": " + r.header(name));
        return std::optional<std::string>(raw_response(r.status, body, headers));
    });
}

json::object upstream_state(server_process const& mirror)
{
    auto const ready = mirror.get("/readyz");
    auto const body = parse(ready.body);
    REQUIRE(body.contains("upstream"));
    return body.at("upstream").as_object();
}

}

TEST_CASE("a mirror with no database serves the origin's documents byte for byte")
{
    test_database db;
    server_process origin(db.url("reader"));
    auto mirror = mirror_of(url_of(origin));
    std::string const week = "/v1/sheets/" + this_week();
    for (std::string const& path : std::vector<std::string>{
             "/v1/sheets", "/v1/sheets.md", week, week + ".md", week + "/observations", week + "/observations.csv",
             "/v1/sheets/" + last_week(), "/v1/sheets/" + last_week() + "/observations.csv", "/v1/prices",
             "/v1/prices.md", "/v1/prices.csv", "/v1/prices/h100-sxm", "/v1/prices?vendor=amd&tier=spot&sort=price",
             "/v1/gpus", "/v1/gpus.md", "/v1/gpus/h100-sxm", "/v1/regions", "/v1/inventory", "/v1/methodology",
             "/v1/methodology.md", "/v1/sources", "/v1/sources.csv", "/v1/sources.md?lang=fr", "/v1/glossary", "/v1/glossary?lang=fr", "/v1/glossary/spot-instance",
             "/v1/estimate?gpu=h100-sxm&gpus=2&hours=10&storage_gb=500&egress_gb=20",
             "/v1/sizing?params_b=70&precision=fp8", "/v1/compare?gpus=h100-sxm,a100-80gb-sxm",
             "/v1/cheapest?params_b=70&precision=fp8&hours=10",
             "/v1/instances/check?gpu=h100-sxm&vcpus=8&memory_gib=64&cpu_generation=v7", "/", "/index.md",
             "/llms.txt", "/llms-full.txt", "/openapi.json", "/.well-known/mcp/server-card.json"}) {
        CAPTURE(path);
        auto const want = origin.get(path);
        auto const got = mirror.get(path);
        CHECK(got.status == want.status);
        CHECK(got.body == want.body);
        CHECK(got.header("etag") == want.header("etag"));
    }
    auto const ready = parse(mirror.get("/readyz").body);
    CHECK(ready.at("status").as_string() == "ready");
    CHECK(ready.at("upstream").at("state").as_string() == "following");
    CHECK(ready.at("upstream").at("url").as_string() == url_of(origin));
    CHECK(contains(mirror.output(), R"("event":"upstream_accepted")"));
}

TEST_CASE("a mirror refuses a tampered sheet, keeps serving the last good one and says so")
{
    test_database db;
    server_process origin(db.url("reader"));
    std::atomic<bool> tamper{false};
    std::atomic<int> feed_requests{0};
    std::atomic<int> inputs_requests{0};
    auto proxy = tampering_proxy(origin, tamper, &feed_requests, &inputs_requests);
    auto mirror = mirror_of(proxy.url());
    std::string const week = "/v1/sheets/" + this_week();
    CHECK(eventually([&] { return feed_requests > 1; }, std::chrono::seconds(5)));  // it follows the Atom feed
    auto const good = mirror.get(week).body;
    REQUIRE(good == origin.get(week).body);

    // The origin publishes the week again; on its way to the mirror, one figure is altered.
    tamper = true;
    inputs_requests = 0;
    REQUIRE(run_lowcostgpu({"publish", "--database-url", db.url("publisher"), "--week", this_week(), "--replace"})
                .exit_code == 0);
    REQUIRE(eventually([&] { return origin.get(week).body != good; }, std::chrono::seconds(5)));
    CHECK(eventually([&] { return upstream_state(mirror).at("state").as_string() == "refused"; },
                     std::chrono::seconds(15)));
    auto const ready = mirror.get("/readyz");
    CHECK(ready.status == 200);  // the last good snapshot is young: keep it in rotation
    auto const upstream = upstream_state(mirror);
    std::string const detail(upstream.at("detail").as_string());
    CHECK(contains(detail, "sheet " + this_week() + " refused"));
    // The altered figure is no longer the figure the origin signed.
    CHECK(contains(detail, "its signature: the signature does not match the sheet's signed bytes"));
    CHECK(inputs_requests == 0);  // a sheet nobody signed costs no download of its inputs
    CHECK(!upstream.at("accepted_at").is_null());
    CHECK(mirror.get(week).body == good);
    CHECK(parse(mirror.get("/v1/prices/h100-sxm").body).at("spot").as_string() == "0.840");
    auto const log = mirror.output();
    CHECK(contains(log, R"("event":"upstream_refused")"));
    CHECK(contains(log, "keeping the last good snapshot"));

    // Once the upstream is honest again the new publication is accepted.
    tamper = false;
    CHECK(eventually([&] { return mirror.get(week).body == origin.get(week).body; }, std::chrono::seconds(15)));
    CHECK(upstream_state(mirror).at("state").as_string() == "following");
}

// What a proxy makes of the origin's history on its way to a mirror.
enum class history_view { honest, withheld, rolled_back };

// The index and this week's sheet as the proxy passed them while `keeping`, shared with its thread.
struct kept_history {
    std::mutex mutex;
    bool keeping = true;
    std::map<std::string, std::string> bodies;

    std::size_t size()
    {
        std::lock_guard lock(mutex);
        return bodies.size();
    }
};

// A proxy that passes everything while `view` is honest (and keeps the index and this week's sheet
// as they were when `keep` was last set); withheld: this week is gone from the index and its sheet
// is 404; rolled back: the kept index and sheet, every one genuinely signed, in place of today's.
// Either way the feed is 404, so the mirror reads the index itself.
fake_upstream history_proxy(server_process const& origin, std::atomic<history_view> const& view, kept_history& kept)
{
    return fake_upstream([&origin, &view, &kept](std::string const& target,
                                                        std::map<std::string, std::string> const& in) {
        std::string const week = "/v1/sheets/" + this_week();
        bool const honest = view == history_view::honest;
        std::map<std::string, std::string> forwarded;
        for (auto const& name : {"accept", "if-none-match"})
            if (auto it = in.find(name); it != in.end() && (honest || name == std::string("accept")))
                forwarded[name] = it->second;
        auto const r = http_request(origin.port(), "GET", target, forwarded);
        std::lock_guard lock(kept.mutex);
        if (honest && kept.keeping && (target == "/v1/sheets" || target == week) && r.status == 200)
            kept.bodies[target] = r.body;
        std::vector<std::string> headers{"content-type: " + r.header("content-type")};
        if (honest) {
            if (!r.header("etag").empty())
                headers.push_back("etag: " + r.header("etag"));
            return std::optional<std::string>(raw_response(r.status, r.body, headers));
        }
        if (target == "/v1/sheets.atom")
            return std::optional<std::string>(raw_response(404, "{}", headers));
        if (view == history_view::rolled_back && kept.bodies.contains(target))
            return std::optional<std::string>(raw_response(200, kept.bodies.at(target), headers));
        if (target == week)
            return std::optional<std::string>(raw_response(404, "{}", headers));
        if (target == "/v1/sheets") {
            auto index = json::parse(r.body).as_object();
            auto& sheets = index.at("sheets").as_array();
            sheets.erase(std::remove_if(sheets.begin(), sheets.end(),
                                        [](json::value const& v) { return v.at("week").as_string() == this_week(); }),
                         sheets.end());
            index["count"] = sheets.size();
            return std::optional<std::string>(raw_response(200, json::serialize(index), headers));
        }
        return std::optional<std::string>(raw_response(r.status, r.body, headers));
    });
}

TEST_CASE("a mirror never drops a sheet it verified nor goes back to an older version of one")
{
    test_database db;
    server_process origin(db.url("reader"));
    std::atomic<history_view> view{history_view::honest};
    kept_history kept;
    auto proxy = history_proxy(origin, view, kept);
    auto mirror = mirror_of(proxy.url());
    std::string const week = "/v1/sheets/" + this_week();
    REQUIRE(eventually([&] { return kept.size() == 2; }, std::chrono::seconds(5)));
    {
        std::lock_guard lock(kept.mutex);
        kept.keeping = false;  // the first version of this week, as the mirror verified it
    }
    auto const first = mirror.get(week).body;
    REQUIRE((first == origin.get(week).body));

    // Withheld: the upstream stops listing this week. The mirror keeps it and says why.
    view = history_view::withheld;
    CHECK(eventually([&] { return upstream_state(mirror).at("state").as_string() == "refused"; },
                     std::chrono::seconds(15)));
    // The signed index still lists it: the withholding is caught before the mirror's own history.
    CHECK(contains(std::string(upstream_state(mirror).at("detail").as_string()),
                   "the upstream's /v1/sheets does not list " + this_week() +
                       ", which its signed index does: refused as withheld"));
    CHECK((mirror.get(week).body == first));
    view = history_view::honest;
    CHECK(eventually([&] { return upstream_state(mirror).at("state").as_string() == "following"; },
                     std::chrono::seconds(15)));

    // A correction, published later, is taken; the first version served again in its place is not.
    std::this_thread::sleep_for(std::chrono::seconds(1));  // published_at has whole seconds
    REQUIRE(run_lowcostgpu({"publish", "--database-url", db.url("publisher"), "--week", this_week(), "--replace"})
                .exit_code == 0);
    REQUIRE(eventually([&] { return origin.get(week).body != first; }, std::chrono::seconds(5)));
    auto const corrected = origin.get(week).body;
    REQUIRE(eventually([&] { return mirror.get(week).body == corrected; }, std::chrono::seconds(15)));
    view = history_view::rolled_back;
    CHECK(eventually([&] { return upstream_state(mirror).at("state").as_string() == "refused"; },
                     std::chrono::seconds(15)));
    CHECK(contains(std::string(upstream_state(mirror).at("detail").as_string()), "refused as rolled back"));
    CHECK((mirror.get(week).body == corrected));
}

TEST_CASE("a mirror shows the catalog only as signed: a change once it is signed, never an older signature")
{
    test_database db;
    server_process origin(db.url("reader"));
    // The upstream's first signed catalog, kept as the mirror first fetched it, and served again
    // in place of the newer one while `replay` holds.
    std::atomic<bool> replay{false};
    std::mutex mutex;
    std::map<std::string, std::string> first;
    fake_upstream proxy([&](std::string const& target, std::map<std::string, std::string> const& in) {
        std::map<std::string, std::string> forwarded;
        if (auto it = in.find("accept"); it != in.end())
            forwarded["accept"] = it->second;
        auto const r = http_request(origin.port(), "GET", target, forwarded);
        std::string body = r.body;
        if (target == "/v1/catalog" || target == "/v1/catalog/signature") {
            std::lock_guard lock(mutex);
            auto const kept = first.emplace(target, body).first;
            if (replay)
                body = kept->second;
        }
        return std::optional<std::string>(raw_response(r.status, body, {"content-type: " + r.header("content-type")}));
    });
    auto mirror = mirror_of(proxy.url());
    auto const name = [](server_process const& s) {
        return std::string(parse(s.get("/v1/gpus/h100-sxm").body).at("name").as_string());
    };
    auto const before = name(origin);
    auto const signed_catalog = origin.get("/v1/catalog").body;
    REQUIRE(name(mirror) == before);

    // The operator renames a model: its server shows the new name at once, the signed catalog and
    // every mirror keep the old one until the catalog is signed again.
    std::this_thread::sleep_for(std::chrono::seconds(1));  // signed_at has whole seconds
    db.exec("UPDATE gpu_model SET name = name || ' (renamed)' WHERE id = 'h100-sxm'; NOTIFY lowcostgpu_changed");
    REQUIRE(eventually([&] { return name(origin) == before + " (renamed)"; }, std::chrono::seconds(5)));
    CHECK(origin.get("/v1/catalog").body == signed_catalog);
    std::this_thread::sleep_for(std::chrono::seconds(2));  // two polls of the mirror
    CHECK(name(mirror) == before);
    auto const signed_now = run_lowcostgpu({"sign", "--all", "--database-url", db.url("publisher")});
    CHECK(signed_now.exit_code == 0);
    CHECK(contains(signed_now.out, "signed the catalog"));
    CHECK(eventually([&] { return name(mirror) == before + " (renamed)"; }, std::chrono::seconds(15)));

    // The older signature served again: refused as rolled back, and the newer catalog kept.
    replay = true;
    CHECK(eventually([&] { return upstream_state(mirror).at("state").as_string() == "refused"; },
                     std::chrono::seconds(15)));
    CHECK(contains(std::string(upstream_state(mirror).at("detail").as_string()), "catalog was signed at"));
    CHECK(contains(std::string(upstream_state(mirror).at("detail").as_string()), "refused as rolled back"));
    CHECK(name(mirror) == before + " (renamed)");
}

TEST_CASE("a mirror answers a HEAD of a week's inputs without fetching the week from its upstream")
{
    test_database db;
    server_process origin(db.url("reader"));
    std::atomic<bool> tamper{false};
    std::atomic<int> inputs_requests{0};
    auto proxy = tampering_proxy(origin, tamper, nullptr, &inputs_requests);
    auto mirror = mirror_of(proxy.url());
    std::string const csv = "/v1/sheets/" + this_week() + "/observations.csv";
    auto const whole = origin.get(csv).body;
    inputs_requests = 0;  // the mirror read the week once, to check the sheet

    auto const head = http_request(mirror.port(), "HEAD", csv);
    CHECK(head.status == 200);
    CHECK(head.header("content-length") == std::to_string(whole.size()));  // the signed index's length
    CHECK(head.header("etag") == origin.get(csv).header("etag"));
    auto const json_head = http_request(mirror.port(), "HEAD", "/v1/sheets/" + this_week() + "/observations.json");
    CHECK(json_head.status == 200);
    CHECK(json_head.header("transfer-encoding") == "chunked");
    CHECK(inputs_requests == 0);
    CHECK(mirror.get(csv).body == whole);  // a GET reads it
    CHECK(inputs_requests == 1);
}

TEST_CASE("a mirror whose upstream is tampered from the start is not ready")
{
    test_database db;
    server_process origin(db.url("reader"));
    std::atomic<bool> tamper{true};
    auto proxy = tampering_proxy(origin, tamper);
    auto mirror = mirror_of(proxy.url(), false);
    CHECK(eventually([&] { return contains(mirror.get("/readyz").body, "the signature does not match"); },
                     std::chrono::seconds(15)));
    auto const ready = mirror.get("/readyz");
    CHECK(ready.status == 503);
    CHECK(parse(ready.body).at("status").as_string() == "starting");
    CHECK(mirror.get("/v1/prices").status == 503);
    CHECK(contains(mirror.output(), "not ready until one is accepted"));
}

TEST_CASE("lowcostgpu mcp --upstream answers estimate_job_cost with the origin's numbers, without DATABASE_URL")
{
    test_database db;
    server_process origin(db.url("reader"));
    stdio_process mcp({"mcp", "--upstream", url_of(origin), "--upstream-keys", pinned_keys()}, {"DATABASE_URL"});
    mcp.send(R"({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"estimate_job_cost","arguments":)"
             R"({"gpu":"h100-sxm","gpus":2,"hours":10,"storage_gb":500,"egress_gb":20}}})");
    std::string answer;
    eventually(
        [&] {
            auto const out = mcp.output();
            auto const at = out.find(R"({"jsonrpc":"2.0","id":7,)");
            auto const eol = out.find('\n', at);
            if (at == std::string::npos || eol == std::string::npos)
                return false;
            answer = out.substr(at, eol - at);
            return true;
        },
        std::chrono::seconds(15));
    REQUIRE_FALSE(answer.empty());
    CAPTURE(answer);
    auto const result = parse(answer).at("result").as_object();
    bool const tool_error = result.contains("isError") && result.at("isError").as_bool();
    CHECK_FALSE(tool_error);
    auto const http = origin.get("/v1/estimate?gpu=h100-sxm&gpus=2&hours=10&storage_gb=500&egress_gb=20");
    REQUIRE(http.status == 200);
    CHECK(result.at("structuredContent") == json::parse(http.body));
    CHECK(result.at("structuredContent").at("total").as_string() == parse(http.body).at("total").as_string());
}

TEST_CASE("lowcostgpu mcp --upstream refuses to start on an upstream it cannot read")
{
    fake_upstream nothing([](std::string const&, std::map<std::string, std::string> const&) {
        return std::optional<std::string>(raw_response(500, "{}"));
    });
    auto const r = run_lowcostgpu({"mcp", "--upstream", nothing.url(), "--upstream-keys", pinned_keys()});
    CHECK(r.exit_code == 1);
    CHECK(contains(r.err, "answered 500"));
    // Without --upstream-keys the keys are pinned on first use, which needs the origin's keys.
    auto const unpinned = run_lowcostgpu({"serve", "--upstream", nothing.url(), "--upstream-key-id", "0123"});
    CHECK(unpinned.exit_code == 1);
    CHECK(contains(unpinned.err, "lowcostgpu-keys.json answered 500"));
    CHECK(run_lowcostgpu({"serve", "--upstream", nothing.url(), "--database-url", "postgresql://x"}).exit_code == 2);
    CHECK(run_lowcostgpu({"serve", "--upstream", "ftp://example.org"}).exit_code == 2);
}

namespace {

// `lowcostgpu mcp --upstream URL` with XDG_STATE_HOME=`state` and no DATABASE_URL, asked tools/list
// on standard input; what it wrote to standard error is left in `state`/err.
shell_result mcp_with_pins(std::string const& url, std::string const& state, std::string const& more = "")
{
    return run_shell("printf '%s\\n' '" R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})" "' | env -u DATABASE_URL "
                     "XDG_STATE_HOME=" + state + " " + required_env("LCG_BINARY") + " mcp --upstream " + url + " " +
                     more + " 2>" + state + "/err");
}

std::string key_id_in(std::string const& keys_document)
{
    return std::string(parse(keys_document).at("keys").as_array().at(0).at("key_id").as_string());
}

}

TEST_CASE("mcp --upstream without --upstream-keys pins the origin's keys on first use, says so, and keeps them")
{
    test_database db;
    server_process origin(db.url("reader"));
    std::string const state = "/tmp/lcg-pins-" + std::to_string(getpid());
    run_shell("rm -rf " + state + " && mkdir -p " + state);
    std::string const id = key_id_in(run_shell("cat " + pinned_keys()).out);
    std::string const pin = state + "/lowcostgpu/upstream-keys/http___127.0.0.1_" + std::to_string(origin.port()) +
                            ".json";

    auto const first = mcp_with_pins(url_of(origin), state);
    CHECK(first.status == 0);
    CHECK(contains(first.out, R"("name":"get_prices")"));
    std::string const said = run_shell("cat " + state + "/err").out;
    CAPTURE(said);
    CHECK(contains(said, "trusting on first use the signing key(s) " + id));
    CHECK(contains(said, "pinned in " + pin));
    CHECK(key_id_in(run_shell("cat " + pin).out) == id);

    // Later starts read the pin, not the origin's keys: a pin of another key refuses every sheet.
    auto const again = mcp_with_pins(url_of(origin), state);
    CHECK(again.status == 0);
    CHECK(contains(run_shell("cat " + state + "/err").out, "using the keys pinned in " + pin + " (" + id + ")"));
    REQUIRE(run_shell("openssl genpkey -algorithm ed25519 -out " + state + "/other.pem 2>/dev/null && " +
                      required_env("LCG_BINARY") + " public-key --signing-key " + state + "/other.pem --valid-from "
                      "2000-01-01T00:00:00Z > " + pin).status == 0);
    auto const other = mcp_with_pins(url_of(origin), state);
    CHECK(other.status != 0);
    CHECK(contains(run_shell("cat " + state + "/err").out, "offered no state that could be accepted"));

    // Ids given out of band: only those keys are pinned, and the origin must list them.
    run_shell("rm -rf " + state + "/lowcostgpu");
    auto const wrong = mcp_with_pins(url_of(origin), state, "--upstream-key-id 0123456789abcdef");
    CHECK(wrong.status != 0);
    CHECK(contains(run_shell("cat " + state + "/err").out, "the key 0123456789abcdef given with --upstream-key-id is "
                                                           "not among"));
    CHECK(run_shell("test -e " + pin).status != 0);  // nothing pinned
    auto const given = mcp_with_pins(url_of(origin), state, "--upstream-key-id " + id);
    CHECK(given.status == 0);
    CHECK(contains(run_shell("cat " + state + "/err").out, "as given with --upstream-key-id"));
    run_shell("rm -rf " + state);

    auto const nowhere = run_shell("env -u HOME -u XDG_STATE_HOME " + required_env("LCG_BINARY") + " mcp --upstream " +
                                   url_of(origin) + " </dev/null 2>&1");
    CHECK(WEXITSTATUS(nowhere.status) == 2);
    CHECK(contains(nowhere.out, "neither is set"));
}

namespace {

// The command a client configuration starts: a JSON configuration's lowcostgpu server (under
// mcpServers or, for VS Code, servers), or what follows " -- " in a Claude Code command line.
std::vector<std::string> configured_command(std::string const& configuration)
{
    std::vector<std::string> out;
    if (configuration.starts_with("{")) {
        auto const root = parse(configuration);
        auto const& servers = root.contains("mcpServers") ? root.at("mcpServers") : root.at("servers");
        auto const& server = servers.at("lowcostgpu").as_object();
        out.emplace_back(server.at("command").as_string());
        for (auto const& a : server.at("args").as_array())
            out.emplace_back(a.as_string());
        return out;
    }
    auto const dashes = configuration.find(" -- ");
    REQUIRE(dashes != std::string::npos);
    std::istringstream words(configuration.substr(dashes + 4));
    for (std::string w; words >> w;)
        out.push_back(w);
    return out;
}

// The endpoint a remote configuration names: its url, mcp-remote's last argument, or a Claude Code
// command line's last word.
std::string configured_endpoint(std::string const& configuration)
{
    if (!configuration.starts_with("{"))
        return configuration.substr(configuration.rfind(' ') + 1);
    auto const root = parse(configuration);
    auto const& server = (root.contains("mcpServers") ? root.at("mcpServers") : root.at("servers")).at("lowcostgpu");
    if (server.as_object().contains("url"))
        return std::string(server.at("url").as_string());
    return std::string(server.at("args").as_array().back().as_string());
}

}

TEST_CASE("the home page gives each client a configuration that parses and starts, for the --public-url given")
{
    test_database db;
    server_process origin(db.url("reader"));
    std::string const url = url_of(origin);
    server_process described(db.url("reader"), {"--public-url", url + "/"});
    auto const placeholder = parse(origin.get("/", {{"Accept", "application/json"}}).body).at("mcp");
    CHECK(placeholder.at("public_url").as_string() == "https://YOUR-HOST");
    // The README shows the same lines, with the placeholder.
    std::string const readme = run_shell(std::string("cat ") + LCG_SOURCE_DIR + "/README.md").out;
    for (auto const& v : placeholder.at("clients").as_array())
        CHECK_MESSAGE(contains(readme, std::string(v.at("local").as_string())), v.at("local").as_string());

    auto const index = parse(described.get("/", {{"Accept", "application/json"}}).body);
    auto const& mcp = index.at("mcp").as_object();
    CHECK(mcp.at("public_url").as_string() == url);
    CHECK(contains(described.get("/llms.txt").body, "`lowcostgpu mcp --upstream " + url + "`"));
    // The server card names the same URL: its remote, and the local mirror's command in _meta.
    auto const card = parse(described.get("/mcp/server-card", {{"Accept", "application/mcp-server-card+json"}}).body);
    CHECK(card.at("remotes").at(0).at("url").as_string() == url + "/mcp");
    auto const& local = card.at("_meta").at("io.github.lowcostgpu/local");
    std::vector<std::string> card_command{std::string(local.at("command").as_string())};
    for (auto const& a : local.at("args").as_array())
        card_command.emplace_back(a.as_string());
    CHECK(card_command == std::vector<std::string>{"lowcostgpu", "mcp", "--upstream", url});
    std::vector<std::string> clients;
    std::string const state = "/tmp/lcg-clients-" + std::to_string(getpid());
    for (auto const& v : mcp.at("clients").as_array()) {
        std::string const client(v.at("client").as_string());
        CAPTURE(client);
        clients.push_back(client);
        auto const command = configured_command(std::string(v.at("local").as_string()));
        REQUIRE(command == std::vector<std::string>{"lowcostgpu", "mcp", "--upstream", url});
        run_shell("rm -rf " + state + " && mkdir -p " + state);
        auto const started = mcp_with_pins(command.back(), state);
        CHECK(started.status == 0);
        CHECK(contains(started.out, R"("name":"get_prices")"));

        std::string const endpoint = configured_endpoint(std::string(v.at("remote").as_string()));
        CHECK(endpoint == url + "/mcp");
        auto const listed = http_request(origin.port(), "POST", endpoint.substr(url.size()),
                                         {{"Content-Type", "application/json"}, {"Accept", "application/json"}},
                                         R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})");
        CHECK(contains(listed.body, R"("name":"get_prices")"));
    }
    run_shell("rm -rf " + state);
    CHECK(clients == std::vector<std::string>{"Claude Desktop", "Claude Code", "Cursor", "VS Code"});
    CHECK(run_lowcostgpu({"serve", "--public-url", "ftp://x", "--database-url", db.url("reader")}).exit_code == 2);
}

TEST_CASE("audit --url gives up on a server that never answers (issue 14)")
{
    fake_upstream stalling([](std::string const&, std::map<std::string, std::string> const&) {
        return std::optional<std::string>();
    });
    auto const r = run_lowcostgpu({"audit", "--url", stalling.url(), "--timeout", "1"});
    CAPTURE(r.err);
    CHECK(r.exit_code == 1);
    CHECK(contains(r.err, "timed out reading the answer"));
}

TEST_CASE("audit --url refuses an answer larger than the cap (issue 14)")
{
    // Announces a 1 GiB sheet index, then sends a little of it.
    fake_upstream oversized([](std::string const&, std::map<std::string, std::string> const&) {
        return std::optional<std::string>("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
                                          "1073741824\r\n\r\n" + std::string(4096, ' '));
    });
    auto const r = run_lowcostgpu({"audit", "--url", oversized.url(), "--all"});
    CAPTURE(r.err);
    CHECK(r.exit_code == 1);
    CHECK(contains(r.err, "the answer is larger than 268435456 bytes"));
}
