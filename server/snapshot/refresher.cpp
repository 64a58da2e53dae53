#include "server/snapshot/refresher.hpp"

#include "server/ops/metrics.hpp"
#include "server/store/database.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <iostream>

#include <malloc.h>

namespace lcg::snapshot {

namespace {

using namespace std::chrono;

pricing::instant now_seconds() { return time_point_cast<seconds>(system_clock::now()); }

std::shared_ptr<const snapshot> load_from(store::database& db, snapshot const* previous, pricing::key_ring const& keys)
{
    auto catalog = db.load_catalog();
    auto sheets = db.load_sheets();
    return build(std::move(catalog), std::move(sheets), previous, now_seconds(), keys);
}

// Swaps in a new snapshot. What is free then (the build's working memory, the old snapshot unless a
// request still holds it) goes back to the system: a publication costs the new sheet's memory.
void replace_snapshot(holder& target, std::shared_ptr<const snapshot> next)
{
    target.set(std::move(next));
    malloc_trim(0);
}

}

std::shared_ptr<const snapshot> load_once(std::string const& database_url, pricing::key_ring const& keys)
{
    store::database db(database_url);
    return load_from(db, nullptr, keys);
}

refresher::refresher(std::string database_url, holder& target, std::chrono::seconds poll_interval, std::ostream& log,
                     pricing::key_ring keys)
    : database_url_(std::move(database_url)), target_(target), poll_interval_(poll_interval), log_(log),
      keys_(std::move(keys))
{
}

void refresher::log_event(std::string_view event, std::string_view detail)
{
    boost::json::object line{{"event", event}, {"detail", detail}};
    log_ << boost::json::serialize(line) << std::endl;
}

refresher::~refresher() { stop(); }

void refresher::start() { thread_ = std::thread([this] { loop(); }); }

void refresher::stop()
{
    stopping_ = true;
    if (thread_.joinable())
        thread_.join();
}

void refresher::loop()
{
    // How often an idle connection is asked a trivial question, so /readyz knows the database
    // answers even when nothing changes for a long time (any --ready-max-age of 1 s or more).
    constexpr auto check_interval = milliseconds(500);
    // No privilege guards NOTIFY, so any role, the reader included, can send lowcostgpu_changed as
    // fast as it likes: notifications rebuild at most once a second each (the next one waits), which
    // still shows a real publish within a second.
    constexpr auto min_reload_spacing = seconds(1);
    bool notified = false;
    auto backoff = milliseconds(250);
    std::unique_ptr<store::database> db;
    auto last_load = steady_clock::now();
    auto last_check = steady_clock::now();
    auto const answered = [&] {
        last_check = steady_clock::now();
        target_.mark_checked(now_seconds());
    };
    while (!stopping_) {
        try {
            if (!db) {
                db = std::make_unique<store::database>(database_url_);
                if (!db->listen_for_changes())
                    log_event("listen_unavailable", "this server cannot LISTEN (a standby?): polling only");
                replace_snapshot(target_, load_from(*db, target_.get().get(), keys_));
                ops::metrics::instance().record_snapshot_reload();
                last_load = steady_clock::now();
                answered();
                backoff = milliseconds(250);
                log_event("snapshot_loaded", "connected");
            }
            // Short waits keep stop() prompt; a notification or the poll interval triggers a reload.
            notified = db->wait_for_change(milliseconds(250)) || notified;
            auto const since_load = steady_clock::now() - last_load;
            if ((notified && since_load >= min_reload_spacing) || since_load >= poll_interval_) {
                bool const changed = notified;
                notified = false;
                replace_snapshot(target_, load_from(*db, target_.get().get(), keys_));
                ops::metrics::instance().record_snapshot_reload();
                last_load = steady_clock::now();
                answered();
                if (changed)
                    log_event("snapshot_loaded", "change notified");
            } else if (steady_clock::now() - last_check >= check_interval) {
                db->check();
                answered();
            }
        } catch (std::exception const& e) {
            db.reset();
            ops::metrics::instance().record_database_error();
            log_event("database_error", e.what());
            for (auto waited = milliseconds(0); waited < backoff && !stopping_; waited += milliseconds(50))
                std::this_thread::sleep_for(milliseconds(50));
            backoff = std::min(backoff * 2, milliseconds(seconds(10)));
        }
    }
}

}
