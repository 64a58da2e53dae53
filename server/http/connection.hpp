#pragma once

// The one place that knows the wire: framing, limits, timeouts, keep-alive and writing of an
// HTTP/1.1 connection. Everything above it sees a parsed `request` and returns a `response`.
//
// Each piece against its counterpart in Beast's `advanced_server` example, and why it differs:
// - Reading. Beast: `http::async_read(stream, buffer, parser)` per request. Here: `async_read_some`
//   into one flat buffer fed to `request_parser::put`, so pipelined requests already buffered are
//   answered without another read, and the header block is checked for obs-fold before parsing
//   (benchmark row "GET /v1/prices against nginx": the composed read cost about 8 % there).
// - Limits. Beast: `parser.body_limit()` and the header limit; the same here, plus a request
//   target limit (414), a body refused from its headers on a route that takes none, and a global
//   budget of body bytes being received (`server_options::body_budget`), so stalled uploads cannot
//   add memory (tests/hostile).
// - Timeouts. Beast: `beast::tcp_stream::expires_after`, one timer per connection re-armed per
//   operation. Here: a deadline member checked by a sweep of each event loop every 250 ms, which
//   costs nothing per request and a few bytes per idle connection (rows "GET /v1/prices" and
//   "10,000 connections"). A write's deadline restarts with each chunk written and whenever the
//   kernel's unsent queue shrinks, so a slow reader is served at its pace.
// - Keep-alive. Beast: `if (!res.keep_alive()) do_close()`; the same, and between requests the
//   idle timeout applies, the header timeout once a request's first byte is in.
// - Writing. Beast: `http::async_write(stream, message)` through its serializer. Here: the head is
//   written once by write_head (wire.hpp) and sent with the body in gathered writes of at most
//   256 KiB (rows "GET /v1/prices" and its p99). A stored answer of 16 KiB or more goes from a
//   memory file with sendfile instead, head and body in one call, as nginx sends a static file:
//   below that size copying costs the same, above it a third more (row "/v1/prices/{gpu}/history",
//   and a loopback measurement of 20 KB answers: 6.9 us of CPU each copied, 4.9 us by sendfile).
//   A body that arrives in parts (payload.hpp body_source: a
//   week's inputs read a chunk at a time) is pulled a part at a time, each once the one before is
//   written, framed by its Content-Length, else chunked (HTTP/1.0: by closing). HEAD
//   is answered here, for every route: the handler's head, Content-Length of the full body, no body.
// - Answering again. Beast has no counterpart. Here: the answer to a plain question for a published
//   document is kept by the event loop as the bytes of its head and a view of the document, and
//   replayed to the same question on the same snapshot without the router (stored_answers.hpp),
//   as nginx serves a static file from its open-file cache: about a quarter less CPU per
//   /v1/prices request (row "GET /v1/prices").
// - Closing. Beast: `shutdown(send)`. The same, and after a refused request the connection lingers
//   briefly draining what the client still sends, so the answer is not lost to a reset.
// - Threads. Beast: a strand per connection on a shared io_context. Here: one io_context per
//   thread owning its connections, no strands and no type-erased executors (row "GET /v1/prices").

#include "server/http/router.hpp"
#include "server/http/server.hpp"
#include "server/http/stored_answers.hpp"
#include "server/http/wire.hpp"
#include "server/ops/metrics.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/parser.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <charconv>
#include <chrono>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace lcg::http {

namespace asio = boost::asio;
namespace beast = boost::beast;
using steady = std::chrono::steady_clock;
using loop_executor = asio::io_context::executor_type;
using tcp_socket = asio::basic_stream_socket<asio::ip::tcp, loop_executor>;

// The steady clock at the kernel's tick (a few milliseconds), for deadlines: cheaper to read than
// steady::now(), which a request would otherwise read five times, and deadlines are swept every
// 250 ms anyway. The same clock, so the two compare.
steady::time_point coarse_now();

// How much of something each client (an address, or an IPv6 /64: ops::client_key) holds: the connections it has open (taken by the acceptor,
// given back when they end), or the bytes of the request bodies it is sending.
class address_slots {
public:
    // Takes `amount` unless the address would then hold more than `cap`.
    bool take(std::string const& address, std::size_t cap, std::size_t amount = 1);
    void give_back(std::string const& address, std::size_t amount = 1);

private:
    std::mutex mutex_;
    std::unordered_map<std::string, std::size_t> held_;
};

