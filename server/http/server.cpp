#include "server/http/server.hpp"

#include "server/http/response.hpp"
#include "server/ops/metrics.hpp"

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/json.hpp>

#include <sys/resource.h>

#include <array>
#include <cstdio>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

namespace lcg::http {

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
using tcp = asio::ip::tcp;
using clock = std::chrono::steady_clock;

class session;

// Live sessions, so that shutdown can close the idle ones and wait for the busy ones.
class session_registry {
public:
    void add(std::shared_ptr<session> const& s);
    void remove(session* s);
    void close_all();
    bool empty();

private:
    std::mutex mutex_;
    std::map<session*, std::weak_ptr<session>> sessions_;
};

// What sessions share: settings, the snapshot cell, the registry and the rate limiter.
struct shared_state {
    server_options options;
    snapshot::holder const& snapshots;
    session_registry registry;
    std::optional<ops::rate_limiter> limiter;
    std::atomic<std::uint64_t> request_counter{0};
};

std::mutex log_mutex;

void log_request(request const& req, response const& res, std::string const& client, clock::duration took)
{
    boost::json::object line{
        {"event", "request"},
        {"method", std::string(req.method_string())},
        {"target", std::string(req.target().substr(0, 256))},
        {"status", res.result_int()},
        {"bytes", res.body().size()},
        {"client", client},
        {"micros", std::chrono::duration_cast<std::chrono::microseconds>(took).count()}};
    std::string const text = boost::json::serialize(line) + "\n";
    std::lock_guard lock(log_mutex);
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
}

bool is_trusted(shared_state const& state, std::string const& peer)
{
    return std::find(state.options.trusted_proxies.begin(), state.options.trusted_proxies.end(), peer) !=
           state.options.trusted_proxies.end();
}

// The client a request is accounted to: the peer, or the last X-Forwarded-For hop a trusted
// proxy added (the only one that proxy vouches for).
std::string client_of(shared_state const& state, request const& req, std::string const& peer)
{
    if (!is_trusted(state, peer))
        return peer;
    auto const it = req.find("X-Forwarded-For");
    if (it == req.end())
        return peer;
    std::string_view chain = it->value();
    auto const comma = chain.rfind(',');
    std::string_view hop = comma == std::string_view::npos ? chain : chain.substr(comma + 1);
    while (!hop.empty() && hop.front() == ' ')
        hop.remove_prefix(1);
    while (!hop.empty() && hop.back() == ' ')
        hop.remove_suffix(1);
    return hop.empty() ? peer : std::string(hop);
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

class session : public std::enable_shared_from_this<session> {
public:
    session(tcp::socket&& socket, shared_state& state) : stream_(std::move(socket)), state_(state)
    {
        beast::error_code ec;
        auto const endpoint = stream_.socket().remote_endpoint(ec);
        peer_ = ec ? "unknown" : endpoint.address().to_string();
        ops::metrics::instance().connection_opened();
    }
    ~session()
    {
        state_.registry.remove(this);
        ops::metrics::instance().connection_closed();
    }

    void start()
    {
        state_.registry.add(shared_from_this());
        asio::dispatch(stream_.get_executor(),
                       [self = shared_from_this()] { self->wait_for_request(self->state_.options.header_timeout); });
    }

    // Called at shutdown from any thread: an idle connection closes now, a busy one after its reply.
    void close_when_idle()
    {
        asio::post(stream_.get_executor(), [self = shared_from_this()] {
            self->closing_ = true;
            if (!self->busy_) {
                beast::error_code ec;
                self->stream_.socket().close(ec);
            }
        });
    }

private:
    // Between requests a client may stay silent up to `wait`; once its first byte arrives, the
    // whole request must follow within the header timeout.
    void wait_for_request(std::chrono::seconds wait)
    {
        if (buffer_.size() > 0)
            return read_request();
        stream_.expires_after(wait);
        stream_.async_read_some(buffer_.prepare(4096), [self = shared_from_this()](beast::error_code ec, std::size_t n) {
            if (ec)
                return self->do_close();
            self->buffer_.commit(n);
            self->read_request();
        });
    }

    void read_request()
    {
        parser_.emplace();
        parser_->header_limit(static_cast<std::uint32_t>(state_.options.header_limit));
        parser_->body_limit(state_.options.body_limit);
        // Chunk extensions have no use here and are a known smuggling vector.
        parser_->on_chunk_header(refuse_extensions_);
        stream_.expires_after(state_.options.header_timeout);
        beast::http::async_read(stream_, buffer_, *parser_, beast::bind_front_handler(&session::on_read, shared_from_this()));
    }

    void on_read(beast::error_code ec, std::size_t)
    {
        if (ec == beast::http::error::end_of_stream || ec == asio::error::operation_aborted ||
            ec == beast::error::timeout || ec == asio::error::connection_reset || ec == asio::error::bad_descriptor ||
            ec == asio::error::eof)
            return do_close();
        if (ec)
            return reply_to_unreadable(ec);
        busy_ = true;
        auto const started = clock::now();
        request const req = parser_->release();
        response res = answer(req);
        if (closing_)
            res.keep_alive(false);
        auto const took = clock::now() - started;
        ops::metrics::instance().record_request(std::string(route_pattern(req.target())), res.result_int(), took);
        if (state_.options.log_every > 0 &&
            state_.request_counter.fetch_add(1, std::memory_order_relaxed) % state_.options.log_every == 0)
            log_request(req, res, client_, took);
        write(std::move(res));
    }

    response answer(request const& req)
    {
        if (req.target().size() > state_.options.target_limit) {
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
                ops::metrics::instance().record_rate_limited();
                return too_many_requests(req, decision, state_.limiter->options());
            }
        }
        return handle(req, {state_.snapshots.get(),
                            std::chrono::time_point_cast<std::chrono::seconds>(std::chrono::system_clock::now()),
                            state_.options.max_snapshot_age, state_.options.mcp_policy});
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

    void write(response&& res)
    {
        auto sp = std::make_shared<response>(std::move(res));
        stream_.expires_after(state_.options.header_timeout);
        beast::http::async_write(stream_, *sp, [self = shared_from_this(), sp](beast::error_code ec, std::size_t) {
            self->busy_ = false;
            if (ec || !sp->keep_alive() || self->closing_)
                return self->do_close();
            self->wait_for_request(self->state_.options.idle_timeout);
        });
    }

    void do_close()
    {
        beast::error_code ec;
        stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
        if (!linger_) {
            stream_.socket().close(ec);
            return;
        }
        // After refusing a request the client may still be sending it: closing now would reset the
        // connection and could destroy our answer before it is read. Drain briefly, then close.
        stream_.expires_after(std::chrono::seconds(2));
        drain();
    }

    void drain()
    {
        stream_.async_read_some(asio::buffer(drain_buffer_), [self = shared_from_this()](beast::error_code ec, std::size_t) {
            if (ec) {
                self->stream_.socket().close(ec);
                return;
            }
            self->drain();
        });
    }

    beast::tcp_stream stream_;
    beast::flat_buffer buffer_;
    std::optional<beast::http::request_parser<beast::http::string_body>> parser_;
    std::function<void(std::uint64_t, boost::string_view, beast::error_code&)> refuse_extensions_ =
        [](std::uint64_t, boost::string_view extensions, beast::error_code& ec) {
            if (!extensions.empty())
                ec = beast::http::error::bad_chunk_extension;
        };
    shared_state& state_;
    std::string peer_;
    std::string client_;
    bool busy_ = false;
    bool closing_ = false;
    bool linger_ = false;
    std::array<char, 4096> drain_buffer_{};
};

void session_registry::add(std::shared_ptr<session> const& s)
{
    std::lock_guard lock(mutex_);
    sessions_[s.get()] = s;
}

void session_registry::remove(session* s)
{
    std::lock_guard lock(mutex_);
    sessions_.erase(s);
}

void session_registry::close_all()
{
    std::vector<std::shared_ptr<session>> live;
    {
        std::lock_guard lock(mutex_);
        for (auto& [_, weak] : sessions_)
            if (auto s = weak.lock())
                live.push_back(std::move(s));
    }
    for (auto& s : live)
        s->close_when_idle();
}

bool session_registry::empty()
{
    std::lock_guard lock(mutex_);
    return sessions_.empty();
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
        : state{std::move(o), s, {}, {}, {}}, ioc(std::max(1, state.options.threads)),
          acceptor(asio::make_strand(ioc)), signals(ioc, SIGINT, SIGTERM), drain_timer(ioc)
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

    void do_accept()
    {
        acceptor.async_accept(asio::make_strand(ioc), [this](beast::error_code ec, tcp::socket socket) {
            if (ec == asio::error::operation_aborted || !acceptor.is_open())
                return;
            if (!ec) {
                if (static_cast<std::size_t>(ops::metrics::instance().open_connections()) >=
                    state.options.max_connections)
                    refuse(std::move(socket));
                else
                    std::make_shared<session>(std::move(socket), state)->start();
            } else if (ec == asio::error::no_descriptors) {
                // Out of descriptors: pause briefly rather than spin on accept.
                std::this_thread::sleep_for(std::chrono::milliseconds(10));
            }
            do_accept();
        });
    }

    void refuse(tcp::socket socket)
    {
        ops::metrics::instance().record_rejected_connection();
        auto s = std::make_shared<tcp::socket>(std::move(socket));
        asio::async_write(*s, asio::buffer(busy_response.data(), busy_response.size()), [s](beast::error_code, std::size_t) {
            beast::error_code ec;
            s->shutdown(tcp::socket::shutdown_both, ec);
            s->close(ec);
        });
    }

    void begin_shutdown()
    {
        asio::post(acceptor.get_executor(), [this] {
            beast::error_code ec;
            acceptor.close(ec);
        });
        state.registry.close_all();
        drain_deadline = clock::now() + state.options.drain_timeout;
        wait_for_drain();
    }

    void wait_for_drain()
    {
        // Sessions end on their own strands; stop when all are gone or the drain deadline passes.
        if (state.registry.empty() || clock::now() >= drain_deadline) {
            ioc.stop();
            return;
        }
        drain_timer.expires_after(std::chrono::milliseconds(20));
        drain_timer.async_wait([this](beast::error_code) { wait_for_drain(); });
    }

    shared_state state;
    asio::io_context ioc;
    tcp::acceptor acceptor;
    asio::signal_set signals;
    asio::steady_timer drain_timer;
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
    impl_->signals.async_wait([this](beast::error_code ec, int) {
        if (!ec)
            impl_->begin_shutdown();
    });
    impl_->do_accept();
    std::vector<std::thread> extra;
    for (int i = 1; i < impl_->state.options.threads; ++i)
        extra.emplace_back([this] { impl_->ioc.run(); });
    impl_->ioc.run();
    for (auto& t : extra)
        t.join();
}

void server::stop()
{
    asio::post(impl_->ioc, [this] {
        impl_->signals.cancel();
        impl_->begin_shutdown();
    });
}

}
