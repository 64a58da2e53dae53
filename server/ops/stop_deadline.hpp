#pragma once

#include "server/ops/log_writer.hpp"

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace lcg::ops {

// Once the server has stopped answering, what runs behind it (the snapshot refresher, a mirror's
// follower, the archive's readers) is given `grace` to end. A thread blocked on a PostgreSQL or an
// upstream that no longer answers would otherwise hold the process after SIGTERM forever (issue
// 29): past the grace the process logs what it was waiting for and exits with 0. It only ever read,
// so nothing is lost. Armed on construction, disarmed by destruction.
class stop_deadline {
public:
    stop_deadline(std::chrono::milliseconds grace, std::string waiting_for, log_writer& log);
    ~stop_deadline();
    stop_deadline(stop_deadline const&) = delete;
    stop_deadline& operator=(stop_deadline const&) = delete;

private:
    std::mutex mutex_;
    std::condition_variable disarmed_;
    bool done_ = false;
    std::thread watch_;
};

}
