#include "server/archive/archive.hpp"

#include "server/ops/metrics.hpp"
#include "server/store/database.hpp"
#include "server/store/digest.hpp"

#include "render/json.hpp"
#include "render/views.hpp"

#include <algorithm>

#include <malloc.h>

namespace lcg::archive {

namespace {

using clock = std::chrono::steady_clock;

// Compressing tens of megabytes at the best level would cost seconds on a cold read: a document
// larger than this is sent as it is (a CDN in front compresses it once, an immutable week for good).
constexpr std::size_t max_compressed_size = 1024 * 1024;
// Reads larger than this close their database connection afterwards (see database_readers).
constexpr std::size_t large_read = 4 * 1024 * 1024;

// Only the pages have prose: the CSV and the JSON are the same in every language.
bool written_in(render::format f) { return f == render::format::markdown || f == render::format::html; }

std::string document_key(pricing::price_sheet const& sheet, render::format f, render::language l = render::language::en)
{
    return pricing::to_string(sheet.week) + '|' + sheet.inputs_sha256 + '|' +
           std::to_string(sheet.published_at.time_since_epoch().count()) + '|' + std::string(render::media_type(f)) +
           (written_in(f) ? "|" + std::string(glossary::to_string(l)) : "");
}

std::string observations_path(pricing::price_sheet const& sheet)
{
    return "/v1/sheets/" + pricing::to_string(sheet.week) + "/observations";
}

pricing::error unavailable(pricing::price_sheet const& sheet, std::string_view why)
{
    return {pricing::errc::unavailable, "the inputs of " + pricing::to_string(sheet.week) +
                                            " cannot be read now (" + std::string(why) + "); retry shortly"};
}

// A document of the archive. Its validator is that of its bytes, as for every snapshot document;
// the canonical CSV's is the sheet's inputs_sha256, which is the SHA-256 of those bytes.
std::shared_ptr<const snapshot::document> make_archive_document(pricing::price_sheet const& sheet, render::format f,
                                                                std::string body)
{
    std::string content_type(render::content_type(f));
    body.shrink_to_fit();  // a rendered body grew by doubling: up to twice its size is held otherwise
    if (body.size() <= max_compressed_size)
        return snapshot::make_document(std::move(content_type), std::move(body), false, sheet.published_at);
    std::string const digest = f == render::format::csv ? sheet.inputs_sha256 : store::sha256_hex(body);
    std::string const tag = digest.substr(0, 32);
    return std::make_shared<const snapshot::document>(snapshot::document{
        std::move(content_type), std::move(body), "\"" + tag + "\"", false, sheet.published_at, {}, "\"" + tag + "-gz\""});
}

// A document rendered from the canonical CSV.
std::string render_inputs(pricing::price_sheet const& sheet, render::format f, render::language l, std::string_view csv)
{
    auto const inputs = pricing::parse_observations_csv(csv, [](std::string_view) { return true; });
    if (f == render::format::json)
        return render::observations_text(sheet, inputs.observations);
    render::page const where{observations_path(sheet), render::language_query("", l), render::table_formats, l};
    return render::write(f, render::observations_view, render::observations_summary_json(sheet, inputs.observations),
                         where);
}

}

archive::archive(options o, reader_factory make_reader) : options_(o)
{
    for (int i = 0; i < std::max(1, options_.threads); ++i)
        threads_.emplace_back([this, make_reader] { work(make_reader()); });
    watcher_ = std::thread([this] { watch(); });
}

archive::~archive() { stop(); }

void archive::stop()
{
    {
        std::lock_guard lock(mutex_);
        if (stopping_ && threads_.empty())
            return;
        stopping_ = true;
    }
    work_ready_.notify_all();
    deadlines_changed_.notify_all();
    for (auto& t : threads_)
        t.join();
    threads_.clear();
    if (watcher_.joinable())
        watcher_.join();
    std::vector<std::pair<pricing::price_sheet, waiter>> left;
    {
        std::lock_guard lock(mutex_);
        for (auto& [key, j] : pending_)
            for (auto& w : j.waiters)
                left.emplace_back(j.sheet, std::move(w));
        pending_.clear();
        queue_.clear();
        waiting_ = 0;
    }
    for (auto& [sheet, w] : left)
        w.done(unavailable(sheet, "the server is stopping"));
}

std::shared_ptr<const snapshot::document> archive::recall(std::string const& key)
{
    auto it = cache_.find(key);
    if (it == cache_.end())
        return nullptr;
    order_.splice(order_.begin(), order_, it->second.in_order);
    return it->second.doc;
}

std::shared_ptr<const snapshot::document> archive::cached(pricing::price_sheet const& sheet, render::format f,
                                                         render::language l)
{
    std::lock_guard lock(mutex_);
    auto doc = recall(document_key(sheet, f, l));
    ++(doc ? figures_.hits : figures_.misses);
    return doc;
}

void archive::remember(std::string const& key, std::shared_ptr<const snapshot::document> const& doc)
{
    std::size_t const size = doc->body.size() + doc->gzip_body.size();
    if (size > options_.cache_bytes || cache_.contains(key))
        return;  // served once and let go: it would push everything else out
    while (cached_bytes_ + size > options_.cache_bytes && !order_.empty()) {
        auto const oldest = cache_.find(order_.back());
        cached_bytes_ -= oldest->second.doc->body.size() + oldest->second.doc->gzip_body.size();
        cache_.erase(oldest);
        order_.pop_back();
    }
    order_.push_front(key);
    cache_.emplace(key, entry{doc, order_.begin()});
    cached_bytes_ += size;
}

void archive::fetch(pricing::price_sheet const& sheet, render::format f, render::language l, completion done)
{
    std::string const key = document_key(sheet, f, l);
    std::shared_ptr<const snapshot::document> doc;
    std::string refused;
    {
        std::lock_guard lock(mutex_);
        auto const now = clock::now();
        doc = recall(key);
        if (doc)
            ;  // cached since the caller looked
        else if (stopping_)
            refused = "the server is stopping";
        else if (now < failing_until_ && !pending_.contains(key))
            refused = "the archive did not answer a moment ago";
        else if (waiting_ >= options_.max_waiting)
            refused = "too many reads are waiting";
        if (!doc && refused.empty()) {
            auto [it, added] = pending_.try_emplace(key, job{sheet, f, l, {}});
            it->second.waiters.push_back({std::move(done), now + options_.timeout});
            ++waiting_;
            if (added)
                queue_.push_back(key);
        }
    }
    if (doc)
        return done(doc);
    if (!refused.empty())
        return done(unavailable(sheet, refused));
    work_ready_.notify_one();
    deadlines_changed_.notify_one();
}

std::vector<archive::waiter> archive::take_waiters(std::string const& key)
{
    auto it = pending_.find(key);
    if (it == pending_.end())
        return {};
    auto out = std::move(it->second.waiters);
    waiting_ -= out.size();
    pending_.erase(it);
    return out;
}

void archive::work(reader read)
{
    std::unique_lock lock(mutex_);
    while (true) {
        work_ready_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
        if (stopping_)
            return;
        std::string const key = queue_.front();
        queue_.pop_front();
        auto const& j = pending_.at(key);
        pricing::price_sheet const sheet = j.sheet;
        render::format const f = j.format;
        render::language const l = j.lang;
        lock.unlock();
        result r = produce(read, sheet, f, l);
        // A read and its rendering take several times a document's size for a moment (the driver's
        // copy, the parsed observations): give it back to the system rather than keep it.
        malloc_trim(0);
        lock.lock();
        if (r)
            remember(key, *r);
        else if (r.err().code == pricing::errc::unavailable) {
            ++figures_.failed_reads;
            failing_until_ = clock::now() + options_.retry_after_failure;
        }
        auto waiters = take_waiters(key);
        lock.unlock();
        for (auto& w : waiters)
            w.done(r);
        lock.lock();
    }
}

result archive::produce(reader const& read, pricing::price_sheet const& sheet, render::format f, render::language l)
{
    try {
        std::shared_ptr<const snapshot::document> csv;
        {
            std::lock_guard lock(mutex_);
            csv = recall(document_key(sheet, render::format::csv));
            if (!csv)
                ++figures_.reads;
        }
        if (!csv) {
            std::string text = read(sheet);
            if (text.empty())
                return pricing::error{pricing::errc::not_found,
                                      "no inputs are stored for the sheet " + pricing::to_string(sheet.week) +
                                          " as published at " + pricing::to_rfc3339(sheet.published_at)};
            csv = make_archive_document(sheet, render::format::csv, std::move(text));
            if (f != render::format::csv) {
                std::lock_guard lock(mutex_);
                remember(document_key(sheet, render::format::csv), csv);
            }
        }
        if (f == render::format::csv)
            return csv;
        return make_archive_document(sheet, f, render_inputs(sheet, f, l, csv->body));
    } catch (std::exception const& e) {
        ops::report_caught_exception("archive", "reading the inputs of " + pricing::to_string(sheet.week) + ": " + e.what());
        return unavailable(sheet, "the archive could not be read");
    }
}

void archive::watch()
{
    std::unique_lock lock(mutex_);
    while (!stopping_) {
        auto next = clock::time_point::max();
        for (auto const& [key, j] : pending_)
            for (auto const& w : j.waiters)
                next = std::min(next, w.deadline);
        if (next == clock::time_point::max())
            deadlines_changed_.wait(lock);
        else
            deadlines_changed_.wait_until(lock, next);
        auto const now = clock::now();
        std::vector<std::pair<pricing::price_sheet, waiter>> expired;
        for (auto& [key, j] : pending_) {
            auto late = std::stable_partition(j.waiters.begin(), j.waiters.end(),
                                              [&](waiter const& w) { return w.deadline > now; });
            for (auto it = late; it != j.waiters.end(); ++it)
                expired.emplace_back(j.sheet, std::move(*it));
            j.waiters.erase(late, j.waiters.end());
        }
        if (expired.empty())
            continue;
        waiting_ -= expired.size();
        lock.unlock();
        for (auto& [sheet, w] : expired)
            w.done(unavailable(sheet, "the archive did not answer in time"));
        lock.lock();
    }
}

archive::figures archive::measure() const
{
    std::lock_guard lock(mutex_);
    figures f = figures_;
    f.cached_bytes = cached_bytes_;
    f.cached_documents = cache_.size();
    return f;
}

reader_factory database_readers(std::string database_url, std::chrono::milliseconds timeout)
{
    return [database_url, timeout]() -> reader {
        auto db = std::make_shared<std::unique_ptr<store::database>>();
        return [database_url, timeout, db](pricing::price_sheet const& sheet) {
            try {
                if (!*db)
                    *db = std::make_unique<store::database>(database_url, store::connection_limits{timeout, timeout});
                std::string csv = (*db)->load_sheet_inputs(sheet.week, sheet.inputs_sha256);
                // libpq keeps its input buffer as large as the largest answer it received: a
                // connection that read a big week is closed, so that memory goes with it.
                if (csv.size() > large_read)
                    db->reset();
                return csv;
            } catch (...) {
                db->reset();  // a new connection next time
                throw;
            }
        };
    };
}

}
