// Database faults: the server keeps answering from its last snapshot while PostgreSQL is away,
// says how old that snapshot is, and reconnects, re-listens and reloads when it comes back.
// The outage is this test database refusing connections (the cluster is shared with other tests).
#include "harness.hpp"

#include "pricing/calendar.hpp"

#include <boost/json.hpp>
#include <doctest/doctest.h>
#include <pqxx/pqxx>

#include <arpa/inet.h>
#include <csignal>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <map>
#include <thread>
#include <utility>
#include <vector>

using namespace lcg::testing;
namespace json = boost::json;

namespace {

// Cuts the database off: no new connections, and the existing ones (the server's) are ended.
void cut_off(test_database const& db)
{
    pqxx::connection c(db.admin_url());
    pqxx::nontransaction tx(c);
    tx.exec("ALTER DATABASE " + db.name() + " ALLOW_CONNECTIONS false");
    tx.exec("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '" + db.name() + "'");
}

void restore(test_database const& db)
{
    pqxx::connection c(db.admin_url());
    pqxx::nontransaction tx(c);
    tx.exec("ALTER DATABASE " + db.name() + " ALLOW_CONNECTIONS true");
}

json::object readyz(server_process const& server) { return json::parse(server.get("/readyz").body).as_object(); }

// A raw TCP connection to the server, or -1.
int connect_loopback(unsigned short port)
{
    int const fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd >= 0 && connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0)
        return fd;
    if (fd >= 0)
        close(fd);
    return -1;
}

