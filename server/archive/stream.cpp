// The CSV and JSON of a week's inputs as streams: opened within one timeout, each part read one
// ahead of the client, and every part a stream holds counted in the archive's stream budget.
#include "server/archive/impl.hpp"

namespace lcg::archive {

namespace {

// The part after the last: the end of a stream.
std::shared_ptr<const std::string> const& end_of_stream()
{
    static auto const none = std::make_shared<const std::string>();
    return none;
}

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
constexpr std::size_t opening_bytes = 3 * pricing::input_chunk_bytes;

}

std::shared_ptr<const std::string> archive::impl::held(std::shared_ptr<const std::string> bytes) const
{
    if (!bytes || bytes->empty())
        return bytes;
    auto holder = std::make_shared<const held_part>(std::move(bytes), streamed_);
    return {holder, holder->bytes.get()};  // shares the holder's count: the bytes go with it
}

bool archive::impl::streams_full() const
{
    return streamed_->load(std::memory_order_relaxed) >= options_.stream_bytes;
}

std::shared_ptr<stream> archive::open_cached(pricing::price_sheet const& sheet, render::format f)
{
    if (impl_->streams_full())
        return nullptr;  // open() refuses it
    std::lock_guard lock(impl_->mutex_);
    auto& kept = impl_->cache_;
    auto const layout = std::static_pointer_cast<const pricing::input_layout>(kept.recall(layout_key(sheet)));
    auto const first =
        layout ? std::static_pointer_cast<const std::string>(kept.recall(part_key(sheet, f, 0))) : nullptr;
    ++(first ? impl_->figures_.hits : impl_->figures_.misses);
    return first ? std::make_shared<stream>(*this, sheet, f, layout, first) : nullptr;
}

// The layout, then the first part, both within one timeout: a client waits that long at most for
// its answer's head.
void archive::open(pricing::price_sheet const& sheet, render::format f, open_completion done)
{
    if (impl_->streams_full()) {
        {
            std::lock_guard lock(impl_->mutex_);
            ++impl_->figures_.refused_streams;
        }
        return done(unavailable(sheet, "too many weeks' inputs are being sent at once"));
    }
    auto const deadline = impl::clock::now() + impl_->options_.timeout;
    auto const opening = std::make_shared<const held_bytes>(impl_->streamed_, opening_bytes);
    auto opened_layout = [this, sheet, f, deadline, opening, done = std::move(done)](impl::value_result r) {
        if (!r)
            return done(r.err());
        auto layout = std::static_pointer_cast<const pricing::input_layout>(*r);
        impl_->read_part(sheet, f, layout, 0, [this, sheet, f, layout, opening, done](part first) {
            if (!first)
                return done(first.err());
            done(std::make_shared<stream>(*this, sheet, f, layout, *first));
        }, deadline);
    };
    impl_->obtain(layout_key(sheet), {impl::task::layout, sheet}, std::move(opened_layout), deadline);
}

void archive::impl::read_part(pricing::price_sheet const& sheet, render::format f,
                              std::shared_ptr<const pricing::input_layout> const& layout, std::size_t seq,
                              part_completion done, std::optional<clock::time_point> deadline)
{
    if (seq >= layout->chunk_sizes.size())
        return done(end_of_stream());
    obtain(part_key(sheet, f, seq), {task::chunk_part, sheet, f, locale::language::en, seq, layout},
           [done = std::move(done)](value_result r) {
               if (!r)
                   return done(r.err());
               done(std::static_pointer_cast<const std::string>(*r));
           }, deadline);
}

stream::stream(archive& from, pricing::price_sheet sheet, render::format f,
               std::shared_ptr<const pricing::input_layout> layout, std::shared_ptr<const std::string> first)
    : archive_(from), sheet_(std::move(sheet)), format_(f), layout_(std::move(layout)), first_(from.impl_->held(std::move(first)))
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
    archive_.impl_->read_part(sheet_, format_, layout_, seq,
                       [self = shared_from_this(), seq](part read) { self->arrived(std::move(read), seq); });
}

void stream::arrived(part read, std::size_t seq)
{
    if (read)
        read = archive_.impl_->held(std::move(*read));
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

}
