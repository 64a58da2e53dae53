#include "server/http/server.hpp"

#include "server/http/forwarded.hpp"

#include "server/http/response.hpp"
#include "server/http/wire.hpp"
#include "server/ops/metrics.hpp"

#include <boost/asio/dispatch.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/string.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/json.hpp>
#include <boost/range/iterator_range.hpp>

#include <linux/sockios.h>
#include <sys/ioctl.h>
#include <sys/resource.h>

#include <array>
#include <atomic>
#include <cstdio>
#include <limits>
#include <mutex>
#include <optional>
#include <utility>
#include <span>
#include <thread>
#include <unordered_set>
#include <vector>

namespace lcg::http {

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
using tcp = asio::ip::tcp;
using clock = std::chrono::steady_clock;

// Each worker thread runs its own io_context and owns its connections outright: no strands, no
// locks and no type-erased executors on the path of a request (the nginx model of one event
// loop per worker). Only accepting, shutdown and the rate limiter cross threads.
using executor = asio::io_context::executor_type;
using socket_type = asio::basic_stream_socket<tcp, executor>;
using timer_type = asio::basic_waitable_timer<clock, asio::wait_traits<clock>, executor>;

// How often a worker looks for connections past their deadline: timeouts are whole seconds, so a
// quarter-second sweep keeps them within 25 % while costing nothing per request.
constexpr auto sweep_interval = std::chrono::milliseconds(250);
// Request log lines are written in batches of about this size, and at least every sweep.
constexpr std::size_t log_batch_bytes = 32 * 1024;

std::mutex stdout_mutex;

void write_log(std::string& lines)
{
    if (lines.empty())
        return;
    std::lock_guard lock(stdout_mutex);
    std::fwrite(lines.data(), 1, lines.size(), stdout);
    std::fflush(stdout);
    lines.clear();
}

class session;
struct shared_state;

// One event loop and the connections it serves.
struct worker {
    explicit worker(shared_state& s) : state(s), ioc(1), sweeper(ioc.get_executor()) {}

    void sweep();