// A request body's share of the budget, while it is received: the bytes it holds so far, and by whom.
struct body_reservation {
    std::uint64_t bytes = 0;
    std::string client;
};

// What every connection of a server shares: settings, the snapshot cell, the rate limiter and
// the counters that bound the whole server.
struct connection_shared {
    server_options options;
    snapshot::holder const& snapshots;
    std::optional<ops::rate_limiter> limiter;
    std::atomic<std::uint64_t> request_counter{0};
    std::atomic<long> live_connections{0};
    std::atomic<std::uint64_t> body_bytes_reserved{0};  // of options.body_budget
    address_slots body_bytes_by_client{};               // of options.body_budget_per_address
    address_slots slots{};                              // for max_connections_per_address
};

// What an event loop's sweep and shutdown need of a connection, whatever its stream.
class connection_base {
public:
    virtual ~connection_base() = default;
    // Closes the connection when its deadline has passed (a slow reader that still makes
    // progress is given more time).
    virtual void expire_if_due(steady::time_point now) = 0;
    // Shutdown: an idle connection closes now, a busy one after its answer.
    virtual void close_when_idle() = 0;
    // Since when it has waited for a request with no byte of it received; steady::time_point::max()
    // while a request is being read or answered.
    virtual steady::time_point idle_since() const = 0;
};

// One event loop and the connections it owns; touched only on its own thread.
struct event_loop {
    explicit event_loop(connection_shared& s) : shared(s), ioc(1), sweeper(ioc.get_executor()) {}

    void sweep();      // every 250 ms, until the io_context stops
    void flush_log();  // writes the pending request log lines
    // Closes the connection that has waited longest for a request, if any waits: the server is
    // crowded and a new client is being let in.
    void close_longest_idle();

    connection_shared& shared;
    // Declared before the io_context: connections still queued in it when it is destroyed leave
    // this set in their destructors.
    std::unordered_set<connection_base*> connections;
    std::string log_lines;  // pending request log, flushed in batches
    stored_answers answers;  // of published documents, replayed to the same question
    asio::io_context ioc;
    asio::basic_waitable_timer<steady, asio::wait_traits<steady>, loop_executor> sweeper;
};

// The answer to a request whose framing, target, client or body is refused, or nothing.
std::optional<std::string> refuse_transfer_coding(request const& head);  // RFC 9112 §6.1
std::optional<std::string> refuse_host(request const& head);             // RFC 9112 §3.2
// What an Expect field asks (RFC 9110 §10.1.1): nothing (none, or HTTP/1.0, where it is ignored), the
// interim 100 Continue before the client sends its body, or an expectation no server here meets (417).
enum class expectation { none, continue_first, unmet };
expectation expectation_of(request const& head);
std::optional<response> refuse_folded_line(asio::const_buffer bytes);  // obs-fold in the header block at its start
std::size_t per_address_cap(server_options const& o);

// The whole 503 written to a connection refused for lack of a slot, with the default headers.
std::string const& busy_connection_answer();

// What is checked of a complete request before it is answered: the target limit and the rate
// limit. The refusal, or nothing. `client` receives the client's address (X-Forwarded-For from a
// trusted proxy); `route` names the route for the metrics of a refusal; `linger` is set when the
// connection must close after answering (the target was too long to trust what follows).
std::optional<response> admit(connection_shared& shared, request const& req, std::string const& peer,
                              std::string& client, std::string_view& route, bool& linger);
// Answers an admitted request: the router on `snapshot` (and the archive, whose answers may come
// later). `route` names the matched route for the metrics.
answer answer_request(connection_shared& shared, std::shared_ptr<const snapshot::snapshot> snapshot,
                      request const& req, std::string const& client, std::string_view& route);
// The checks made when a request's headers are in and before a byte of its body is buffered.
// `reserved` is set to who the body is charged to (the address X-Forwarded-For names from a
// trusted proxy, else `peer`), with nothing taken yet.
std::optional<response> refuse_body(connection_shared& shared, beast_http::request_parser<received_body>& parser,
                                    std::string const& peer, body_reservation& reserved);
