#include "server/mirror/follower.hpp"

#include "server/ops/metrics.hpp"

#include <boost/json.hpp>

#include <algorithm>

namespace lcg::mirror {

namespace {

using namespace std::chrono;

pricing::instant now_seconds() { return time_point_cast<seconds>(system_clock::now()); }

std::string summary(snapshot::snapshot const& s)
{
    return std::to_string(s.sheets.size()) + " sheet(s), in effect: " +
           (s.current ? pricing::to_string(s.current->week) : std::string("none"));
}

}

follower::follower(upstream& source, snapshot::holder& target, seconds interval, std::ostream& log, ops::metrics* metrics)
    : source_(source), target_(target), interval_(interval), metrics_(metrics), log_(log)
{
}

follower::~follower() { stop(); }

void follower::log_event(std::string_view event, std::string_view detail)
{
    boost::json::object line{{"event", event}, {"upstream", source_.url()}, {"detail", detail}};
    log_ << boost::json::serialize(line) << std::endl;
}

bool follower::follow_once()
{
    auto status = std::make_shared<snapshot::upstream_status>();
    status->url = source_.url();
    status->checked_at = now_seconds();
    if (auto const before = target_.upstream())
        status->accepted_at = before->accepted_at;
    bool accepted = false;
    std::string const kept = target_.get() ? "; keeping the last good snapshot" : "; not ready until one is accepted";
    try {
        auto next = source_.refresh(target_.get().get(), status->checked_at);
        status->accepted_at = status->checked_at;
        // The status first: a reader who sees the new snapshot also sees that it was accepted.
        target_.set_upstream(status);
        target_.set(next.snapshot);
        if (metrics_)
            metrics_->record_snapshot_reload();
        if (next.changed)
            log_event("upstream_accepted", summary(*next.snapshot));
        accepted = true;
    } catch (client::fetch_error const& e) {
        status->refused = true;
        status->detail = std::string("cannot read the upstream: ") + e.what();
        log_event("upstream_unreachable", status->detail + kept);
    } catch (std::exception const& e) {
        status->refused = true;
        status->detail = e.what();
        log_event("upstream_refused", status->detail + kept);
    }
    if (!accepted)
        target_.set_upstream(std::move(status));
    return accepted;
}

void follower::start() { thread_ = std::thread([this] { loop(); }); }

void follower::stop()
{
    stopping_ = true;
    if (thread_.joinable())
        thread_.join();
}

void follower::loop()
{
    // Until a first state is accepted, try again soon; afterwards, every interval.
    auto retry = duration_cast<milliseconds>(seconds(1));
    while (!stopping_) {
        bool const accepted = follow_once();
        bool const serving = target_.get() != nullptr;
        auto const wait = serving ? duration_cast<milliseconds>(interval_) : std::min(retry, duration_cast<milliseconds>(interval_));
        if (!accepted && !serving)
            retry = std::min(retry * 2, duration_cast<milliseconds>(interval_));
        // Short waits keep stop() prompt.
        for (auto waited = milliseconds(0); waited < wait && !stopping_; waited += milliseconds(50))
            std::this_thread::sleep_for(milliseconds(50));
    }
}

}