    shared_state& state;
    // Declared before the io_context: sessions still queued in it when it is destroyed leave
    // this set in their destructors.
    std::unordered_set<session*> sessions;  // touched only on this worker's thread
    std::string log_lines;                  // pending request log, flushed in batches
    asio::io_context ioc;
    timer_type sweeper;
};

// What all workers share: settings, the snapshot cell and the rate limiter.
// How many connections each address holds, shared by the acceptor (which takes a slot) and the
// workers (whose sessions give it back).
class address_slots {
public:
    bool take(std::string const& address, std::size_t cap)
    {
        std::lock_guard lock(mutex_);
        auto& held = held_[address];
        if (held >= cap)
            return false;
        ++held;
        return true;
    }
    void give_back(std::string const& address)
    {
        std::lock_guard lock(mutex_);
        if (auto it = held_.find(address); it != held_.end() && --it->second == 0)
            held_.erase(it);
    }

private:
    std::mutex mutex_;
    std::unordered_map<std::string, std::size_t> held_;
};

struct shared_state {
    server_options options;
    snapshot::holder const& snapshots;
    std::optional<ops::rate_limiter> limiter;
    std::atomic<std::uint64_t> request_counter{0};
    std::atomic<long> live_sessions{0};
    std::atomic<std::uint64_t> body_bytes_reserved{0};  // of options.body_budget
    address_slots slots{};  // per address, for max_connections_per_address
};

// Why a request's Transfer-Encoding cannot frame it (RFC 9112 §6.1), or nothing: a request body is
// framed only by chunked as the final coding, never in HTTP/1.0 and never across a folded line.
// A request whose framing is unclear is refused, so no proxy in front can read it otherwise.
std::optional<std::string> refuse_transfer_coding(request const& head)
{
    if (head.find(beast_http::field::transfer_encoding) == head.end())
        return std::nullopt;  // nearly every request: nothing to build
    std::string codings;
    for (auto const& field : boost::make_iterator_range(head.equal_range(beast_http::field::transfer_encoding)))
        codings += (codings.empty() ? "" : ",") + std::string(field.value());
    if (head.version() < 11)
        return "Transfer-Encoding is not allowed in an HTTP/1.0 request";
    if (codings.find_first_of("\r\n") != std::string::npos)
        return "a Transfer-Encoding folded over several lines is refused";
    std::string_view last = codings;
    last = last.substr(last.rfind(',') == std::string_view::npos ? 0 : last.rfind(',') + 1);
    while (!last.empty() && (last.front() == ' ' || last.front() == '\t'))
        last.remove_prefix(1);
    while (!last.empty() && (last.back() == ' ' || last.back() == '\t'))
        last.remove_suffix(1);
    if (!beast::iequals(last, "chunked"))
        return "a request's Transfer-Encoding must end with chunked";
    return std::nullopt;
}

// Whether the header block at the start of `bytes` (all of them when its end has not arrived) folds
// a line: a line break followed by a space or a tab (obs-fold, RFC 9112 §5.2). The parser would
// unfold it silently; a proxy in front might not, so the request is refused instead.
bool has_folded_line(asio::const_buffer bytes)
{
    std::string_view const text(static_cast<char const*>(bytes.data()), bytes.size());
    std::string_view const head = text.substr(0, text.find("\r\n\r\n"));
    for (std::size_t at = head.find('\n'); at != std::string_view::npos; at = head.find('\n', at + 1))
        if (at + 1 < head.size() && (head[at + 1] == ' ' || head[at + 1] == '\t'))
            return true;
    return false;
}

// A connection's peer address as text, "unknown" when the socket cannot tell.
std::string peer_of(socket_type const& socket)
{
    beast::error_code ec;
    auto const endpoint = socket.remote_endpoint(ec);
    return ec ? "unknown" : endpoint.address().to_string();
}

std::size_t per_address_cap(server_options const& o)
{
    return o.max_connections_per_address != 0 ? o.max_connections_per_address
                                               : std::max<std::size_t>(8, o.max_connections / 16);
}

// The client a request is accounted to (forwarded.hpp says who that is behind trusted proxies).
std::string client_of(shared_state const& state, request const& req, std::string const& peer)
{
    std::vector<std::string_view> forwarded_for;
    for (auto const& field : boost::make_iterator_range(req.equal_range("X-Forwarded-For")))
        forwarded_for.push_back(field.value());
    return forwarded_client(peer, forwarded_for, state.options.trusted_proxies);
}

response too_many_requests(request const& req, ops::rate_decision const& d, ops::rate_limit_options const& o)
{
    std::string const detail = "too many requests from this address; retry after " +
                               std::to_string(d.retry_after_seconds) + " s";
    response res;
    if (req.target().starts_with("/mcp")) {
        // An MCP client understands a JSON-RPC error better than a problem document.
        res = base_response(req, beast_http::status::too_many_requests);
        res.set(beast_http::field::content_type, "application/json");
        res.body() = boost::json::serialize(boost::json::object{
                         {"jsonrpc", "2.0"},
                         {"id", nullptr},
                         {"error", {{"code", -32000}, {"message", detail}}}}) +
                     "\n";
        res.prepare_payload();
    } else {
        res = problem(req, beast_http::status::too_many_requests, detail);
    }
    long const window = static_cast<long>(o.burst / o.per_second + 0.5);
    res.set(beast_http::field::retry_after, std::to_string(d.retry_after_seconds));
    res.set("RateLimit-Policy", "\"per-address\";q=" + std::to_string(static_cast<long>(o.burst)) +
                                    ";w=" + std::to_string(std::max(1L, window)));
    res.set("RateLimit", "\"per-address\";r=" + std::to_string(d.remaining) + ";t=" +
                             std::to_string(d.reset_seconds));
    return res;
}

// One connection: read a request, answer it, repeat. Lives on its worker's thread only.
class session : public std::enable_shared_from_this<session> {
public:
    // `slot_taken`: the connection holds one of its address's slots, given back when it ends.
    session(socket_type&& socket, worker& home, bool slot_taken)
        : socket_(std::move(socket)), worker_(home), state_(home.state), slot_taken_(slot_taken)
    {
        peer_ = peer_of(socket_);
        ops::metrics::instance().connection_opened();
        state_.live_sessions.fetch_add(1, std::memory_order_relaxed);
    }
    ~session()
    {
        release_body();
        if (slot_taken_)
            state_.slots.give_back(peer_);
        worker_.sessions.erase(this);
        ops::metrics::instance().connection_closed();
        state_.live_sessions.fetch_sub(1, std::memory_order_relaxed);
    }