// Charges the body's memory so far (its capacity) to the whole server's budget and the client's
// share, as its bytes arrive: past either, the 503 that ends the request. Given back, all of it,
// with release_body_budget.
std::optional<response> hold_body(connection_shared& shared, beast_http::request_parser<received_body>& parser,
                                  body_reservation& reserved);
void release_body_budget(connection_shared& shared, body_reservation& reserved);
// The most body bytes one client may have in flight: the option, else a quarter of the budget.
std::uint64_t body_budget_per_client(server_options const& o);

// The response to a request the parser could not read (431, 413 or 400).
response unreadable_request(beast::error_code ec);

// What a connection needs of its stream beyond reading and writing; specialised per stream type
// (the tests specialise it for beast::test::stream).
template <class Stream>
struct transport;

template <>
struct transport<tcp_socket> {
    static std::string peer(tcp_socket const& s);
    static void tune(tcp_socket& s);  // no Nagle delay: a response is written at once
    // The bytes the kernel holds that the reader has not acknowledged, when it can tell.
    static std::optional<std::size_t> unsent(tcp_socket& s);
    static void shutdown_send(tcp_socket& s);
    static void close(tcp_socket& s);
    // sendfile: the bytes of `fd` from `offset` the socket takes now without blocking, 0 when it
    // is full, nothing on an error (the peer is gone).
    static std::optional<std::size_t> send_file_some(tcp_socket& s, int fd, std::uint64_t offset, std::size_t count);
};

// Whether a stream can send from a file (a socket can; the tests' stream cannot).
template <class Stream>
concept sends_files = requires(Stream& s) { transport<Stream>::send_file_some(s, 0, 0, 0); };

// One connection: read a request, answer it, repeat. Lives on its event loop's thread only.
template <class Stream>
class connection : public connection_base, public std::enable_shared_from_this<connection<Stream>> {
public:
    // `slot_taken`: the connection holds one of its address's slots, given back when it ends.
    connection(Stream&& stream, event_loop& home, bool slot_taken)
        : stream_(std::move(stream)), loop_(home), shared_(home.shared), slot_taken_(slot_taken)
    {
        peer_ = transport<Stream>::peer(stream_);
        ops::metrics::instance().connection_opened();
        shared_.live_connections.fetch_add(1, std::memory_order_relaxed);
    }
    ~connection() override
    {
        release_body_budget(shared_, body_reserved_);
        if (slot_taken_)
            shared_.slots.give_back(peer_);
        loop_.connections.erase(this);
        ops::metrics::instance().connection_closed();
        shared_.live_connections.fetch_sub(1, std::memory_order_relaxed);
    }

    void start()
    {
        loop_.connections.insert(this);
        transport<Stream>::tune(stream_);
        await_request(shared_.options.header_timeout);
    }

    void close_when_idle() override
    {
        closing_ = true;
        if (!busy_)
            transport<Stream>::close(stream_);
    }

    steady::time_point idle_since() const override { return busy_ || writing_ ? steady::time_point::max() : idle_since_; }

    void expire_if_due(steady::time_point now) override
    {
        // Looked at on every sweep while writing, so that header_timeout counts from the reader's
        // last progress (to a sweep), not from the deadline's first look: a reader that stops is
        // dropped after the documented time, not twice it. A deadline held open (an answer or a part
        // being made off the loop) stays so.
        if (writing_ && deadline_ != steady::time_point::max() && unsent_moved())
            deadline_ = now + shared_.options.header_timeout;  // the reader is slow, not gone
        if (now >= deadline_)
            transport<Stream>::close(stream_);
    }

private:
    // Between requests a client may stay silent up to `wait`; once the first byte of a request
    // arrives, the whole request must follow within the header timeout.
    void await_request(std::chrono::seconds wait)
    {
        parser_.emplace();
        parser_->header_limit(static_cast<std::uint32_t>(shared_.options.header_limit));
        parser_->body_limit(shared_.options.body_limit);
        // Chunk extensions have no use here and are a known smuggling vector.
        parser_->on_chunk_header(refuse_extensions_);
        request_started_ = false;
        body_checked_ = false;
        if (buffer_.size() > 0)
            return parse_buffered();  // a pipelined request is already here
        idle_since_ = coarse_now();
        deadline_ = idle_since_ + wait;
        read_more();
    }

