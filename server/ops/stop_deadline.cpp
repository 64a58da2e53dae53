#include "server/ops/stop_deadline.hpp"

#include <boost/json.hpp>

#include <cstdlib>

namespace lcg::ops {

stop_deadline::stop_deadline(std::chrono::milliseconds grace, std::string waiting_for, log_writer& log)
{
    watch_ = std::thread([this, grace, what = std::move(waiting_for), &log] {
        std::unique_lock lock(mutex_);
        if (disarmed_.wait_for(lock, grace, [this] { return done_; }))
            return;
        boost::json::object line{{"event", "stop_forced"},
                                 {"detail", what + " did not end within " + std::to_string(grace.count()) +
                                                " ms of the stop: exiting without waiting for it"}};
        log.write(boost::json::serialize(line) + "\n");
        log.drain(log_writer::drain_on_exit);
        std::_Exit(0);
    });
}

stop_deadline::~stop_deadline()
{
    {
        std::lock_guard lock(mutex_);
        done_ = true;
    }
    disarmed_.notify_one();
    watch_.join();
}

}
