#include "server/archive/archive.hpp"

#include "server/ops/metrics.hpp"
#include "server/store/database.hpp"
#include "server/digest/digest.hpp"

#include "render/json.hpp"
#include "render/views.hpp"

#include <algorithm>

#include <malloc.h>

namespace lcg::archive {

namespace {

using clock = std::chrono::steady_clock;

// What is cached is keyed by the publication, so a republished week is read again.
std::string publication_key(pricing::price_sheet const& sheet)
{
    return pricing::to_string(sheet.week) + '|' + sheet.inputs_sha256 + '|' +
           std::to_string(sheet.published_at.time_since_epoch().count());
}

std::string layout_key(pricing::price_sheet const& sheet) { return publication_key(sheet) + "|layout"; }

std::string part_key(pricing::price_sheet const& sheet, render::format f, std::size_t seq)
{
    return publication_key(sheet) + '|' + std::string(render::media_type(f)) + '|' + std::to_string(seq);
}

std::string page_key(pricing::price_sheet const& sheet, render::format f, render::language l)
{
    return publication_key(sheet) + '|' + std::string(render::media_type(f)) + '|' + std::string(glossary::to_string(l));
}

std::string raw_list_key(pricing::price_sheet const& sheet) { return publication_key(sheet) + "|sources"; }

std::string raw_page_key(pricing::price_sheet const& sheet, render::format f, render::language l)
{
    return raw_list_key(sheet) + '|' + std::string(render::media_type(f)) + '|' + std::string(glossary::to_string(l));
}

std::string raw_file_key(pricing::price_sheet const& sheet, std::string const& sha256)
{
    return raw_list_key(sheet) + "|file|" + sha256;
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

pricing::error nothing_stored(pricing::price_sheet const& sheet)
{
    return {pricing::errc::not_found, "no inputs are stored for the sheet " + pricing::to_string(sheet.week) +
                                          " as published at " + pricing::to_rfc3339(sheet.published_at)};
}

// The part after the last: the end of a stream.
std::shared_ptr<const std::string> const& end_of_stream()
{
    static auto const none = std::make_shared<const std::string>();
    return none;
}

// A page (Markdown, HTML) of a sheet's inputs: its summary per model, rendered.
std::shared_ptr<const snapshot::document> render_page_of(pricing::price_sheet const& sheet, render::format f,
                                                         render::language l, render::observations_summary const& summary)
{
    render::page const where{observations_path(sheet), render::language_query("", l), render::table_formats, l};
    return snapshot::make_document(std::string(render::content_type(f)),
                                   render::write(f, render::observations_view, summary.json(sheet), where), false,
                                   sheet.published_at);
}

// The observations of chunk `seq`, read with the header line (which only chunk 0 has).
pricing::parsed_observations rows_of(store::input_layout const& layout, std::size_t seq, std::string const& chunk)
{
    auto const known = [](std::string_view) { return true; };
    if (seq == 0)
        return pricing::parse_observations_csv(chunk, known);
    return pricing::parse_observations_csv(layout.header + '\n' + chunk, known);
}

}

archive::archive(options o, source_factory make_source) : options_(o)
{
    for (int i = 0; i < std::max(1, options_.threads); ++i)
        threads_.emplace_back([this, make_source] { work(make_source()); });
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
                left.emplace_back(j.what.sheet, std::move(w));
        pending_.clear();
        queue_.clear();
        waiting_ = 0;
    }
    for (auto& [sheet, w] : left)
        w.done(unavailable(sheet, "the server is stopping"));
}

archive::value archive::recall(std::string const& key)
{
    auto it = cache_.find(key);
    if (it == cache_.end())
        return nullptr;
    order_.splice(order_.begin(), order_, it->second.in_order);
    return it->second.item;
}

std::shared_ptr<const snapshot::document> archive::cached_document(std::string const& key)
{
    std::lock_guard lock(mutex_);
    auto page = std::static_pointer_cast<const snapshot::document>(recall(key));
    ++(page ? figures_.hits : figures_.misses);
    return page;
}

std::shared_ptr<const snapshot::document> archive::cached(pricing::price_sheet const& sheet, render::format f,
                                                         render::language l)
{
    return cached_document(page_key(sheet, f, l));
}

std::shared_ptr<const snapshot::document> archive::cached_raw_inputs(pricing::price_sheet const& sheet,
                                                                    render::format f, render::language l)
{
    return cached_document(raw_page_key(sheet, f, l));
}

std::shared_ptr<const snapshot::document> archive::cached_raw_file(pricing::price_sheet const& sheet,
                                                                  std::string const& sha256)
{
    return cached_document(raw_file_key(sheet, sha256));
}

namespace {

// Bytes counted in a budget for as long as this lives.
class held_bytes {
public:
    held_bytes(std::shared_ptr<std::atomic<std::size_t>> counter, std::size_t n) : counter_(std::move(counter)), n_(n)
    {
        counter_->fetch_add(n_, std::memory_order_relaxed);
    }
    held_bytes(held_bytes const&) = delete;
    held_bytes& operator=(held_bytes const&) = delete;
    ~held_bytes() { counter_->fetch_sub(n_, std::memory_order_relaxed); }

private:
    std::shared_ptr<std::atomic<std::size_t>> counter_;
    std::size_t n_;
};

// A part's bytes, counted in `streamed` while anyone holds them.
struct held_part {
    held_part(std::shared_ptr<const std::string> b, std::shared_ptr<std::atomic<std::size_t>> streamed)
        : bytes(std::move(b)), count(std::move(streamed), bytes->size())
    {
    }
    std::shared_ptr<const std::string> const bytes;
    held_bytes const count;
};

// What a stream being opened is counted for until its first part is in: streams opened at once
// are all counted before any has a part.
constexpr std::size_t opening_bytes = 3 * store::input_chunk_bytes;

}

std::shared_ptr<const std::string> archive::held(std::shared_ptr<const std::string> bytes) const
{
    if (!bytes || bytes->empty())
        return bytes;
    auto holder = std::make_shared<const held_part>(std::move(bytes), streamed_);
    return {holder, holder->bytes.get()};  // shares the holder's count: the bytes go with it
}

bool archive::streams_full() const
{
    return streamed_->load(std::memory_order_relaxed) >= options_.stream_bytes;
}

std::shared_ptr<stream> archive::open_cached(pricing::price_sheet const& sheet, render::format f)
{
    if (streams_full())
        return nullptr;  // open() refuses it
    std::lock_guard lock(mutex_);
    auto const layout = std::static_pointer_cast<const store::input_layout>(recall(layout_key(sheet)));
    auto const first = layout ? std::static_pointer_cast<const std::string>(recall(part_key(sheet, f, 0))) : nullptr;
    ++(first ? figures_.hits : figures_.misses);
    return first ? std::make_shared<stream>(*this, sheet, f, layout, first) : nullptr;
}

void archive::remember(std::string const& key, value const& item, std::size_t bytes)
{
    if (bytes > options_.cache_bytes || cache_.contains(key))
        return;  // served once and let go: it would push everything else out
    while (cached_bytes_ + bytes > options_.cache_bytes && !order_.empty()) {
        auto const oldest = cache_.find(order_.back());
        cached_bytes_ -= oldest->second.bytes;
        cache_.erase(oldest);
        order_.pop_back();
    }
    order_.push_front(key);
    cache_.emplace(key, entry{item, bytes, order_.begin()});
    cached_bytes_ += bytes;
}

void archive::obtain(std::string const& key, request const& what, value_completion done,
                     std::optional<clock::time_point> deadline)
{
    value found;
    std::string refused;
    {
        std::lock_guard lock(mutex_);
        auto const now = clock::now();
        found = recall(key);
        if (found)
            ;  // cached
        else if (stopping_)
            refused = "the server is stopping";
        else if (now < failing_until_ && !pending_.contains(key))
            refused = "the archive did not answer a moment ago";
        else if (waiting_ >= options_.max_waiting)
            refused = "too many reads are waiting";
        if (!found && refused.empty()) {
            auto [it, added] = pending_.try_emplace(key, job{what, {}});
            it->second.waiters.push_back({std::move(done), deadline.value_or(now + options_.timeout)});
            ++waiting_;
            if (added)
                queue_.push_back(key);
        }
    }
    if (found)
        return done(found);
    if (!refused.empty())
        return done(unavailable(what.sheet, refused));
    work_ready_.notify_one();
    deadlines_changed_.notify_one();
}

void archive::fetch_document(std::string const& key, request const& what, completion done)
{
    obtain(key, what, [done = std::move(done)](value_result r) {
        if (!r)
            return done(r.err());
        done(std::static_pointer_cast<const snapshot::document>(*r));
    });
}

void archive::fetch(pricing::price_sheet const& sheet, render::format f, render::language l, completion done)
{
    fetch_document(page_key(sheet, f, l), {task::page, sheet, f, l}, std::move(done));
}

void archive::fetch_raw_inputs(pricing::price_sheet const& sheet, render::format f, render::language l,
                               completion done)
{
    fetch_document(raw_page_key(sheet, f, l), {task::raw_page, sheet, f, l}, std::move(done));
}

void archive::fetch_raw_file(pricing::price_sheet const& sheet, std::string const& sha256, completion done)
{
    request what{task::raw_file, sheet};
    what.sha256 = sha256;
    fetch_document(raw_file_key(sheet, sha256), what, std::move(done));
}

// The layout, then the first part, both within one timeout: a client waits that long at most for
// its answer's head.
void archive::open(pricing::price_sheet const& sheet, render::format f, open_completion done)
{
    if (streams_full()) {
        {
            std::lock_guard lock(mutex_);
            ++figures_.refused_streams;
        }
        return done(unavailable(sheet, "too many weeks' inputs are being sent at once"));
    }
    auto const deadline = clock::now() + options_.timeout;
    auto const opening = std::make_shared<const held_bytes>(streamed_, opening_bytes);
    obtain(layout_key(sheet), {task::layout, sheet}, [this, sheet, f, deadline, opening, done = std::move(done)](value_result r) {
        if (!r)
            return done(r.err());
        auto layout = std::static_pointer_cast<const store::input_layout>(*r);
        read_part(sheet, f, layout, 0, [this, sheet, f, layout, opening, done](part first) {
            if (!first)
                return done(first.err());
            done(std::make_shared<stream>(*this, sheet, f, layout, *first));
        }, deadline);
    }, deadline);
}

void archive::read_part(pricing::price_sheet const& sheet, render::format f,
                        std::shared_ptr<const store::input_layout> const& layout, std::size_t seq, part_completion done,
                        std::optional<clock::time_point> deadline)
{
    if (seq >= layout->chunk_sizes.size())
        return done(end_of_stream());
    obtain(part_key(sheet, f, seq), {task::chunk_part, sheet, f, render::language::en, seq, layout},
           [done = std::move(done)](value_result r) {
               if (!r)
                   return done(r.err());
               done(std::static_pointer_cast<const std::string>(*r));
           }, deadline);
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

void archive::work(std::unique_ptr<source> from)
{
    std::unique_lock lock(mutex_);
    while (true) {
        work_ready_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
        if (stopping_)
            return;
        std::string const key = queue_.front();
        queue_.pop_front();
        if (pending_.at(key).waiters.empty()) {  // every waiter's deadline passed while it was queued
            pending_.erase(key);
            continue;
        }
        request const what = pending_.at(key).what;
        lock.unlock();
        value_result r = produce(*from, what);
        // A page's read gives back what its chunks took rather than keep it for the next.
        if (what.what == task::page)
            malloc_trim(0);
        lock.lock();
        if (r && !*r) {  // abandoned: no one waited; one who came since has it read again
            if (pending_.at(key).waiters.empty())
                pending_.erase(key);
            else
                queue_.push_back(key);
            continue;
        }
        if (r) {
            if (worth_keeping(what))
                remember(key, *r, size_of(what.what, *r));
        } else if (r.err().code == pricing::errc::unavailable) {
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

// A week whose CSV is larger than the whole budget is sent and let go, as any item over it: kept
// chunk by chunk it would push everything else out, and be read again all the same next time.
bool archive::worth_keeping(request const& what) const
{
    return what.what != task::chunk_part || what.layout->total_bytes() <= options_.cache_bytes;
}

// The bytes an item holds, as the cache's budget counts them.
std::size_t archive::size_of(task what, value const& item)
{
    switch (what) {
    case task::layout: {
        auto const& layout = *std::static_pointer_cast<const store::input_layout>(item);
        return sizeof layout + layout.header.size() + layout.chunk_sizes.size() * sizeof(std::size_t);
    }
    case task::chunk_part: return std::static_pointer_cast<const std::string>(item)->size();
    case task::page:
    case task::raw_page:
    case task::raw_file: {
        auto const& page = *std::static_pointer_cast<const snapshot::document>(item);
        return page.body.size() + page.gzip_body.size();
    }
    case task::raw_list: {
        std::size_t bytes = 0;
        for (auto const& f : *std::static_pointer_cast<const std::vector<pricing::raw_input>>(item))
            bytes += sizeof f + f.source.size() + f.format.size() + f.memory_convention.size() + f.sha256.size() +
                     f.mapping_sha256.size();
        return bytes;
    }
    }
    return 0;
}

archive::value_result archive::produce(source& from, request const& what)
{
    try {
        switch (what.what) {
        case task::layout: return read_layout(from, what.sheet);
        case task::chunk_part: return render_part(from, what);
        case task::page: return render_page(from, what);
        case task::raw_list: return value(raw_list(from, what.sheet));
        case task::raw_page: return render_raw_page(from, what);
        case task::raw_file: return read_raw_file(from, what);
        }
        return unavailable(what.sheet, "nothing to read");
    } catch (std::exception const& e) {
        ops::report_caught_exception("archive", "reading the inputs of " + pricing::to_string(what.sheet.week) + ": " +
                                                    e.what());
        return unavailable(what.sheet, "the archive could not be read");
    }
}

archive::value_result archive::read_layout(source& from, pricing::price_sheet const& sheet)
{
    {
        std::lock_guard lock(mutex_);
        ++figures_.reads;
    }
    auto layout = from.layout(sheet);
    if (layout.chunk_sizes.empty())
        return nothing_stored(sheet);
    return value(std::make_shared<const store::input_layout>(std::move(layout)));
}

// Chunk `seq` of the CSV, from the cache or the source. A chunk not of the size its layout gives
// belongs to another publication (the week was republished while read): the read fails rather
// than mix two publications or send other than the length announced.
std::shared_ptr<const std::string> archive::csv_chunk(source& from, request const& what, std::size_t seq)
{
    auto const key = part_key(what.sheet, render::format::csv, seq);
    {
        std::lock_guard lock(mutex_);
        if (auto const held = recall(key))
            return std::static_pointer_cast<const std::string>(held);
        ++figures_.chunk_reads;
    }
    auto chunk = std::make_shared<const std::string>(from.chunk(what.sheet, seq));
    if (chunk->size() != what.layout->chunk_sizes.at(seq))
        throw std::runtime_error("chunk " + std::to_string(seq) + " is not the size its layout gives (republished?)");
    if (what.format != render::format::csv && worth_keeping(what)) {  // a CSV part is the job's result
        std::lock_guard lock(mutex_);
        remember(key, chunk, chunk->size());
    }
    return chunk;
}

// A part of the CSV is its chunk as stored; a part of the JSON is rendered from that chunk's rows,
// the first opening the document and the last closing it.
archive::value_result archive::render_part(source& from, request const& what)
{
    auto chunk = csv_chunk(from, what, what.seq);
    if (what.format == render::format::csv)
        return value(chunk);
    auto const rows = rows_of(*what.layout, what.seq, *chunk);
    bool const last = what.seq + 1 == what.layout->chunk_sizes.size();
    return value(std::make_shared<const std::string>(render::observations_text(
        what.sheet, static_cast<std::size_t>(what.sheet.observations), rows.observations, {what.seq == 0, last})));
}

// A page needs every row, but holds one chunk at a time: each is read (or found cached), tallied
// and let go. Between chunks it looks whether anyone still waits for the page, and stops when no
// one does: a client that gave up leaves no work behind (a null page; work() drops the job).
archive::value_result archive::render_page(source& from, request const& what)
{
    std::shared_ptr<const store::input_layout> layout;
    {
        std::lock_guard lock(mutex_);
        layout = std::static_pointer_cast<const store::input_layout>(recall(layout_key(what.sheet)));
    }
    if (!layout) {
        auto read = read_layout(from, what.sheet);
        if (!read)
            return read;
        layout = std::static_pointer_cast<const store::input_layout>(*read);
        std::lock_guard lock(mutex_);
        remember(layout_key(what.sheet), layout, size_of(task::layout, layout));
    }
    request of_chunks = what;
    of_chunks.what = task::chunk_part;  // each chunk kept as a CSV part would be
    of_chunks.layout = layout;
    auto const key = page_key(what.sheet, what.format, what.lang);
    render::observations_summary summary;
    for (std::size_t seq = 0; seq < layout->chunk_sizes.size(); ++seq) {
        if (!awaited(key))
            return value();
        summary.add(rows_of(*layout, seq, *csv_chunk(from, of_chunks, seq)).observations);
    }
    return value(render_page_of(what.sheet, what.format, what.lang, summary));
}

bool archive::awaited(std::string const& key)
{
    std::lock_guard lock(mutex_);
    auto const it = pending_.find(key);
    return it != pending_.end() && !it->second.waiters.empty();
}

// The sheet's raw files, from the cache or the source (then kept: a list is small).
std::shared_ptr<const std::vector<pricing::raw_input>> archive::raw_list(source& from, pricing::price_sheet const& sheet)
{
    {
        std::lock_guard lock(mutex_);
        if (auto const held = recall(raw_list_key(sheet)))
            return std::static_pointer_cast<const std::vector<pricing::raw_input>>(held);
        ++figures_.reads;
    }
    auto list = std::make_shared<const std::vector<pricing::raw_input>>(from.raw_inputs(sheet));
    std::lock_guard lock(mutex_);
    remember(raw_list_key(sheet), list, size_of(task::raw_list, list));
    return list;
}

archive::value_result archive::render_raw_page(source& from, request const& what)
{
    auto const list = raw_list(from, what.sheet);
    std::string const path = "/v1/sheets/" + pricing::to_string(what.sheet.week) + "/sources";
    render::page const where{path, render::language_query("", what.lang), render::table_formats, what.lang};
    return value(snapshot::make_document(
        std::string(render::content_type(what.format)),
        render::write(what.format, render::raw_inputs_view, render::raw_inputs_json(what.sheet, *list), where), false,
        what.sheet.published_at));
}

// A raw file is served only when the sheet names it, and only when its bytes hash to its name: an
// auditor is never sent a byte the published SHA-256 does not vouch for.
archive::value_result archive::read_raw_file(source& from, request const& what)
{
    auto const list = raw_list(from, what.sheet);
    auto const file = std::find_if(list->begin(), list->end(), [&](auto const& f) { return f.sha256 == what.sha256; });
    bool const mapping = std::any_of(list->begin(), list->end(),
                                     [&](auto const& f) { return f.mapping_sha256 == what.sha256; });
    pricing::error const none{pricing::errc::not_found, "the sheet " + pricing::to_string(what.sheet.week) +
                                                            " names no raw file or mapping " + what.sha256 +
                                                            "; its sources list names those it has"};
    if (file == list->end() && !mapping)
        return none;
    {
        std::lock_guard lock(mutex_);
        ++figures_.chunk_reads;
    }
    auto bytes = from.raw_bytes(what.sheet, what.sha256);
    if (!bytes)
        return none;
    if (digest::sha256_hex(*bytes) != what.sha256)
        throw std::runtime_error("the raw file " + what.sha256 + " does not hash to its name");
    bool const json = file != list->end() && file->format != "skypilot-vms";
    return value(snapshot::make_document(json ? "application/json" : "text/csv; charset=utf-8", std::move(*bytes),
                                         true, what.sheet.published_at));
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
                expired.emplace_back(j.what.sheet, std::move(*it));
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
    f.cached_items = cache_.size();
    f.streamed_bytes = streamed_->load(std::memory_order_relaxed);
    return f;
}

stream::stream(archive& from, pricing::price_sheet sheet, render::format f,
               std::shared_ptr<const store::input_layout> layout, std::shared_ptr<const std::string> first)
    : archive_(from), sheet_(std::move(sheet)), format_(f), layout_(std::move(layout)), first_(from.held(std::move(first)))
{
}

std::optional<std::size_t> stream::size() const
{
    if (format_ == render::format::csv)
        return layout_->total_bytes();
    return std::nullopt;
}

void stream::next(part_completion done)
{
    std::size_t const seq = next_++;
    if (seq == 0) {
        read_ahead(1);
        return done(std::move(first_));
    }
    std::unique_lock lock(mutex_);
    if (!reading_ahead_ && !ahead_) {
        lock.unlock();
        return done(end_of_stream());  // the last part was given: nothing was read ahead
    }
    if (!ahead_) {
        asked_ = std::move(done);  // arrived() answers it
        return;
    }
    part read = std::move(*ahead_);
    ahead_.reset();
    lock.unlock();
    if (read)
        read_ahead(seq + 1);
    done(std::move(read));
}

void stream::read_ahead(std::size_t seq)
{
    if (seq >= layout_->chunk_sizes.size())
        return;
    {
        std::lock_guard lock(mutex_);
        reading_ahead_ = true;
    }
    archive_.read_part(sheet_, format_, layout_, seq,
                       [self = shared_from_this(), seq](part read) { self->arrived(std::move(read), seq); });
}

void stream::arrived(part read, std::size_t seq)
{
    if (read)
        read = archive_.held(std::move(*read));
    std::unique_lock lock(mutex_);
    reading_ahead_ = false;
    if (!asked_) {
        ahead_ = std::move(read);
        return;
    }
    auto done = std::move(asked_);
    asked_ = nullptr;
    lock.unlock();
    if (read)
        read_ahead(seq + 1);
    done(std::move(read));
}

namespace {

// One archive thread's connection to PostgreSQL: opened when first needed, dropped after a failure
// so the next read opens a new one.
class database_source final : public source {
public:
    database_source(std::string url, std::chrono::milliseconds timeout) : url_(std::move(url)), timeout_(timeout) {}

    store::input_layout layout(pricing::price_sheet const& sheet) override
    {
        return with_database<store::input_layout>(
            [&](store::database& db) { return db.load_input_layout(sheet.week, sheet.inputs_sha256); });
    }

    std::string chunk(pricing::price_sheet const& sheet, std::size_t seq) override
    {
        return with_database<std::string>(
            [&](store::database& db) { return db.load_input_chunk(sheet.week, sheet.inputs_sha256, seq); });
    }

    std::vector<pricing::raw_input> raw_inputs(pricing::price_sheet const& sheet) override
    {
        return with_database<std::vector<pricing::raw_input>>(
            [&](store::database& db) { return db.load_raw_inputs(sheet.week); });
    }

    std::optional<std::string> raw_bytes(pricing::price_sheet const&, std::string const& sha256) override
    {
        return with_database<std::optional<std::string>>(
            [&](store::database& db) { return db.load_raw_bytes(sha256); });
    }

private:
    template <class T>
    T with_database(std::function<T(store::database&)> const& read)
    {
        try {
            if (!db_)
                db_ = std::make_unique<store::database>(url_, store::connection_limits{timeout_, timeout_});
            return read(*db_);
        } catch (...) {
            db_.reset();  // a new connection next time; the archive logs the failure
            throw;
        }
    }

    std::string url_;
    std::chrono::milliseconds timeout_;
    std::unique_ptr<store::database> db_;
};

}

source_factory database_sources(std::string database_url, std::chrono::milliseconds timeout)
{
    return [database_url, timeout]() -> std::unique_ptr<source> {
        return std::make_unique<database_source>(database_url, timeout);
    };
}

}