    void start()
    {
        worker_.sessions.insert(this);
        beast::error_code ec;
        socket_.set_option(tcp::no_delay(true), ec);  // a response is one write; never hold it back
        await_request(state_.options.header_timeout);
    }

    // Shutdown: an idle connection closes now, a busy one after its reply.
    void close_when_idle()
    {
        closing_ = true;
        if (!busy_)
            close_socket();
    }

    // Called by the worker's sweep: a connection past its deadline is closed, which ends its
    // pending read or write with an error.
    void expire_if_due(clock::time_point now)
    {
        if (now < deadline_)
            return;
        if (writing_ && unsent_shrank()) {
            deadline_ = now + state_.options.header_timeout;  // the reader is slow, not gone
            return;
        }
        close_socket();
    }

private:
    // Between requests a client may stay silent up to `wait`; once the first byte of a request
    // arrives, the whole request must follow within the header timeout.
    void await_request(std::chrono::seconds wait)
    {
        parser_.emplace();
        parser_->header_limit(static_cast<std::uint32_t>(state_.options.header_limit));
        parser_->body_limit(state_.options.body_limit);
        // Chunk extensions have no use here and are a known smuggling vector.
        parser_->on_chunk_header(refuse_extensions_);
        request_started_ = false;
        body_checked_ = false;
        if (buffer_.size() > 0)
            return parse_buffered();  // a pipelined request is already here
        deadline_ = clock::now() + wait;
        read_more();
    }

