#pragma once

// The one place that knows the wire: framing, limits, timeouts, keep-alive and writing of an
// HTTP/1.1 connection. Everything above it sees a parsed `request` and returns a `response`.
// Include this file; it includes its parts: event_loop.hpp (what the connections share, their loop
// and its sweep), admission.hpp (the checks and budgets a request passes), transport.hpp (what is
// asked of the socket), connection_reading.hpp and connection_writing.hpp (the connection's sides).
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
//   So does the end of a body that the payload says is kept for long (payload::end_with: an MCP
//   reply's tool list or default prices), after the head and the rest of the body in one send.
//   A body that arrives in parts (payload.hpp body_source: a
//   week's inputs read a chunk at a time) is pulled a part at a time, each once the one before is
//   written, framed by its Content-Length, else chunked (HTTP/1.0: by closing). HEAD
//   is answered here, for every route: the handler's head, Content-Length of the full body, no body.
// - Answering again. Beast has no counterpart. Here: the answer to a plain question for a published
//   document or an operation's computed answer is kept by the event loop as the bytes of its head
//   and a view of the body, and replayed to the same question on the same snapshot without the
//   router (stored_answers.hpp), as nginx serves a static file from its open-file cache: about a
//   quarter less CPU per /v1/prices request (row "GET /v1/prices").
// - Closing. Beast: `shutdown(send)`. The same, and after a refused request the connection lingers
//   briefly draining what the client still sends, so the answer is not lost to a reset.
// - Threads. Beast: a strand per connection on a shared io_context. Here: one io_context per
//   thread owning its connections, no strands and no type-erased executors (row "GET /v1/prices").

#include "server/http/admission.hpp"
#include "server/http/event_loop.hpp"
#include "server/http/router.hpp"
#include "server/http/server.hpp"
#include "server/http/stored_answers.hpp"
#include "server/http/transport.hpp"
#include "server/http/wire.hpp"
#include "server/ops/metrics.hpp"

#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/parser.hpp>

#include <algorithm>
#include <array>
#include <charconv>
#include <chrono>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>

namespace lcg::http {

// One connection: read a request, answer it, repeat. Lives on its event loop's thread only.
// Its private member functions are defined in connection_reading.hpp and connection_writing.hpp,
// inline, as they were when defined in the class.
template <class Stream>
class connection : public connection_base, public std::enable_shared_from_this<connection<Stream>> {
public:
    // `peer`: the address as the acceptor read it; `slot_taken`: the connection holds one of that
    // address's slots, given back under the same name when it ends (read again, after a reset the
    // address would be "unknown" and the slot never given back).
    connection(Stream&& stream, event_loop& home, std::string peer, bool slot_taken)
        : stream_(std::move(stream)), loop_(home), shared_(home.shared), peer_(std::move(peer)), slot_taken_(slot_taken)
    {
        shared_.metrics.connection_opened();
        shared_.live_connections.fetch_add(1, std::memory_order_relaxed);
    }
    ~connection() override
    {
        release_body_budget(shared_, body_reserved_);
        if (slot_taken_)
            shared_.slots.give_back(peer_);
        loop_.connections.erase(this);
        shared_.metrics.connection_closed();
        shared_.live_connections.fetch_sub(1, std::memory_order_relaxed);
    }

    void start()
    {
        loop_.connections.insert(this);
        transport<Stream>::tune(stream_);
        await_request(shared_.options.header_timeout);
    }

    // A request whose first bytes arrived is in flight: it is answered, then the connection closes.
    void close_when_idle() override
    {
        closing_ = true;
        if (!busy_ && !request_started_)
            transport<Stream>::close(stream_);
    }

    // A connection told to close is no longer a candidate: it leaves the loop's set only once its
    // cancelled read returns, and a second eviction must pick another.
    steady::time_point idle_since() const override
    {
        return busy_ || writing_ || closing_ ? steady::time_point::max() : idle_since_;
    }

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
    // Reading a request and answering it (connection_reading.hpp).
    void await_request(std::chrono::seconds wait);
    void read_more();
    void parse_buffered();
    void send_continue();
    void respond();
    void replay(request const& req, stored_answers::found const& stored, steady::time_point started);
    void await_answer(request req, std::string_view route, steady::time_point started, deferred later);
    void finish(request const& req, std::string_view route, steady::time_point started, response res);
    void record(request const& req, std::string_view route, unsigned status, std::size_t sent, steady::time_point started,
                bool in_parts = false);
    void log(request_log_entry const& entry);
    void log_parts_sent();
    void reply_refused(response res, std::string_view why);

    // Writing the answer and closing (connection_writing.hpp).
    void begin_write();
    void send_from_file();
    bool unsent_moved();
    void write(response&& res, bool head_only);
    void start_writing();
    void frame_parts();
    void pull_part();
    void send_part(body_part part);
    static void append_chunk_size(std::string& out, std::size_t size);
    void write_more();
    void written_all();
    void do_close();
    void drain();

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
    std::size_t head_bytes_ = 0;  // of head_, the head alone: a body's lead may follow (write)
    std::string_view body_;  // of response_, of body_owner_ or of part_, or empty for HEAD
    std::shared_ptr<const void> body_owner_;  // the document of a replayed answer
    std::shared_ptr<const memory_file> file_;  // a replayed answer's file, or a body's end, while it is sent
    std::size_t file_size_ = 0;                // of it, to send: the head alone for HEAD
    std::size_t from_memory_ = 0;              // of head_, sent before the file (a body's end in a file)
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
    // How its end is known: by its Content-Length, its last chunk, or (HTTP/1.0) the connection's end.
    enum class parts_framing { length, chunks, end_of_connection } framing_ = parts_framing::length;
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
    std::size_t header_bytes_ = 0;     // of this request's header block, taken in by the parser
    std::size_t fields_at_header_ = 0;  // fields when the headers were done (trailers add more)
    body_reservation body_reserved_;  // of the shared budget, while its body is read
    bool busy_ = false;
    bool closing_ = false;
    bool linger_ = false;
};

}

#include "server/http/connection_reading.hpp"
#include "server/http/connection_writing.hpp"

namespace lcg::http {

extern template class connection<tcp_socket>;

}
