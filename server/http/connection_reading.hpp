#pragma once

// Part of connection.hpp, which includes it after the class: include that one. How connection<Stream>
// reads a request and answers it: the parser fed from one buffer, the checks as the headers and the
// body arrive, the router or a stored answer, the metrics and the request log.

namespace lcg::http {

// Between requests a client may stay silent up to `wait`; once the first byte of a request
// arrives, the whole request must follow within the header timeout.
template <class Stream>
inline void connection<Stream>::await_request(std::chrono::seconds wait)
{
    parser_.emplace();
    parser_->header_limit(static_cast<std::uint32_t>(shared_.options.header_limit));
    parser_->body_limit(shared_.options.body_limit);
    // Chunk extensions have no use here and are a known smuggling vector.
    parser_->on_chunk_header(refuse_extensions_);
    request_started_ = false;
    body_checked_ = false;
    header_bytes_ = 0;
    idle_since_ = coarse_now();
    deadline_ = idle_since_ + wait;
    if (buffer_.size() > 0)
        return parse_buffered();  // a pipelined request is already here
    read_more();
}

template <class Stream>
inline void connection<Stream>::read_more()
{
    stream_.async_read_some(buffer_.prepare(read_size), [self = this->shared_from_this()](beast::error_code ec, std::size_t n) {
        if (ec)
            return self->do_close();  // end of stream, reset, or closed by the sweep
        self->buffer_.commit(n);
        self->parse_buffered();
    });
}

// Feeds what has arrived to the parser: answers a complete request, or reads more.
template <class Stream>
inline void connection<Stream>::parse_buffered()
{
    if (!request_started_) {
        // An empty line before a request line is ignored (RFC 9112 §2.2: a client may end a body
        // with a CRLF its length did not count), two at most, counted with the header block; until
        // the request line begins, the connection is idle, with the idle timeout.
        for (std::string_view head; header_bytes_ < 4;) {
            head = {static_cast<char const*>(buffer_.data().data()), buffer_.size()};
            if (head.empty() || head == "\r")
                return read_more();  // nothing yet, or the rest of the line on its way
            if (!head.starts_with("\r\n"))
                break;
            buffer_.consume(2);
            header_bytes_ += 2;
        }
        if (buffer_.size() == 0)
            return read_more();
        request_started_ = true;
        idle_since_ = steady::time_point::max();
        deadline_ = coarse_now() + shared_.options.header_timeout;
    }
    while (buffer_.size() > 0 && !parser_->is_done()) {
        bool const in_header = !parser_->is_header_done();
        if (in_header)
            if (auto refusal = refuse_folded_line(buffer_.data()))
                return reply_refused(std::move(*refusal), "(refused body)");
        beast::error_code ec;
        auto const used = parser_->put(buffer_.data(), ec);
        buffer_.consume(used);
        if (in_header) {
            header_bytes_ += used;
            if (auto refusal = refuse_overlong_framing(false, header_bytes_, 0, shared_.options.header_limit))
                return reply_refused(std::move(*refusal), "(unreadable)");
        }
        if (ec == beast_http::error::need_more)
            break;
        if (ec)
            return reply_refused(unreadable_request(ec, parser_->get().target()), "(unreadable)");  // empty before the start line
        if (!body_checked_ && parser_->is_header_done()) {
            body_checked_ = true;
            if (auto refusal = refuse_body(shared_, *parser_, peer_, body_reserved_))
                return reply_refused(std::move(*refusal), "(refused body)");
            // Counted after refuse_body, which joins repeated lines into one: a trailer is a field
            // more than this (only a chunked body has trailers).
            fields_at_header_ = parser_->chunked() ? field_count(parser_->get()) : 0;
            // The body is welcome: a client that waits to be told so is told, unless it sent some already.
            if (!parser_->is_done() && buffer_.size() == 0 &&
                expectation_of(parser_->get()) == expectation::continue_first)
                return send_continue();
        } else if (body_checked_) {
            if (auto refusal = hold_body(shared_, *parser_, body_reserved_))
                return reply_refused(std::move(*refusal), "(refused body)");
        }
        if (used == 0)
            break;
    }
    if (parser_->is_done()) {
        if (parser_->chunked())
            if (auto refusal = refuse_trailers(parser_->get(), fields_at_header_))
                return reply_refused(std::move(*refusal), "(refused body)");
        return respond();
    }
    if (auto refusal = refuse_overlong_framing(parser_->is_header_done(), header_bytes_, buffer_.size(),
                                               shared_.options.header_limit))
        return reply_refused(std::move(*refusal), "(unreadable)");
    read_more();
}

// The interim answer to Expect: 100-continue, then the body is read as any other.
template <class Stream>
inline void connection<Stream>::send_continue()
{
    static constexpr std::string_view line = "HTTP/1.1 100 Continue\r\n\r\n";
    asio::async_write(stream_, asio::buffer(line.data(), line.size()),
                      [self = this->shared_from_this()](beast::error_code ec, std::size_t) {
                          if (ec)
                              return self->do_close();
                          self->read_more();
                      });
}

template <class Stream>
inline void connection<Stream>::respond()
{
    busy_ = true;
    release_body_budget(shared_, body_reserved_);
    auto const started = steady::now();
    request req = parser_->release();
    std::string_view route;
    if (auto refused = admit(shared_, req, peer_, client_, route, linger_))
        return finish(req, route, started, std::move(*refused));
    auto snapshot = shared_.snapshots.get();
    stored_answers::lookup asked;
    if (!closing_) {
        asked = loop_.answers.find(req, snapshot, sends_files<Stream>);
        if (asked.hit)
            return replay(req, *asked.hit, started);
    }
    answer given = answer_request(shared_, snapshot, req, client_, route);
    if (given.later)
        return await_answer(std::move(req), route, started, std::move(given.later));
    finish(req, route, started, std::move(given.now));
    loop_.answers.keep(req, asked, snapshot, response_, route, std::string_view(head_).substr(0, head_bytes_));
}

// The answer stored for the same question on the same snapshot, written again as it was.
template <class Stream>
inline void connection<Stream>::replay(request const& req, stored_answers::found const& stored,
                                       steady::time_point started)
{
    auto const& a = *stored.answer;
    bool const head_only = req.method() == beast_http::verb::head;
    record(req, a.route, static_cast<unsigned>(beast_http::status::ok), head_only ? 0 : a.body_size, started);
    if (!a.counted.tool.empty())
        shared_.metrics.record_mcp_call(a.counted.tool, std::string(a.counted.outcome));
    keep_alive_ = true;
    if constexpr (sends_files<Stream>) {
        if (a.file) {
            file_ = a.file;
            file_size_ = a.head.size() + (head_only ? 0 : a.body_size);
            written_ = 0;
            return send_from_file();
        }
    }
    head_.assign(a.head);
    body_owner_ = stored.owner;
    body_ = head_only ? std::string_view{} : a.body;
    start_writing();
}

// The one hook for answers given later (a week's inputs read off the event loop): the response
// comes back to this connection's own loop, and the connection reads nothing meanwhile. Its
// deadline waits, since the archive answers (at worst 503) within its own timeout.
template <class Stream>
inline void connection<Stream>::await_answer(request req, std::string_view route, steady::time_point started,
                                             deferred later)
{
    deadline_ = steady::time_point::max();
    auto held = std::make_shared<request>(std::move(req));
    later([self = this->shared_from_this(), held, route, started](response res) mutable {
        auto& loop = self->loop_.ioc;
        asio::post(loop, [self = std::move(self), held, route, started, res = std::move(res)]() mutable {
            self->finish(*held, route, started, std::move(res));
        });
    });
}

// Writes a response the router (or a refusal) made.
template <class Stream>
inline void connection<Stream>::finish(request const& req, std::string_view route, steady::time_point started,
                                       response res)
{
    if (closing_)
        res.keep_alive(false);
    bool const head_only = req.method() == beast_http::verb::head;
    bool const in_parts = !head_only && res.body().source();
    record(req, route, res.result_int(), head_only ? 0 : res.body().size(), started, in_parts);
    write(std::move(res), head_only);
}

// The metrics of an answer and, every log_every requests, its log line. A body sent in parts
// is logged once its parts are out (or the connection ends), with the bytes they held.
template <class Stream>
inline void connection<Stream>::record(request const& req, std::string_view route, unsigned status, std::size_t sent,
                                       steady::time_point started, bool in_parts)
{
    auto const took = std::chrono::duration_cast<std::chrono::microseconds>(steady::now() - started);
    shared_.metrics.record_request(route, status, took);
    if (shared_.options.log_every == 0 ||
        shared_.request_counter.fetch_add(1, std::memory_order_relaxed) % shared_.options.log_every != 0)
        return;
    if (in_parts) {
        auto const method = req.method_string();
        auto const target = req.target();
        parts_log_ = {std::string(method.data(), method.size()),
                      std::string(target.data(), std::min<std::size_t>(target.size(), 256)), status, took, 0};
        return;
    }
    log({req.method_string(), req.target(), status, sent, client_, took});
}

template <class Stream>
inline void connection<Stream>::log(request_log_entry const& entry)
{
    append_log_line(entry, loop_.log_lines);
    if (loop_.log_lines.size() >= log_batch_bytes)
        loop_.flush_log();
}

// The log line of a body sent in parts, once they are out or the connection ends.
template <class Stream>
inline void connection<Stream>::log_parts_sent()
{
    if (!parts_log_)
        return;
    auto const& p = *parts_log_;
    log({p.method, p.target, p.status, p.bytes, client_, p.took});
    parts_log_.reset();
}

// Answers from the headers and closes: the body is never read (lingering drains what is sent).
template <class Stream>
inline void connection<Stream>::reply_refused(response res, std::string_view why)
{
    busy_ = true;
    res.keep_alive(false);
    linger_ = true;
    shared_.metrics.record_request(why, res.result_int(), steady::duration::zero());
    bool const head = parser_ && parser_->is_header_done() && parser_->get().method() == beast_http::verb::head;
    // What was received of a refused body is let go now, not when the lingering ends.
    if (parser_)
        std::string().swap(parser_->get().body());
    release_body_budget(shared_, body_reserved_);
    write(std::move(res), head);
}

}