    void read_more()
    {
        socket_.async_read_some(buffer_.prepare(read_size), [self = shared_from_this()](beast::error_code ec, std::size_t n) {
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
            deadline_ = clock::now() + state_.options.header_timeout;
        }
        while (buffer_.size() > 0 && !parser_->is_done()) {
            if (!parser_->is_header_done() && has_folded_line(buffer_.data()))
                return reply_refused(problem(request{}, beast_http::status::bad_request,
                                             "a header folded over several lines (obs-fold) is refused"));
            beast::error_code ec;
            auto const used = parser_->put(buffer_.data(), ec);
            buffer_.consume(used);
            if (ec == beast::http::error::need_more)
                break;
            if (ec)
                return reply_to_unreadable(ec);
            if (!body_checked_ && parser_->is_header_done()) {
                body_checked_ = true;
                if (auto refusal = refuse_body())
                    return reply_refused(std::move(*refusal));
            }
            if (used == 0)
                break;
        }
        if (parser_->is_done())
            return respond();
        read_more();
    }

    void respond()
    {
        busy_ = true;
        release_body();
        auto const started = clock::now();
        request req = parser_->release();
        std::string_view route;
        http::answer given = answer(req, route);
        if (given.later)
            return await_answer(std::move(req), route, started, std::move(given.later));
        finish(req, route, started, std::move(given.now));
    }

    // The one hook for answers given later (a week's inputs read off the event loop): the response
    // comes back to this connection's own loop, and the connection reads nothing meanwhile. The
    // deadline waits, since the archive answers (at worst 503) within its own timeout.
    void await_answer(request req, std::string_view route, clock::time_point started, deferred later)
    {
        deadline_ = clock::time_point::max();
        auto held = std::make_shared<request>(std::move(req));
        later([self = shared_from_this(), held, route, started](response res) mutable {
            auto& loop = self->worker_.ioc;
            asio::post(loop, [self = std::move(self), held, route, started, res = std::move(res)]() mutable {
                self->finish(*held, route, started, std::move(res));
            });
        });
    }

    void finish(request const& req, std::string_view route, clock::time_point started, response res)
    {
        if (closing_)
            res.keep_alive(false);
        auto const took = std::chrono::duration_cast<std::chrono::microseconds>(clock::now() - started);
        ops::metrics::instance().record_request(route, res.result_int(), took);
        if (state_.options.log_every > 0 &&
            state_.request_counter.fetch_add(1, std::memory_order_relaxed) % state_.options.log_every == 0)
            log(req, res, took);
        write(std::move(res));
    }

    void log(request const& req, response const& res, std::chrono::microseconds took)
    {
        append_log_line({req.method_string(), req.target(), res.result_int(), res.body().size(), client_, took},
                        worker_.log_lines);
        if (worker_.log_lines.size() >= log_batch_bytes)
            write_log(worker_.log_lines);
    }

    http::answer answer(request const& req, std::string_view& route)
    {
        if (req.target().size() > state_.options.target_limit) {
            route = "(unmatched)";
            auto res = problem(req, beast_http::status::uri_too_long,
                               "the request target is longer than " + std::to_string(state_.options.target_limit) +
                                   " bytes");
            res.keep_alive(false);
            linger_ = true;
            return res;
        }
        client_ = client_of(state_, req, peer_);
        if (state_.limiter && (state_.limiter->options().limit_loopback || !ops::is_loopback(client_))) {
            auto const decision = state_.limiter->take(client_);
            if (!decision.allowed) {
                route = route_pattern(req.target());
                ops::metrics::instance().record_rate_limited();
                return too_many_requests(req, decision, state_.limiter->options());
            }
        }
        return handle_deferrable(req,
                                 {state_.snapshots.get(),
                                  std::chrono::time_point_cast<std::chrono::seconds>(std::chrono::system_clock::now()),
                                  state_.options.max_snapshot_age, state_.options.mcp_policy,
                                  state_.snapshots.checked_at(), state_.snapshots.upstream(), state_.options.archive},
                                 &route);
    }

    // Decided from the headers, before a byte of the body is buffered: a body on a route that takes
    // none is refused, and one that would take the server past its budget of body bytes waits for
    // a retry. A body that is accepted holds its share of the budget until the request is read.
    std::optional<response> refuse_body()
    {
        if (auto const framing = refuse_transfer_coding(parser_->get()))
            return problem(parser_->get(), beast_http::status::bad_request, *framing);
        auto const length = parser_->content_length();
        if (!parser_->chunked() && length.value_or(0) == 0)
            return std::nullopt;
        if (auto refusal = refuse_unwanted_body(parser_->get()))
            return refusal;
        std::uint64_t const need = parser_->chunked() ? state_.options.body_limit : *length;
        if (state_.body_bytes_reserved.fetch_add(need) + need > state_.options.body_budget) {
            state_.body_bytes_reserved.fetch_sub(need);
            auto busy = problem(parser_->get(), beast_http::status::service_unavailable,
                                "too many request bodies are being received; retry shortly");
            busy.set(beast_http::field::retry_after, "1");
            return busy;
        }
        body_reserved_ = need;
        return std::nullopt;
    }

    // Whether the kernel's queue of bytes not yet acknowledged by the reader shrank since the last
    // look. A write completes only when a large send buffer is a third empty, which a slow reader
    // may take longer than the deadline to reach; this sees its progress before that.
    bool unsent_shrank()
    {
        int unsent = 0;
        if (ioctl(socket_.native_handle(), SIOCOUTQ, &unsent) != 0 || unsent < 0)
            return false;
        bool const shrank = static_cast<std::size_t>(unsent) < unsent_seen_;
        unsent_seen_ = static_cast<std::size_t>(unsent);
        return shrank;
    }

    void release_body()
    {
        if (body_reserved_ != 0)
            state_.body_bytes_reserved.fetch_sub(body_reserved_);
        body_reserved_ = 0;
    }

    // Answers from the headers and closes: the body is never read (lingering drains what is sent).
    void reply_refused(response res)
    {
        busy_ = true;
        res.keep_alive(false);
        linger_ = true;
        ops::metrics::instance().record_request("(refused body)", res.result_int(), clock::duration::zero());
        write(std::move(res));
    }

    void reply_to_unreadable(beast::error_code ec)
    {
        busy_ = true;
        request req;
        req.version(11);
        req.keep_alive(false);
        auto const status = ec == beast::http::error::header_limit ? beast::http::status::request_header_fields_too_large
                            : ec == beast::http::error::body_limit ? beast::http::status::payload_too_large
                                                                   : beast::http::status::bad_request;
        response res = problem(req, status, "the request could not be read: " + ec.message());
        res.keep_alive(false);
        linger_ = true;
        ops::metrics::instance().record_request("(unreadable)", res.result_int(), clock::duration::zero());
        write(std::move(res));
    }

    // The head and the body leave in one gathered write; the response stays a member until then.
    void write(response&& res)
    {
        response_ = std::move(res);
        write_head(response_, head_);
        written_ = 0;
        write_more();
    }

    // The head and the body leave in gathered writes of at most write_chunk bytes. Each one that
    // completes restarts the deadline: a slow reader is served at its pace, one that stops reading
    // for header_timeout is dropped. Most answers are one write.
    void write_more()
    {
        std::string_view const body = response_.body().view();
        std::size_t const total = head_.size() + body.size();
        std::size_t const end = std::min(total, written_ + write_chunk);
        std::size_t n = 0;
        if (written_ < head_.size())
            parts_[n++] = asio::buffer(head_.data() + written_, std::min(end, head_.size()) - written_);
        if (end > head_.size()) {
            std::size_t const from = std::max(written_, head_.size()) - head_.size();
            parts_[n++] = asio::buffer(body.data() + from, end - head_.size() - from);
        }
        deadline_ = clock::now() + state_.options.header_timeout;
        writing_ = true;
        unsent_seen_ = std::numeric_limits<std::size_t>::max();
        // The buffer sequence is copied by async_write, the buffers it names are not: parts_ is a member.
        asio::async_write(socket_, std::span<asio::const_buffer const>(parts_.data(), n),
                          [self = shared_from_this(), total](beast::error_code ec, std::size_t sent) {
                              self->writing_ = false;
                              if (ec)
                                  return self->do_close();
                              self->written_ += sent;
                              if (self->written_ < total)
                                  return self->write_more();
                              self->busy_ = false;
                              if (!self->response_.keep_alive() || self->closing_)
                                  return self->do_close();
                              self->response_ = {};
                              self->await_request(self->state_.options.idle_timeout);
                          });
    }

    void do_close()
    {
        beast::error_code ec;
        socket_.shutdown(tcp::socket::shutdown_send, ec);
        if (!linger_) {
            close_socket();
            return;
        }
        // After refusing a request the client may still be sending it: closing now would reset the
        // connection and could destroy our answer before it is read. Drain briefly, then close.
        linger_ = false;
        deadline_ = clock::now() + std::chrono::seconds(2);
        drain();
    }

    void drain()
    {
        socket_.async_read_some(asio::buffer(drain_buffer_), [self = shared_from_this()](beast::error_code ec, std::size_t) {
            if (ec)
                return self->close_socket();
            self->drain();
        });
    }

    void close_socket()
    {
        beast::error_code ec;
        socket_.close(ec);
    }

    static constexpr std::size_t read_size = 4096;
    static constexpr std::size_t write_chunk = 256 * 1024;

    socket_type socket_;
    worker& worker_;
    shared_state& state_;
    beast::flat_buffer buffer_;
    std::optional<beast::http::request_parser<beast::http::string_body>> parser_;
    std::function<void(std::uint64_t, boost::string_view, beast::error_code&)> refuse_extensions_ =
        [](std::uint64_t, boost::string_view extensions, beast::error_code& ec) {
            if (!extensions.empty())
                ec = beast::http::error::bad_chunk_extension;
        };
    response response_;
    std::string head_;
    std::size_t written_ = 0;  // of head_ and the body
    std::array<asio::const_buffer, 2> parts_{};  // what the write in progress sends
    bool writing_ = false;
    std::size_t unsent_seen_ = 0;  // the kernel's unsent bytes at the sweep's last look
    std::string peer_;
    std::string client_;
    clock::time_point deadline_;
    bool request_started_ = false;
    bool slot_taken_ = false;
    bool body_checked_ = false;      // the headers of this request were checked for a body
    std::uint64_t body_reserved_ = 0;  // of the shared budget, while its body is read
    bool busy_ = false;
    bool closing_ = false;
    bool linger_ = false;
    std::array<char, 4096> drain_buffer_{};
};

void worker::sweep()
{
    sweeper.expires_after(sweep_interval);
    sweeper.async_wait([this](beast::error_code ec) {
        if (ec)
            return;
        auto const now = clock::now();
        // Closing only cancels the pending operation: the session ends in its handler, so the
        // set is not changed while we walk it.
        for (auto* s : sessions)
            s->expire_if_due(now);
        write_log(log_lines);
        sweep();
    });
}

// Each connection needs a descriptor: take the hard limit so the connection cap, not the
// default of 1,024 descriptors, is what bounds a flood of idle clients.
void raise_descriptor_limit()
{
    rlimit limit{};
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
        limit.rlim_cur = limit.rlim_max;
        setrlimit(RLIMIT_NOFILE, &limit);
    }
}

// Written straight to a refused socket: no session, no parser, no allocation beyond the socket.
std::string const busy_response = [] {
    std::string const body = "{\"type\":\"about:blank\",\"title\":\"Service Unavailable\",\"status\":503,"
                             "\"detail\":\"too many open connections; retry shortly\"}\n";
    return "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/problem+json\r\nConnection: close\r\n"
           "Retry-After: 1\r\nContent-Length: " +
           std::to_string(body.size()) + "\r\n\r\n" + body;
}();

}

