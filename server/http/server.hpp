#pragma once

#include "server/snapshot/snapshot.hpp"

#include <chrono>
#include <functional>
#include <memory>
#include <string>

namespace lcg::http {

struct server_options {
    std::string address = "127.0.0.1";
    unsigned short port = 8080;  // 0 picks a free port; see server::port()
    int threads = 1;
    std::chrono::seconds header_timeout{10};
    std::chrono::seconds idle_timeout{60};
    std::chrono::seconds drain_timeout{10};  // how long SIGTERM waits for in-flight requests
    std::size_t header_limit = 8 * 1024;
    std::size_t body_limit = 1024 * 1024;
};

// The Beast server: accepts connections and answers each request through http::handle with the
// snapshot in force at that moment. SIGINT and SIGTERM stop accepting, let in-flight requests
// finish (up to drain_timeout) and make run() return.
class server {
public:
    server(server_options options, snapshot::holder const& snapshots);
    ~server();

    unsigned short port() const;  // the bound port, known after construction
    void run();                   // blocks on the calling thread plus options.threads - 1 others
    void stop();                  // as if SIGTERM had arrived; safe from any thread

private:
    struct impl;
    std::unique_ptr<impl> impl_;
};

}