    void read_more()
    {
        stream_.async_read_some(buffer_.prepare(read_size), [self = this->shared_from_this()](beast::error_code ec, std::size_t n) {
            if (ec)
                return self->do_close();  // end of stream, reset, or closed by the sweep
            self->buffer_.commit(n);
            self->parse_buffered();
        });
    }

    // Feeds what has arrived to the parser: answers a complete request, or reads more.
    void parse_buffered()
    {
        if (!request_started_) {
            request_started_ = true;
            idle_since_ = steady::time_point::max();
            deadline_ = coarse_now() + shared_.options.header_timeout;
        }
        while (buffer_.size() > 0 && !parser_->is_done()) {
            if (!parser_->is_header_done())
                if (auto refusal = refuse_folded_line(buffer_.data()))
                    return reply_refused(std::move(*refusal), "(refused body)");
            beast::error_code ec;
            auto const used = parser_->put(buffer_.data(), ec);
            buffer_.consume(used);
            if (ec == beast_http::error::need_more)
                break;
            if (ec)
                return reply_refused(unreadable_request(ec), "(unreadable)");
            if (!body_checked_ && parser_->is_header_done()) {
                body_checked_ = true;
                if (auto refusal = refuse_body(shared_, *parser_, peer_, body_reserved_))
                    return reply_refused(std::move(*refusal), "(refused body)");
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
        if (parser_->is_done())
            return respond();
        read_more();
    }

    // The interim answer to Expect: 100-continue, then the body is read as any other.
    void send_continue()
    {
        static constexpr std::string_view line = "HTTP/1.1 100 Continue\r\n\r\n";
        asio::async_write(stream_, asio::buffer(line.data(), line.size()),
                          [self = this->shared_from_this()](beast::error_code ec, std::size_t) {
                              if (ec)
                                  return self->do_close();
                              self->read_more();
                          });
    }

    void respond()
    {
        busy_ = true;
        release_body_budget(shared_, body_reserved_);
        auto const started = steady::now();
        request req = parser_->release();
        std::string_view route;
        if (auto refused = admit(shared_, req, peer_, client_, route, linger_))
            return finish(req, route, started, std::move(*refused));
        auto snapshot = shared_.snapshots.get();
        if (!closing_)
            if (auto const stored = loop_.answers.find(req, snapshot))
                return replay(req, *stored, started);
        answer given = answer_request(shared_, snapshot, req, client_, route);
        if (given.later)
            return await_answer(std::move(req), route, started, std::move(given.later));
        finish(req, route, started, std::move(given.now), &snapshot);
    }

    // The answer stored for the same question on the same snapshot, written again as it was.
    void replay(request const& req, stored_answers::found const& stored, steady::time_point started)
    {
        auto const& a = *stored.answer;
        bool const head_only = req.method() == beast_http::verb::head;
        record(req, a.route, static_cast<unsigned>(beast_http::status::ok), head_only ? 0 : a.body.size(), started);
        keep_alive_ = true;
        if constexpr (sends_files<Stream>) {
            if (a.file) {
                file_ = a.file;
                file_size_ = a.head.size() + (head_only ? 0 : a.body.size());
                written_ = 0;
                return send_from_file();
            }
        }
        head_.assign(a.head);
        body_owner_ = stored.owner;
        body_ = head_only ? std::string_view{} : a.body;
        start_writing();
    }

    // A write begins: it has header_timeout to make progress, and the sweep has not looked at it yet.
    void begin_write()
    {
        deadline_ = coarse_now() + shared_.options.header_timeout;
        writing_ = true;
        unsent_seen_ = std::numeric_limits<std::size_t>::max();
    }

    // A stored answer's memory file goes to the socket with sendfile, as much as it takes now; the
    // rest once it is writable again. A long one yields to the other connections every write_chunk.
    void send_from_file()
    {
        begin_write();
        std::size_t const end = std::min(file_size_, written_ + write_chunk);
        while (written_ < end) {
            auto const sent = transport<Stream>::send_file_some(stream_, file_->fd(), written_, end - written_);
            if (!sent) {
                writing_ = false;
                return do_close();
            }
            if (*sent == 0)
                break;
            written_ += *sent;
        }
        if (written_ == file_size_) {
            // Posted, as a write's completion is: pipelined requests answered from files must not
            // nest calls.
            return asio::post(loop_.ioc, [self = this->shared_from_this()] {
                self->writing_ = false;
                self->file_.reset();
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

    // The one hook for answers given later (a week's inputs read off the event loop): the response
    // comes back to this connection's own loop, and the connection reads nothing meanwhile. Its
    // deadline waits, since the archive answers (at worst 503) within its own timeout.
    void await_answer(request req, std::string_view route, steady::time_point started, deferred later)
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

    // Writes a response the router (or a refusal) made; one for a published document is stored for
    // the next time the same is asked on `snapshot`.
    void finish(request const& req, std::string_view route, steady::time_point started, response res,
                std::shared_ptr<const snapshot::snapshot> const* snapshot = nullptr)
    {
        if (closing_)
            res.keep_alive(false);
        bool const head_only = req.method() == beast_http::verb::head;
        bool const in_parts = !head_only && res.body().source();
        record(req, route, res.result_int(), head_only ? 0 : res.body().size(), started, in_parts);
        write(std::move(res), head_only);
        if (snapshot)
            loop_.answers.keep(req, *snapshot, response_, route, head_);
    }

    // The metrics of an answer and, every log_every requests, its log line. A body sent in parts
    // is logged once its parts are out (or the connection ends), with the bytes they held.
    void record(request const& req, std::string_view route, unsigned status, std::size_t sent, steady::time_point started,
                bool in_parts = false)
    {
        auto const took = std::chrono::duration_cast<std::chrono::microseconds>(steady::now() - started);
        ops::metrics::instance().record_request(route, status, took);
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

    void log(request_log_entry const& entry)
    {
        append_log_line(entry, loop_.log_lines);
        if (loop_.log_lines.size() >= log_batch_bytes)
            loop_.flush_log();
    }

    // The log line of a body sent in parts, once they are out or the connection ends.
    void log_parts_sent()
    {
        if (!parts_log_)
            return;
        auto const& p = *parts_log_;
        log({p.method, p.target, p.status, p.bytes, client_, p.took});
        parts_log_.reset();
    }

    // Answers from the headers and closes: the body is never read (lingering drains what is sent).
    void reply_refused(response res, std::string_view why)
    {
        busy_ = true;
        res.keep_alive(false);
        linger_ = true;
        ops::metrics::instance().record_request(why, res.result_int(), steady::duration::zero());
        bool const head = parser_ && parser_->is_header_done() && parser_->get().method() == beast_http::verb::head;
        // What was received of a refused body is let go now, not when the lingering ends.
        if (parser_)
            std::string().swap(parser_->get().body());
        release_body_budget(shared_, body_reserved_);
        write(std::move(res), head);
    }

    // Whether the kernel's queue of bytes not yet acknowledged by the reader changed since the last
    // look. A write completes only when a large send buffer is a third empty, which a slow reader
    // may take longer than the deadline to reach; this sees its progress before that. The queue
    // shrinks as the reader takes bytes and grows only as the kernel takes more of ours, which it
    // does only once the reader made room: either way the reader is there.
    bool unsent_moved()
    {
        auto const unsent = transport<Stream>::unsent(stream_);
        if (!unsent)
            return false;
        bool const moved = *unsent != unsent_seen_;
        unsent_seen_ = *unsent;
        return moved;
    }

    // A HEAD answer is the head alone: its Content-Length is that of the body a GET would get.
    void write(response&& res, bool head_only)
    {
        response_ = std::move(res);
        source_ = response_.body().source();
        if (source_)
            frame_parts();
        write_head(response_, head_);
        if (head_only)
            source_.reset();
        body_ = head_only ? std::string_view{} : response_.body().view();
        keep_alive_ = response_.keep_alive();
        start_writing();
    }

    void start_writing()
    {
        written_ = 0;
        write_more();
    }

    // A body sent in parts (payload.hpp) with no Content-Length: chunked for an HTTP/1.1 client;
    // an HTTP/1.0 client reads it to the end of the connection.
    void frame_parts()
    {
        chunked_ = false;
        chunk_open_ = false;
        if (response_.find(beast_http::field::content_length) != response_.end())
            return;
        if (response_.version() >= 11) {
            response_.set(beast_http::field::transfer_encoding, "chunked");
            chunked_ = true;
        } else {
            response_.keep_alive(false);
        }
    }

    // The next part, asked for once the one before is written, so the connection holds one part at
    // a time. Its deadline waits meanwhile, as for an answer given later: the source answers within
    // its own timeout, with a failed part at worst.
    void pull_part()
    {
        deadline_ = steady::time_point::max();
        source_->next([self = this->shared_from_this()](body_part part) mutable {
            auto& loop = self->loop_.ioc;
            asio::post(loop, [self = std::move(self), part = std::move(part)]() mutable { self->send_part(std::move(part)); });
        });
    }

    // A part that failed closes the connection: the client sees a body shorter than its
    // Content-Length, or a chunked body without its last chunk, never one that looks complete.
    void send_part(body_part part)
    {
        if (part.failed)
            return do_close();
        bool const last = part.bytes.empty();
        head_.clear();
        if (chunked_) {
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

    static void append_chunk_size(std::string& out, std::size_t size)
    {
        char digits[2 * sizeof size];
        auto const end = std::to_chars(digits, digits + sizeof digits, size, 16).ptr;
        out.append(digits, end);
    }

    // The head and the body leave in gathered writes of at most write_chunk bytes. Each one that
    // completes restarts the deadline: a slow reader is served at its pace, one that stops reading
    // for header_timeout is dropped. Most answers are one write.
    void write_more()
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
    void written_all()
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

    void do_close()
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

    void drain()
    {
        buffer_.clear();
        stream_.async_read_some(buffer_.prepare(read_size), [self = this->shared_from_this()](beast::error_code ec, std::size_t) {
            if (ec)
                return transport<Stream>::close(self->stream_);
            self->drain();
        });
    }

    static constexpr std::size_t read_size = 4096;
    static constexpr std::size_t write_chunk = 256 * 1024;
    static constexpr std::size_t log_batch_bytes = 32 * 1024;  // request log lines are written in batches

    Stream stream_;
    event_loop& loop_;
    connection_shared& shared_;
    beast::flat_buffer buffer_;
    std::optional<beast_http::request_parser<received_body>> parser_;
    std::function<void(std::uint64_t, boost::string_view, beast::error_code&)> refuse_extensions_ =
        [](std::uint64_t, boost::string_view extensions, beast::error_code& ec) {
            if (!extensions.empty())
                ec = beast_http::error::bad_chunk_extension;
        };
    response response_;
    std::string head_;
    std::string_view body_;  // of response_, of body_owner_ or of part_, or empty for HEAD
    std::shared_ptr<const void> body_owner_;  // the document of a replayed answer
    std::shared_ptr<const memory_file> file_;  // a replayed answer's file, while it is sent
    std::size_t file_size_ = 0;                // of it, to send: the head alone for HEAD
    bool keep_alive_ = true;  // after this answer
    std::shared_ptr<body_source> source_;  // of a body sent in parts, until its last part
    std::shared_ptr<const void> part_;     // keeps the part being written alive
    struct parts_log {                     // the request log line of a body sent in parts
        std::string method;
        std::string target;
        unsigned status;
        std::chrono::microseconds took;
        std::size_t bytes;  // of the parts handed to the socket so far
    };
    std::optional<parts_log> parts_log_;
    bool chunked_ = false;                 // its parts are framed as chunks
    bool chunk_open_ = false;              // a chunk's data was written, not yet its line end
    std::size_t written_ = 0;  // of head_ and body_
    std::array<asio::const_buffer, 2> parts_{};  // what the write in progress sends
    bool writing_ = false;
    std::size_t unsent_seen_ = 0;  // the kernel's unsent bytes at the sweep's last look
    std::string peer_;
    std::string client_;
    steady::time_point deadline_;
    steady::time_point idle_since_ = steady::time_point::max();  // see idle_since()
    bool request_started_ = false;
    bool slot_taken_ = false;
    bool body_checked_ = false;        // the headers of this request were checked for a body
    body_reservation body_reserved_;  // of the shared budget, while its body is read
    bool busy_ = false;
    bool closing_ = false;
    bool linger_ = false;
};

extern template class connection<tcp_socket>;

}