struct server::impl {
    impl(server_options o, snapshot::holder const& s)
        : state{std::move(o), s, {}, {}, {}}, workers(make_workers(state)), acceptor(workers.front()->ioc),
          signals(workers.front()->ioc, SIGINT, SIGTERM), drain_timer(workers.front()->ioc)
    {
        if (state.options.rate_limit)
            state.limiter.emplace(*state.options.rate_limit);
        raise_descriptor_limit();
        tcp::endpoint const endpoint{asio::ip::make_address(state.options.address), state.options.port};
        acceptor.open(endpoint.protocol());
        acceptor.set_option(asio::socket_base::reuse_address(true));
        acceptor.bind(endpoint);
        acceptor.listen(asio::socket_base::max_listen_connections);
    }

    static std::vector<std::unique_ptr<worker>> make_workers(shared_state& state)
    {
        std::vector<std::unique_ptr<worker>> out;
        for (int i = 0; i < std::max(1, state.options.threads); ++i)
            out.push_back(std::make_unique<worker>(state));
        return out;
    }

    // Connections are dealt to the workers in turn; each is accepted straight onto its worker's
    // event loop and set up on that worker's thread.
    void do_accept()
    {
        worker& next = *workers[next_worker++ % workers.size()];
        acceptor.async_accept(next.ioc, [this, &next](beast::error_code ec, socket_type socket) {
            if (ec == asio::error::operation_aborted || !acceptor.is_open())
                return;
            if (!ec) {
                // A trusted proxy carries many clients: only other addresses are held to their share.
                std::string const peer = peer_of(socket);
                bool const counted = !is_trusted_proxy(peer, state.options.trusted_proxies);
                if (static_cast<std::size_t>(ops::metrics::instance().open_connections()) >=
                    state.options.max_connections)
                    refuse(std::move(socket));
                else if (counted && !state.slots.take(peer, per_address_cap(state.options)))
                    refuse(std::move(socket));
                else
                    asio::dispatch(next.ioc, [&next, counted, s = std::move(socket)]() mutable {
                        std::make_shared<session>(std::move(s), next, counted)->start();
                    });
            } else if (ec == asio::error::no_descriptors) {
                // Out of descriptors: pause briefly rather than spin on accept.
                std::this_thread::sleep_for(std::chrono::milliseconds(10));
            }
            do_accept();
        });
    }

