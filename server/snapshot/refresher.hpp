#pragma once

#include "server/snapshot/snapshot.hpp"

#include <atomic>
#include <chrono>
#include <iostream>
#include <string>
#include <thread>

namespace lcg::ops {
class metrics;
}

namespace lcg::snapshot {

// Keeps `holder` current from PostgreSQL on a thread of its own, so no request ever waits on the
// database: loads at start, again on every NOTIFY lowcostgpu_changed, and on a slow poll as a
// fallback (which also moves the current sheet on when a new week begins). What it reads is
// rebuilt only when it differs from what the snapshot was built from, or a sheet has come into
// effect or ended since: a poll or a notification that changes nothing costs a read, not a render
// of every document (nor the memory of one). On a database failure
// the last good snapshot keeps serving while it reconnects with backoff.
class refresher {
public:
    // Its log lines (JSON, one per event) go to `log`: standard error when standard output carries
    // a protocol (`lowcostgpu mcp`).
    // `self` is what every snapshot says of this instance. Reloads and database errors are counted
    // in `metrics` (null: a command that shows no counters).
    refresher(std::string database_url, holder& target, std::chrono::seconds poll_interval,
              std::ostream& log = std::cout, instance_facts self = {}, ops::metrics* metrics = nullptr);
    ~refresher();

    void start();
    void stop();

private:
    void loop();
    void log_event(std::string_view event, std::string_view detail);

    std::string database_url_;
    holder& target_;
    std::chrono::seconds poll_interval_;
    std::ostream& log_;
    instance_facts self_;
    ops::metrics* metrics_;
    std::atomic<bool> stopping_{false};
    std::thread thread_;
};

// Loads one snapshot now (for commands that need it once).
std::shared_ptr<const snapshot> load_once(std::string const& database_url, instance_facts const& self = {});

}
