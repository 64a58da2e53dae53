// The CSV and JSON of a week's inputs as streams: opened within one timeout, each part read one
// ahead of the client, and every part a stream holds counted in the archive's stream budget.
#include "server/archive/impl.hpp"

#include <algorithm>

namespace lcg::archive {

namespace {

// The part after the last: the end of a stream.
std::shared_ptr<const std::string> const& end_of_stream()
{
    static auto const none = std::make_shared<const std::string>();
    return none;
}

// Bytes counted in the streams' budget, and in their reader's share when it has one, for as long
// as this lives.
class held_bytes {
public:
    using counter = std::shared_ptr<std::atomic<std::size_t>>;
    held_bytes(counter total, counter share, std::size_t n) : total_(std::move(total)), share_(std::move(share)), n_(n)
    {
        total_->fetch_add(n_, std::memory_order_relaxed);
        if (share_)
            share_->fetch_add(n_, std::memory_order_relaxed);
    }
    held_bytes(held_bytes const&) = delete;
    held_bytes& operator=(held_bytes const&) = delete;
    ~held_bytes()
    {
        total_->fetch_sub(n_, std::memory_order_relaxed);
        if (share_)
            share_->fetch_sub(n_, std::memory_order_relaxed);
    }

private:
    counter total_, share_;
    std::size_t n_;
};

// A part's bytes, counted while anyone holds them.
struct held_part {
    held_part(std::shared_ptr<const std::string> b, held_bytes::counter total, held_bytes::counter share)
        : bytes(std::move(b)), count(std::move(total), std::move(share), bytes->size())
    {
    }
    std::shared_ptr<const std::string> const bytes;
    held_bytes const count;
};

// What a stream being opened is counted for until its first part is in: streams opened at once
// are all counted before any has a part.
constexpr std::size_t opening_bytes = 3 * pricing::input_chunk_bytes;

}

std::shared_ptr<const std::string> archive::impl::held(std::shared_ptr<const std::string> bytes,
                                                       std::shared_ptr<std::atomic<std::size_t>> const& share) const
{
    if (!bytes || bytes->empty())
        return bytes;
    auto holder = std::make_shared<const held_part>(std::move(bytes), streamed_, share);
    return {holder, holder->bytes.get()};  // shares the holder's count: the bytes go with it
}

std::size_t archive::impl::reader_budget() const
{
    return options_.stream_bytes_per_reader != 0 ? options_.stream_bytes_per_reader
                                                 : std::max<std::size_t>(1, options_.stream_bytes / 4);
}

std::optional<std::string> archive::impl::no_room(std::atomic<std::size_t> const* share) const
{
    if (streamed_->load(std::memory_order_relaxed) >= options_.stream_bytes)
        return "too many weeks' inputs are being sent at once";
    if (share && share->load(std::memory_order_relaxed) >= reader_budget())
        return "this client is being sent as many weeks' inputs at once as one client may (" +
               std::to_string(reader_budget()) + " bytes held); retry when one of its downloads ends";
    return std::nullopt;
}

std::shared_ptr<std::atomic<std::size_t>> archive::impl::share_of(std::string const& reader)
{
    if (reader.empty())
        return nullptr;
    std::lock_guard lock(mutex_);
    if (auto const found = shares_.find(reader); found != shares_.end())
        if (auto share = found->second.lock())
            return share;
    // The entries of readers whose streams have all ended go as the map grows past each 64.
    if (shares_.size() >= 64 && shares_.size() % 64 == 0)
        std::erase_if(shares_, [](auto const& entry) { return entry.second.expired(); });
    auto share = std::make_shared<std::atomic<std::size_t>>(0);
    shares_[reader] = share;
    return share;
}

std::shared_ptr<stream> archive::open_cached(pricing::price_sheet const& sheet, render::format f,
                                             std::string const& reader)
{
    auto share = impl_->share_of(reader);
    if (impl_->no_room(share.get()))
        return nullptr;  // open() refuses it
    std::lock_guard lock(impl_->mutex_);
    auto& kept = impl_->cache_;
    auto const layout = std::static_pointer_cast<const pricing::input_layout>(kept.recall(layout_key(sheet)));
    auto const first =
        layout ? std::static_pointer_cast<const std::string>(kept.recall(part_key(sheet, f, 0))) : nullptr;
    ++(first ? impl_->figures_.hits : impl_->figures_.misses);
    return first ? std::make_shared<stream>(*this, sheet, f, layout, first, std::move(share)) : nullptr;
}

// The layout, then the first part, both within one timeout: a client waits that long at most for
// its answer's head.
void archive::open(pricing::price_sheet const& sheet, render::format f, open_completion done, std::string const& reader)
{
    auto share = impl_->share_of(reader);
    if (auto const why = impl_->no_room(share.get())) {
        {
            std::lock_guard lock(impl_->mutex_);
            ++impl_->figures_.refused_streams;
        }
        return done(unavailable(sheet, *why));
    }
    auto const deadline = impl::clock::now() + impl_->options_.timeout;
    auto const opening = std::make_shared<const held_bytes>(impl_->streamed_, share, opening_bytes);
    auto opened_layout = [this, sheet, f, deadline, opening, share, done = std::move(done)](impl::value_result r) {
        if (!r)
            return done(r.err());
        auto layout = std::static_pointer_cast<const pricing::input_layout>(*r);
        impl_->read_part(sheet, f, layout, 0, [this, sheet, f, layout, opening, share, done](part first) {
            if (!first)
                return done(first.err());
            done(std::make_shared<stream>(*this, sheet, f, layout, *first, share));
        }, deadline);
    };
    impl_->obtain(layout_key(sheet), {impl::task::layout, sheet}, std::move(opened_layout), deadline, reader);
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
               std::shared_ptr<const pricing::input_layout> layout, std::shared_ptr<const std::string> first,
               std::shared_ptr<std::atomic<std::size_t>> share)
    : archive_(from), sheet_(std::move(sheet)), format_(f), layout_(std::move(layout)), share_(std::move(share)),
      first_(from.impl_->held(std::move(first), share_))
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
        read = archive_.impl_->held(std::move(*read), share_);
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