    void refuse(socket_type socket)
    {
        ops::metrics::instance().record_rejected_connection();
        auto s = std::make_shared<socket_type>(std::move(socket));
        asio::async_write(*s, asio::buffer(busy_response.data(), busy_response.size()), [s](beast::error_code, std::size_t) {
            beast::error_code ec;
            s->shutdown(tcp::socket::shutdown_both, ec);
            s->close(ec);
        });
    }

    void begin_shutdown()
    {
        beast::error_code ec;
        acceptor.close(ec);
        for (auto& w : workers)
            asio::post(w->ioc, [&w = *w] {
                // Copied first: closing an idle session may end it, and it leaves the set then.
                std::vector<session*> const live(w.sessions.begin(), w.sessions.end());
                for (auto* s : live)
                    s->close_when_idle();
            });
        drain_deadline = clock::now() + state.options.drain_timeout;
        wait_for_drain();
    }

    void wait_for_drain()
    {
        // Sessions end on their own workers; stop when all are gone or the drain deadline passes.
        if (state.live_sessions.load() == 0 || clock::now() >= drain_deadline) {
            for (auto& w : workers)
                w->ioc.stop();
            return;
        }
        drain_timer.expires_after(std::chrono::milliseconds(20));
        drain_timer.async_wait([this](beast::error_code) { wait_for_drain(); });
    }