// Seconds until the server closes `fd` (recv sees end of stream), reading at most `limit`.
double seconds_until_closed(int fd, std::chrono::seconds limit)
{
    timeval tv{static_cast<time_t>(limit.count()), 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    auto const start = std::chrono::steady_clock::now();
    char buffer[4096];
    while (recv(fd, buffer, sizeof buffer, 0) > 0) {
    }
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}

TEST_CASE("PostgreSQL going away while serving fails no request, and its return is picked up")
{
    test_database db;
    server_process server(db.url("reader"), {"--ready-max-age", "3"});
    auto const before = server.get("/v1/prices");
    REQUIRE(before.status == 200);
    cut_off(db);

    int failures = 0;
    for (int i = 0; i < 200; ++i) {
        auto const r = server.get(i % 2 ? "/v1/prices/h100-sxm" : "/v1/prices");
        failures += r.status == 200 ? 0 : 1;
        if (i == 0)
            CHECK(r.body.size() > 0);
    }
    CHECK(failures == 0);
    CHECK(server.get("/v1/prices").body == before.body);
    // Past the maximum age, readiness says so while the data keeps being served.
    CHECK(eventually([&] { return server.get("/readyz").status == 503; }, std::chrono::seconds(8)));
    CHECK(readyz(server).at("status").as_string() == "stale");
    CHECK(server.get("/v1/prices").status == 200);
    auto const metrics = server.get("/metrics").body;
    CHECK(metrics.find("lowcostgpu_database_errors_total 0") == std::string::npos);

    restore(db);
    CHECK(eventually([&] { return server.get("/readyz").status == 200; }, std::chrono::seconds(15)));
    // It listens again: a publish reaches it without waiting for the slow poll.
    db.exec("UPDATE observation SET price_micros = price_micros * 2 WHERE gpu = 'l4'");
    REQUIRE(run_lowcostgpu({"publish", "--database-url", db.url("publisher"), "--week", this_week(), "--replace"})
                .exit_code == 0);
    CHECK(eventually([&] { return server.get("/v1/prices").body != before.body; }, std::chrono::seconds(3)));
}

TEST_CASE("PostgreSQL unreachable at start: not ready until the first snapshot, then ready")
{
    test_database db;
    cut_off(db);
    server_process server(db.url("reader"), {}, false);
    CHECK(server.get("/healthz").status == 200);
    CHECK(server.get("/readyz").status == 503);
    CHECK(server.get("/v1/prices").status == 503);
    std::this_thread::sleep_for(std::chrono::milliseconds(700));
    CHECK(server.get("/readyz").status == 503);
    restore(db);
    CHECK(eventually([&] { return server.get("/readyz").status == 200; }, std::chrono::seconds(15)));
    CHECK(server.get("/v1/prices").status == 200);
}

TEST_CASE("a publish that dies half-way leaves the previous sheet in the database and served")
{
    test_database db;
    server_process server(db.url("reader"));
    auto const before = server.get("/v1/prices");
    // Stall the republish after it has deleted the old sheet and written some rows, then kill it.
    db.exec("CREATE FUNCTION stall() RETURNS trigger LANGUAGE plpgsql AS "
            "$$ BEGIN IF NEW.gpu = 'l40' THEN PERFORM pg_sleep(30); END IF; RETURN NEW; END $$");
    db.exec("CREATE TRIGGER stall BEFORE INSERT ON sheet_row FOR EACH ROW EXECUTE FUNCTION stall()");
    {
        background_command publish({"publish", "--database-url", db.url("publisher"), "--week", this_week(), "--replace"});
        std::this_thread::sleep_for(std::chrono::seconds(2));
        publish.kill_now();
    }
    pqxx::connection c(db.url("reader"));
    pqxx::read_transaction tx(c);
    CHECK(tx.exec1("SELECT count(*) FROM sheet_row WHERE week = '" + this_week() + "'")[0].as<int>() == 27);
    CHECK(server.get("/v1/prices").body == before.body);
    CHECK(server.get("/v1/prices").header("etag") == before.header("etag"));
}

TEST_CASE("/metrics is Prometheus text with the counters that matter")
{
    test_database db;
    server_process server(db.url("reader"));
    server.get("/v1/prices");
    server.get("/v1/nothing");
    auto const r = server.get("/metrics");
    CHECK(r.status == 200);
    CHECK(r.header("content-type").starts_with("text/plain; version=0.0.4"));
    for (char const* name : {"lowcostgpu_http_requests_total{route=\"/v1/prices\",status=\"200\"}",
                             "lowcostgpu_http_requests_total{route=\"(unmatched)\",status=\"404\"}",
                             "lowcostgpu_http_request_duration_seconds_bucket{le=\"+Inf\"}",
                             "lowcostgpu_snapshot_age_seconds", "lowcostgpu_snapshot_reloads_total",
                             "lowcostgpu_database_errors_total", "lowcostgpu_rate_limited_total",
                             "lowcostgpu_rejected_connections_total", "lowcostgpu_open_connections",
                             "lowcostgpu_request_body_bytes 0"}) {
        CAPTURE(name);
        CHECK(r.body.find(name) != std::string::npos);
    }
    // Prometheus' own linter reads it as valid exposition text.
    std::string const path = "/tmp/lcg-metrics-" + std::to_string(getpid()) + ".txt";
    {
        std::FILE* f = std::fopen(path.c_str(), "wb");
        REQUIRE(f);
        std::fwrite(r.body.data(), 1, r.body.size(), f);
        std::fclose(f);
    }
    std::string const command = required_env("LCG_PROMTOOL") + " check metrics < " + path + " 2>&1";
    std::FILE* p = popen(command.c_str(), "r");
    REQUIRE(p);
    std::string report;
    char buf[512];
    while (std::size_t n = std::fread(buf, 1, sizeof buf, p))
        report.append(buf, n);
    int const status = pclose(p);
    unlink(path.c_str());
    CAPTURE(report);
    CHECK(status == 0);
}

TEST_CASE("rate limiting: 429 with Retry-After and RateLimit headers, loopback exempt unless asked")
{
    test_database db;
    server_process exempt(db.url("reader"), {"--rate-limit", "1", "--rate-burst", "2"});
    for (int i = 0; i < 5; ++i)
        CHECK(exempt.get("/v1/prices").status == 200);

    server_process limited(db.url("reader"),
                           {"--rate-limit", "1", "--rate-burst", "2", "--rate-limit-loopback", "true"}, false);
    REQUIRE(eventually([&] { return limited.get("/v1/prices").status != 503; }, std::chrono::seconds(10)));
    http_reply refused;
    for (int i = 0; i < 5 && refused.status != 429; ++i)
        refused = limited.get("/v1/prices");
    REQUIRE(refused.status == 429);
    CHECK(refused.header("content-type") == "application/problem+json");
    CHECK(!refused.header("retry-after").empty());
    CHECK(refused.header("ratelimit-policy").find("q=2") != std::string::npos);
    CHECK(refused.header("ratelimit").find("r=0") != std::string::npos);
}

TEST_CASE("X-Forwarded-For is believed only from a trusted proxy")
{
    test_database db;
    server_process server(db.url("reader"), {"--rate-limit", "1", "--rate-burst", "1", "--trusted-proxies", "127.0.0.1"},
                          false);
    REQUIRE(eventually([&] { return server.get("/healthz").status == 200; }, std::chrono::seconds(10)));
    // Through the trusted proxy each forwarded client has its own bucket, and loopback is not exempt for them.
    auto const a = http_request(server.port(), "GET", "/healthz", {{"X-Forwarded-For", "203.0.113.7"}});
    auto const a2 = http_request(server.port(), "GET", "/healthz", {{"X-Forwarded-For", "203.0.113.7"}});
    auto const b = http_request(server.port(), "GET", "/healthz", {{"X-Forwarded-For", "203.0.113.8"}});
    CHECK(a.status == 200);
    CHECK(a2.status == 429);
    CHECK(b.status == 200);
}

TEST_CASE("1,000 slow-header connections do not stop normal clients")
{
    test_database db;
    // One address opens them all: its share of connections is raised so the header phase is what is tested
    // (the per-address cap has its own case in tests/hostile).
    server_process server(db.url("reader"), {"--header-timeout", "30", "--max-connections-per-address", "1100"});
    std::vector<int> idle;
    for (int i = 0; i < 1000; ++i) {
        int const fd = connect_loopback(server.port());
        if (fd < 0)
            break;
        ssize_t const sent = send(fd, "GET /v1/prices HTTP/1.1\r\nHost: x\r\n", 35, 0);  // and never finish
        CHECK(sent == 35);
        idle.push_back(fd);
    }
    CHECK(idle.size() == 1000);
    for (int i = 0; i < 50; ++i)
        CHECK(server.get("/v1/prices/h100-sxm").status == 200);
    for (int fd : idle)
        close(fd);
}

TEST_CASE("connections over the cap get 503 and are closed")
{
    test_database db;
    server_process server(db.url("reader"), {"--max-connections", "3"});
    std::vector<int> held;
    for (int i = 0; i < 3; ++i) {
        int const fd = connect_loopback(server.port());
        REQUIRE(fd >= 0);
        held.push_back(fd);
    }
    CHECK(eventually([&] { return server.get("/healthz").status == 503; }, std::chrono::seconds(5)));
    for (int fd : held)
        close(fd);
    CHECK(eventually([&] { return server.get("/healthz").status == 200; }, std::chrono::seconds(5)));
}

TEST_CASE("a request that never ends is cut off at the header timeout, a silent connection at the idle timeout")
{
    test_database db;
    server_process server(db.url("reader"), {"--header-timeout", "1", "--idle-timeout", "2"});
    // A client must start and finish its request within the header timeout...
    int const partial = connect_loopback(server.port());
    REQUIRE(partial >= 0);
    CHECK(send(partial, "GET /v1/prices HTTP/1.1\r\nHost: x\r\n", 35, 0) == 35);
    double const partial_closed = seconds_until_closed(partial, std::chrono::seconds(10));
    // ...and may then keep the connection open, silent, for the idle timeout.
    int const kept = connect_loopback(server.port());
    REQUIRE(kept >= 0);
    std::string const request = "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n";
    CHECK(send(kept, request.data(), request.size(), 0) == static_cast<ssize_t>(request.size()));
    double const kept_closed = seconds_until_closed(kept, std::chrono::seconds(10));
    // Deadlines are checked four times a second, so each closes soon after its timeout (the upper
    // bounds leave room for a loaded test machine), and never before it.
    CHECK(partial_closed >= 0.9);
    CHECK(partial_closed < 3.0);
    CHECK(kept_closed >= 1.9);
    CHECK(kept_closed < 4.5);
    close(partial);
    close(kept);
    CHECK(server.get("/healthz").status == 200);
}

TEST_CASE("each request is logged as one JSON line on standard output")
{
    test_database db;
    server_process server(db.url("reader"));
    auto const price = server.get("/v1/prices/h100-sxm");
    REQUIRE(price.status == 200);
    // A week's inputs are sent in parts (the CSV with its length, the JSON chunked): their lines
    // say how many bytes of body went out, written once the last part is.
    auto const csv = server.get("/v1/sheets/current/observations.csv");
    auto const observations = server.get("/v1/sheets/current/observations");
    REQUIRE(csv.status == 200);
    REQUIRE(observations.status == 200);
    REQUIRE(server.get("/v1/prices/no-such-gpu").status == 404);
    // Lines are written in batches, each event loop's at the latest a quarter of a second after
    // the request, so they are found by target, not by order.
    std::map<std::string, json::object> by_target;
    CHECK(eventually(
        [&] {
            by_target.clear();
            auto const out = server.output();
            std::size_t at = 0;
            while ((at = out.find("{\"event\":\"request\"", at)) != std::string::npos) {
                auto const eol = out.find('\n', at);
                auto line = json::parse(out.substr(at, eol - at)).as_object();
                by_target[std::string(line.at("target").as_string())] = std::move(line);
                at = eol;
            }
            return by_target.contains("/v1/prices/h100-sxm") && by_target.contains("/v1/prices/no-such-gpu") &&
                   by_target.contains("/v1/sheets/current/observations.csv") &&
                   by_target.contains("/v1/sheets/current/observations");
        },
        std::chrono::seconds(3)));
    auto const line = [&](std::string const& target) {
        auto const it = by_target.find(target);
        REQUIRE(it != by_target.end());
        return it->second;
    };
    auto const found = line("/v1/prices/h100-sxm");
    CHECK(found.at("status") == 200);
    CHECK(found.at("client") == "127.0.0.1");
    CHECK(found.at("bytes").to_number<std::size_t>() == price.body.size());
    CHECK(line("/v1/sheets/current/observations.csv").at("bytes").to_number<std::size_t>() == csv.body.size());
    CHECK(line("/v1/sheets/current/observations").at("bytes").to_number<std::size_t>() == observations.body.size());
    CHECK(line("/v1/prices/no-such-gpu").at("status") == 404);
}

namespace {

// A connection whose receive window is small, so the server's writes wait on this reader.
int connect_narrow(unsigned short port)
{
    int const fd = socket(AF_INET, SOCK_STREAM, 0);
    int const size = 16 * 1024;
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof size);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
    return fd;
}

// Reads what arrives until end of stream (or `limit`), pausing `pause` after each read of at most
// 64 KiB: the answer's head and the number of body bytes that followed it.
std::pair<std::string, std::size_t> read_slowly(int fd, std::chrono::milliseconds pause, std::chrono::seconds limit)
{
    timeval tv{5, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    std::string head;
    std::size_t body = 0;
    std::vector<char> buffer(64 * 1024);
    auto const deadline = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < deadline) {
        auto const n = recv(fd, buffer.data(), buffer.size(), 0);
        if (n <= 0)
            break;
        std::size_t used = 0;
        if (head.find("\r\n\r\n") == std::string::npos) {
            auto const before = head.size();
            head.append(buffer.data(), static_cast<std::size_t>(n));
            auto const end = head.find("\r\n\r\n");
            if (end == std::string::npos)
                continue;
            used = end + 4 - before;
            head.resize(end + 4);
        }
        body += static_cast<std::size_t>(n) - used;
        std::this_thread::sleep_for(pause);
    }
    return {head, body};
}

std::size_t content_length(std::string const& head)
{
    auto const at = head.find("Content-Length: ");
    return at == std::string::npos ? 0 : std::stoul(head.substr(at + 16));
}

}

