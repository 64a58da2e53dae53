#pragma once

#include "server/mirror/upstream.hpp"
#include "server/snapshot/snapshot.hpp"

#include <atomic>
#include <chrono>
#include <iostream>
#include <string_view>
#include <thread>

namespace lcg::ops {
class metrics;
}

namespace lcg::mirror {

// Keeps `target` following an upstream on a thread of its own, as the refresher does from
// PostgreSQL, so no request waits on the network: asks every `interval` (sooner, with backoff,
// while no state was ever accepted). A state that cannot be fetched or fails a check is refused:
// the last good snapshot keeps serving, and the refusal goes to the log (one JSON line) and to
// target.upstream(), which /readyz shows.
class follower {
public:
    // Reloads are counted in `metrics` (null: a command that shows no counters).
    follower(upstream& source, snapshot::holder& target, std::chrono::seconds interval, std::ostream& log = std::cout,
             ops::metrics* metrics = nullptr);
    ~follower();

    // One attempt now, on the calling thread: true when the upstream's state was accepted.
    bool follow_once();
    void start();
    void stop();

private:
    void loop();
    void log_event(std::string_view event, std::string_view detail);

    upstream& source_;
    snapshot::holder& target_;
    std::chrono::seconds interval_;
    ops::metrics* metrics_;
    std::ostream& log_;
    std::atomic<bool> stopping_{false};
    std::thread thread_;
};

}