    shared_state state;
    std::vector<std::unique_ptr<worker>> workers;
    asio::basic_socket_acceptor<tcp, executor> acceptor;
    asio::basic_signal_set<executor> signals;
    timer_type drain_timer;
    std::size_t next_worker = 0;
    clock::time_point drain_deadline;
};

server::server(server_options options, snapshot::holder const& snapshots)
    : impl_(std::make_unique<impl>(std::move(options), snapshots))
{
}

server::~server() = default;

unsigned short server::port() const { return impl_->acceptor.local_endpoint().port(); }

void server::run()
{
    auto& main = *impl_->workers.front();
    impl_->signals.async_wait([this](beast::error_code ec, int) {
        if (!ec)
            impl_->begin_shutdown();
    });
    impl_->do_accept();
    for (auto& w : impl_->workers)
        w->sweep();
    std::vector<std::thread> extra;
    for (std::size_t i = 1; i < impl_->workers.size(); ++i)
        extra.emplace_back([&w = *impl_->workers[i]] { w.ioc.run(); });
    main.ioc.run();
    for (auto& t : extra)
        t.join();
    for (auto& w : impl_->workers)
        write_log(w->log_lines);
}

void server::stop()
{
    asio::post(impl_->workers.front()->ioc, [this] {
        impl_->signals.cancel();
        impl_->begin_shutdown();
    });
}

}
