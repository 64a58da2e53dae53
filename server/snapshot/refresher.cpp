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

// What a snapshot is built from, as read from the database.
struct inputs {
    pricing::catalog catalog;
    std::vector<pricing::price_sheet> sheets;
    std::optional<pricing::signed_catalog> signed_catalog;
    std::vector<tlog::logged_version> log;
    std::string checkpoint;
};

// Whether `read` is what `built` was built from: a snapshot keeps its inputs as read.
bool built_from(snapshot const& built, inputs const& read)
{
    return built.catalog == read.catalog && built.sheets == read.sheets && built.signed_catalog == read.signed_catalog &&
           built.log->entries == read.log && built.log->checkpoint == read.checkpoint;
}

inputs read_inputs(store::database& db)
{
    auto log = db.load_log();
    return {db.load_catalog(), db.load_sheets(), db.load_signed_catalog(), std::move(log.entries),
            std::move(log.checkpoint)};
}

std::shared_ptr<const snapshot> build_from(inputs given, snapshot const* previous, pricing::instant now,
                                           instance_facts const& self)
{
    return build(std::move(given.catalog), std::move(given.sheets), previous, now, self, std::move(given.signed_catalog),
                 make_log(std::move(given.log), std::move(given.checkpoint)));
}

// Whether time alone changes a snapshot built at `built` from `sheets` by `now`: a sheet comes
// into effect (the current sheet moves on) or ends (it becomes immutable).
bool time_changes(std::vector<pricing::price_sheet> const& sheets, pricing::instant built, pricing::instant now)
{
    auto const passed = [&](pricing::instant t) { return built < t && t <= now; };
    return std::any_of(sheets.begin(), sheets.end(),
                       [&](auto const& s) { return passed(s.effective_from) || passed(s.effective_until); });
}

// Swaps in a new snapshot. What is free then (the build's working memory, the old snapshot unless a
// request still holds it) goes back to the system: a publication costs the new sheet's memory.
void replace_snapshot(holder& target, std::shared_ptr<const snapshot> next)
{
    target.set(std::move(next));
    malloc_trim(0);
}

}

// The serving process's own bounds on its reads. The reader role's statement_timeout (migration
// 001) is only a default, which anyone with the reader's password may lift for the role: the
// server sets its own for each session.
constexpr store::connection_limits reader_limits{std::chrono::seconds(5), std::chrono::seconds(10)};

std::shared_ptr<const snapshot> load_once(std::string const& database_url, instance_facts const& self)
{
    store::database db(database_url, reader_limits);
    return build_from(read_inputs(db), nullptr, now_seconds(), self);
}

refresher::refresher(std::string database_url, holder& target, std::chrono::seconds poll_interval, std::ostream& log,
                     instance_facts self, ops::metrics* metrics)
    : database_url_(std::move(database_url)), target_(target), poll_interval_(poll_interval), log_(log),
      self_(std::move(self)), metrics_(metrics)
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
    // answers even when nothing changes for a long time (any --ready-max-age of 1 s or more). Every
    // wait of the loop below: /readyz counts whole seconds, so with a limit of 1 s a check may come
    // late by three quarters of a second (a loaded machine) before readiness flaps.
    constexpr auto check_interval = milliseconds(250);
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
    // A poll that reads what the snapshot in force was built from, with no sheet coming into
    // effect or ending since, keeps the snapshot: rebuilding would render every document again
    // (years of sheets) for the same bytes.
    // Says what it did, for the log: "rebuilt in 85 ms" or "unchanged".
    auto const reload = [&]() -> std::string {
        auto const started = steady_clock::now();
        auto read = read_inputs(*db);
        auto const now = now_seconds();
        auto const current = target_.get();
        last_load = steady_clock::now();
        answered();
        if (current && built_from(*current, read) && !time_changes(read.sheets, current->built_at, now))
            return "unchanged";
        auto next = build_from(std::move(read), current.get(), now, self_);
        // Rendering every document may take longer than a short --ready-max-age on a loaded
        // machine: the database is asked again before the new snapshot is served, so /readyz
        // measures the database, not the build.
        db->check();
        answered();
        // Counted before it is served: whoever sees the new snapshot also sees it counted.
        if (metrics_)
            metrics_->record_snapshot_reload();
        replace_snapshot(target_, std::move(next));
        return "rebuilt in " + std::to_string(duration_cast<milliseconds>(steady_clock::now() - started).count()) + " ms";
    };
    while (!stopping_) {
        try {
            if (!db) {
                db = std::make_unique<store::database>(database_url_, reader_limits);
                if (!db->listen_for_changes())
                    log_event("listen_unavailable", "this server cannot LISTEN (a standby?): polling only");
                auto const done = reload();
                backoff = milliseconds(250);
                log_event("snapshot_loaded", "connected: " + done);
            }
            // Short waits keep stop() prompt; a notification or the poll interval triggers a reload.
            notified = db->wait_for_change(milliseconds(250)) || notified;
            auto const since_load = steady_clock::now() - last_load;
            if ((notified && since_load >= min_reload_spacing) || since_load >= poll_interval_) {
                bool const changed = notified;
                notified = false;
                auto const done = reload();
                if (changed)
                    log_event("snapshot_loaded", "change notified: " + done);
            } else if (steady_clock::now() - last_check >= check_interval) {
                db->check();
                answered();
            }
        } catch (std::exception const& e) {
            db.reset();
            if (metrics_)
                metrics_->record_database_error();
            log_event("database_error", e.what());
            for (auto waited = milliseconds(0); waited < backoff && !stopping_; waited += milliseconds(50))
                std::this_thread::sleep_for(milliseconds(50));
            backoff = std::min(backoff * 2, milliseconds(seconds(10)));
        }
    }
}

}
