#pragma once

#include "server/archive/archive.hpp"
#include "server/http/mcp_access.hpp"
#include "server/http/stored_answers.hpp"
#include "server/ops/metrics.hpp"
#include "server/ops/rate_limiter.hpp"
#include "server/snapshot/snapshot.hpp"

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace lcg::http {

// Descriptors each server thread may hold besides its connections: its event loop's, and the
// memory files of its stored answers.
inline constexpr std::size_t descriptors_per_thread = 4 + stored_answers::max_files + stored_answers::max_lasting_files;

struct server_options {
    std::string address = "127.0.0.1";
    unsigned short port = 8080;  // 0 picks a free port; see server::port()
    int threads = 1;
    std::chrono::seconds header_timeout{10};
    std::chrono::seconds idle_timeout{60};
    std::chrono::seconds drain_timeout{10};  // how long SIGTERM waits for in-flight requests
    // From SIGTERM (or SIGINT) to the process's exit, whatever a request, the database or an
    // upstream is doing: past it the process logs stop_forced and exits 0 (ops::stop_deadline).
    std::chrono::milliseconds stop_limit{10'000};
    std::size_t header_limit = 8 * 1024;    // larger header blocks get 431
    std::size_t target_limit = 4 * 1024;    // longer request targets get 414
    std::size_t body_limit = 1024 * 1024;   // larger bodies get 413
    // Request bodies being received at once, all connections together (a chunked body counts as
    // body_limit): beyond, another body is refused with 503 from its headers, before any is read.
    std::size_t body_budget = 32 * 1024 * 1024;
    // Of which one client (as the rate limit names it) may hold at most this much; 0: a quarter.
    std::size_t body_budget_per_address = 0;
    // Beyond, new connections get 503 and are closed. Each needs a descriptor: the process's limit
    // on open files is the caller's to raise (lowcostgpu serve raises it, and lowers this to fit).
    std::size_t max_connections = 10'000;
    // Past this share of max_connections, each new connection closes the connection of its event
    // loop that has waited longest for a request: idle clients cannot keep new ones (and the
    // probes) out.
    std::size_t crowded_percent = 80;
    // Connections one address may hold at once (a trusted proxy's are not counted): beyond, its new
    // ones get 503, so one client cannot take every slot from the others and the probes. 0: a
    // sixteenth of max_connections, at least 8.
    std::size_t max_connections_per_address = 0;
    std::optional<ops::rate_limit_options> rate_limit;  // none: no rate limiting
    std::vector<std::string> trusted_proxies;  // peers whose X-Forwarded-For is believed
    int log_every = 1;                         // one JSON log line per this many requests; 0: none
    std::chrono::seconds max_snapshot_age{300};  // /readyz is 503 beyond it
    std::shared_ptr<const mcp_access> mcp_policy{};  // who may POST /mcp; null: localhost only
    // The sheets' inputs (null: none, they are 503). Stop it after run() returns, before the server
    // is destroyed: its last answers go back to the workers' event loops.
    archive::archive* archive = nullptr;
};

// The Beast server: accepts connections and answers each request through http::handle with the
// snapshot in force at that moment. SIGINT and SIGTERM stop accepting, let in-flight requests
// finish (up to drain_timeout) and make run() return.
class server {
public:
    // Its counters go to `metrics`, which /metrics shows and which must outlive it.
    server(server_options options, snapshot::holder const& snapshots, ops::metrics& metrics);
    ~server();

    unsigned short port() const;  // the bound port, known after construction
    void run();                   // blocks on the calling thread plus options.threads - 1 others
    void stop();                  // as if SIGTERM had arrived; safe from any thread

private:
    struct impl;
    std::unique_ptr<impl> impl_;
};

}