TEST_CASE("a slow reader of a large body gets all of it at its pace, and a reader that stops is dropped")
{
    test_database db;
    auto const week = lcg::pricing::previous_week(current_week());
    auto const window = lcg::pricing::observation_window(week);
    std::string csv = "observed_at,gpu,price_per_gpu_hour,source,listing_id\n";
    for (int i = 0; i < 150'000; ++i)
        csv += lcg::pricing::to_rfc3339(window.from + std::chrono::seconds(i)) + ",h100-sxm,2.400000,slow-reader,L-" +
               std::to_string(i) + "\n";
    REQUIRE(run_lowcostgpu({"import-observations", "--database-url", db.url("publisher"), "-"}, csv).exit_code == 0);
    std::string const name = lcg::pricing::to_string(week);
    REQUIRE(run_lowcostgpu({"publish", "--database-url", db.url("publisher"), "--week", name, "--replace"}).exit_code == 0);
    server_process server(db.url("reader"), {"--header-timeout", "4"});
    std::string const request = "GET /v1/sheets/" + name + "/observations.csv HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";

    // Under 1 MB/s for a body of over 8 MB: twice the 4 s the server gives a stalled write.
    int const slow = connect_narrow(server.port());
    REQUIRE(send(slow, request.data(), request.size(), 0) == static_cast<ssize_t>(request.size()));
    auto const started = std::chrono::steady_clock::now();
    auto const [head, received] = read_slowly(slow, std::chrono::milliseconds(20), std::chrono::seconds(60));
    double const took = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    close(slow);
    REQUIRE(head.starts_with("HTTP/1.1 200"));
    CHECK(content_length(head) > 8'000'000);
    CHECK(received == content_length(head));
    CHECK(took > 4.0);  // the body outlasted the write timeout: progress kept it alive

    // A reader that stops reading after the head: dropped once 4 s pass without progress, as
    // documented, and not after 8 (the deadline's first look used to count as progress). Its
    // reading resumes at 6 s: by then the server must have let it go, leaving the body short.
    int const stalled = connect_narrow(server.port());
    REQUIRE(send(stalled, request.data(), request.size(), 0) == static_cast<ssize_t>(request.size()));
    std::this_thread::sleep_for(std::chrono::seconds(6));
    auto const [stalled_head, partial] = read_slowly(stalled, std::chrono::milliseconds(0), std::chrono::seconds(20));
    close(stalled);
    CHECK(stalled_head.starts_with("HTTP/1.1 200"));
    CHECK(partial < content_length(stalled_head));
    CHECK(server.get("/healthz").status == 200);
}

namespace {

// The PostgreSQL backends serving `role` on the test database, stopped (SIGSTOP) for as long as
// this lives: a database that holds its connections open and never answers, as a hung host does.
class frozen_backends {
public:
    frozen_backends(test_database const& db, std::string const& role)
    {
        pqxx::connection c(db.admin_url());
        pqxx::nontransaction tx(c);
        for (auto const& row : tx.exec("SELECT pid FROM pg_stat_activity WHERE datname = '" + db.name() +
                                       "' AND usename = '" + role + "'"))
            pids_.push_back(row[0].as<int>());
        for (int pid : pids_)
            kill(pid, SIGSTOP);
    }
    ~frozen_backends()
    {
        for (int pid : pids_)
            kill(pid, SIGCONT);
    }
    std::size_t size() const { return pids_.size(); }

private:
    std::vector<int> pids_;
};

}

TEST_CASE("SIGTERM ends the server within its grace when PostgreSQL stops answering")
{
    test_database db;
    server_process server(db.url("reader"));
    REQUIRE(server.get("/readyz").status == 200);
    frozen_backends frozen(db, "lowcostgpu_reader");
    REQUIRE(frozen.size() >= 1);  // the refresher's connection
    // The refresher asks every 250 ms: within a second its question waits on the frozen backend.
    std::this_thread::sleep_for(std::chrono::seconds(1));
    CHECK(server.get("/v1/prices").status == 200);  // serving goes on from the snapshot meanwhile
    auto const started = std::chrono::steady_clock::now();
    // No connection is open, so the drain is immediate; the refresher gets 5 s, then the process goes.
    auto const code = server.terminate_within(std::chrono::seconds(12));
    auto const took = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    CAPTURE(took);
    CAPTURE(server.output());
    REQUIRE(code);
    CHECK(*code == 0);
    CHECK(took >= 4.5);
    CHECK(server.output().find("\"event\":\"stop_forced\"") != std::string::npos);
}

TEST_CASE("SIGTERM ends the server within 10 s when a reader stalls and PostgreSQL stops answering")
{
    test_database db;
    server_process server(db.url("reader"));
    REQUIRE(server.get("/readyz").status == 200);
    // A client pipelines far more answers than the sockets hold and reads none: the drain waits
    // for it (10 s), then the frozen refresher would have had its own 5 s on top.
    int const fd = connect_loopback(server.port());
    REQUIRE(fd >= 0);
    std::string pipelined;
    for (int i = 0; i < 2000; ++i)
        pipelined += "GET /v1/prices HTTP/1.1\r\nHost: x\r\n\r\n";
    CHECK(send(fd, pipelined.data(), pipelined.size(), MSG_DONTWAIT | MSG_NOSIGNAL) > 0);
    frozen_backends frozen(db, "lowcostgpu_reader");
    REQUIRE(frozen.size() >= 1);
    std::this_thread::sleep_for(std::chrono::seconds(1));
    auto const started = std::chrono::steady_clock::now();
    auto const code = server.terminate_within(std::chrono::seconds(20));
    auto const took = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    close(fd);
    CAPTURE(took);
    CAPTURE(server.output());
    REQUIRE(code);
    CHECK(*code == 0);
    CHECK(took < 11.0);
    CHECK(server.output().find("\"event\":\"stop_forced\"") != std::string::npos);
}
