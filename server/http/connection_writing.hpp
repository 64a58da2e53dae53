#pragma once

// Part of connection.hpp, which includes it after the class: include that one. How connection<Stream>
// writes an answer and closes: gathered writes or sendfile, a body in parts (chunked or framed by its
// length), a deadline that follows a slow reader, and lingering after a refusal.

namespace lcg::http {

// A write begins: it has header_timeout to make progress, and the sweep has not looked at it yet.
template <class Stream>
inline void connection<Stream>::begin_write()
{
    deadline_ = coarse_now() + shared_.options.header_timeout;
    writing_ = true;
    unsent_seen_ = std::numeric_limits<std::size_t>::max();
}

// A stored answer's memory file goes to the socket with sendfile, as much as it takes now; the
// rest once it is writable again. A long one yields to the other connections every write_chunk.
// An answer whose body ends in a file (payload::end_with) first sends from_memory_ bytes of head_,
// marked as followed by more, so that they share the file's first segment.
template <class Stream>
inline void connection<Stream>::send_from_file()
{
    begin_write();
    std::size_t const total = from_memory_ + file_size_;
    std::size_t const end = std::min(total, written_ + write_chunk);
    while (written_ < end) {
        auto const sent =
            written_ < from_memory_
                ? transport<Stream>::send_more(stream_, std::string_view(head_).substr(written_, from_memory_ - written_))
                : transport<Stream>::send_file_some(stream_, file_->fd(), written_ - from_memory_, end - written_);
        if (!sent) {
            writing_ = false;
            return do_close();
        }
        if (*sent == 0)
            break;
        written_ += *sent;
    }
    if (written_ == total) {
        // Posted, as a write's completion is: pipelined requests answered from files must not
        // nest calls.
        return asio::post(loop_.ioc, [self = this->shared_from_this()] {
            self->writing_ = false;
            self->file_.reset();
            self->from_memory_ = 0;
            self->written_all();
        });
    }
    if (written_ == end)  // its share sent: the other connections' turn, then on
        return asio::post(loop_.ioc, [self = this->shared_from_this()] { self->send_from_file(); });
    // The socket is full: on once the reader has taken some.
    stream_.async_wait(asio::socket_base::wait_write, [self = this->shared_from_this()](beast::error_code ec) {
        if (ec) {
            self->writing_ = false;
            return self->do_close();
        }
        self->send_from_file();
    });
}

// Whether the kernel's queue of bytes not yet acknowledged by the reader changed since the last
// look. A write completes only when a large send buffer is a third empty, which a slow reader
// may take longer than the deadline to reach; this sees its progress before that. The queue
// shrinks as the reader takes bytes and grows only as the kernel takes more of ours, which it
// does only once the reader made room: either way the reader is there.
template <class Stream>
inline bool connection<Stream>::unsent_moved()
{
    auto const unsent = transport<Stream>::unsent(stream_);
    if (!unsent)
        return false;
    bool const moved = *unsent != unsent_seen_;
    unsent_seen_ = *unsent;
    return moved;
}

// A HEAD answer is the head alone: its Content-Length is that of the body a GET would get.
template <class Stream>
inline void connection<Stream>::write(response&& res, bool head_only)
{
    response_ = std::move(res);
    source_ = response_.body().source();
    if (source_)
        frame_parts();
    write_head(response_, head_, loop_.date.now());
    head_bytes_ = head_.size();
    if (head_only)
        source_.reset();
    keep_alive_ = response_.keep_alive();
    if constexpr (sends_files<Stream>) {
        auto const& body = response_.body();
        auto const end = body.lasting_end();
        if (!head_only && !end.empty() && (file_ = loop_.answers.lasting_file(body.lasting_owner(), end))) {
            // A body that ends with text kept for long (an MCP server's tool list or default prices):
            // what precedes it goes with the head, the rest from its file, as a stored answer's.
            body_ = {};
            head_.append(body.lead());
            from_memory_ = head_.size();
            file_size_ = end.size();
            written_ = 0;
            return send_from_file();
        }
    }
    body_ = head_only ? std::string_view{} : response_.body().view();
    start_writing();
}

template <class Stream>
inline void connection<Stream>::start_writing()
{
    written_ = 0;
    write_more();
}

// A body sent in parts (payload.hpp) with no Content-Length: chunked for an HTTP/1.1 client;
// an HTTP/1.0 client reads it to the end of the connection.
template <class Stream>
inline void connection<Stream>::frame_parts()
{
    framing_ = parts_framing::length;
    chunk_open_ = false;
    if (response_.find(beast_http::field::content_length) != response_.end())
        return;
    if (response_.version() >= 11) {
        response_.set(beast_http::field::transfer_encoding, "chunked");
        framing_ = parts_framing::chunks;
    } else {
        response_.keep_alive(false);
        framing_ = parts_framing::end_of_connection;
    }
}

// The next part, asked for once the one before is written, so the connection holds one part at
// a time. Its deadline waits meanwhile, as for an answer given later: the source answers within
// its own timeout, with a failed part at worst.
template <class Stream>
inline void connection<Stream>::pull_part()
{
    deadline_ = steady::time_point::max();
    source_->next([self = this->shared_from_this()](body_part part) mutable {
        auto& loop = self->loop_.ioc;
        asio::post(loop, [self = std::move(self), part = std::move(part)]() mutable { self->send_part(std::move(part)); });
    });
}

// A part that failed closes the connection: the client sees a body shorter than its
// Content-Length, or a chunked body without its last chunk, never one that looks complete. An
// HTTP/1.0 body that the end of the connection frames is reset instead, since a plain close would
// end it as if it were whole (a reset drops what the kernel still holds: only there is it worth it).
template <class Stream>
inline void connection<Stream>::send_part(body_part part)
{
    if (part.failed && framing_ != parts_framing::end_of_connection)
        return do_close();
    if (part.failed) {
        log_parts_sent();
        return transport<Stream>::reset(stream_);
    }
    bool const last = part.bytes.empty();
    head_.clear();
    if (framing_ == parts_framing::chunks) {
        if (chunk_open_)
            head_ += "\r\n";  // ends the chunk before
        append_chunk_size(head_, part.bytes.size());
        head_ += last ? "\r\n\r\n" : "\r\n";
        chunk_open_ = !last;
    }
    if (parts_log_)
        parts_log_->bytes += part.bytes.size();
    if (last) {
        source_.reset();
        log_parts_sent();
    }
    if (last && head_.empty())
        return written_all();
    part_ = std::move(part.owner);
    body_ = part.bytes;
    start_writing();
}

template <class Stream>
inline void connection<Stream>::append_chunk_size(std::string& out, std::size_t size)
{
    char digits[2 * sizeof size];
    auto const end = std::to_chars(digits, digits + sizeof digits, size, 16).ptr;
    out.append(digits, end);
}

// The head and the body leave in gathered writes of at most write_chunk bytes. Each one that
// completes restarts the deadline: a slow reader is served at its pace, one that stops reading
// for header_timeout is dropped. Most answers are one write.
template <class Stream>
inline void connection<Stream>::write_more()
{
    std::size_t const total = head_.size() + body_.size();
    std::size_t const end = std::min(total, written_ + write_chunk);
    std::size_t n = 0;
    if (written_ < head_.size())
        parts_[n++] = asio::buffer(head_.data() + written_, std::min(end, head_.size()) - written_);
    if (end > head_.size()) {
        std::size_t const from = std::max(written_, head_.size()) - head_.size();
        parts_[n++] = asio::buffer(body_.data() + from, end - head_.size() - from);
    }
    begin_write();
    // The buffer sequence is copied by async_write, the buffers it names are not: parts_ is a member.
    asio::async_write(stream_, std::span<asio::const_buffer const>(parts_.data(), n),
                      [self = this->shared_from_this(), total](beast::error_code ec, std::size_t sent) {
                          self->writing_ = false;
                          if (ec)
                              return self->do_close();
                          self->written_ += sent;
                          if (self->written_ < total)
                              return self->write_more();
                          if (self->source_)
                              return self->pull_part();
                          self->written_all();
                      });
}

// The answer is out: the next request, or the end of the connection.
template <class Stream>
inline void connection<Stream>::written_all()
{
    busy_ = false;
    if (!keep_alive_ || closing_)
        return do_close();
    response_ = {};
    body_owner_.reset();
    body_ = {};
    part_.reset();
    await_request(shared_.options.idle_timeout);
}

template <class Stream>
inline void connection<Stream>::do_close()
{
    log_parts_sent();  // a body cut short is logged with what was sent of it
    transport<Stream>::shutdown_send(stream_);
    if (!linger_) {
        transport<Stream>::close(stream_);
        return;
    }
    // After refusing a request the client may still be sending it: closing now would reset the
    // connection and could destroy our answer before it is read. Drain briefly, then close.
    linger_ = false;
    deadline_ = coarse_now() + std::chrono::seconds(2);
    drain();
}

template <class Stream>
inline void connection<Stream>::drain()
{
    buffer_.clear();
    stream_.async_read_some(buffer_.prepare(read_size), [self = this->shared_from_this()](beast::error_code ec, std::size_t) {
        if (ec)
            return transport<Stream>::close(self->stream_);
        self->drain();
    });
}

}
