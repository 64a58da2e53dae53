#include "server/http/server.hpp"

#include "server/http/response.hpp"

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <iostream>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

namespace lcg::http {

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
using tcp = asio::ip::tcp;

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

class session : public std::enable_shared_from_this<session> {
public:
    session(tcp::socket&& socket, server_options const& options, snapshot::holder const& snapshots,
            session_registry& registry)
        : stream_(std::move(socket)), options_(options), snapshots_(snapshots), registry_(registry)
    {
    }
    ~session() { registry_.remove(this); }

    void start()
    {
        registry_.add(shared_from_this());
        asio::dispatch(stream_.get_executor(), [self = shared_from_this()] { self->do_read(self->options_.header_timeout); });
    }

    // Called at shutdown from any thread: an idle connection closes now, a busy one after its reply.
    void close_when_idle()
    {
        asio::post(stream_.get_executor(), [self = shared_from_this()] {
            self->closing_ = true;
            if (!self->busy_)
                self->stream_.socket().close();
        });
    }

private:
    void do_read(std::chrono::seconds timeout)
    {
        // A fresh parser per request, with the limits of a public endpoint.
        parser_.emplace();
        parser_->header_limit(static_cast<std::uint32_t>(options_.header_limit));
        parser_->body_limit(options_.body_limit);
        stream_.expires_after(timeout);
        beast::http::async_read(stream_, buffer_, *parser_, beast::bind_front_handler(&session::on_read, shared_from_this()));
    }

    void on_read(beast::error_code ec, std::size_t)
    {
        if (ec == beast::http::error::end_of_stream || ec == asio::error::operation_aborted ||
            ec == beast::error::timeout || ec == asio::error::connection_reset || ec == asio::error::bad_descriptor)
            return do_close();
        if (ec)
            return reply_to_bad_request(ec);
        busy_ = true;
        request const req = parser_->release();
        response res = handle(req, {snapshots_.get(), std::chrono::time_point_cast<std::chrono::seconds>(
                                                           std::chrono::system_clock::now())});
        if (closing_)
            res.keep_alive(false);
        write(std::move(res));
    }

    void reply_to_bad_request(beast::error_code ec)
    {
        busy_ = true;
        request req;
        req.version(11);
        req.keep_alive(false);
        auto const status = ec == beast::http::error::header_limit    ? beast::http::status::request_header_fields_too_large
                            : ec == beast::http::error::body_limit    ? beast::http::status::payload_too_large
                                                                      : beast::http::status::bad_request;
        response res = problem(req, status, "the request could not be read: " + ec.message());
        res.keep_alive(false);
        write(std::move(res));
    }

    void write(response&& res)
    {
        auto sp = std::make_shared<response>(std::move(res));
        stream_.expires_after(options_.header_timeout);
        beast::http::async_write(stream_, *sp, [self = shared_from_this(), sp](beast::error_code ec, std::size_t) {
            self->busy_ = false;
            if (ec || !sp->keep_alive() || self->closing_)
                return self->do_close();
            self->do_read(self->options_.idle_timeout);
        });
    }

    void do_close()
    {
        beast::error_code ec;
        stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
        stream_.socket().close(ec);
    }

    beast::tcp_stream stream_;
    beast::flat_buffer buffer_;
    std::optional<beast::http::request_parser<beast::http::string_body>> parser_;
    server_options const& options_;
    snapshot::holder const& snapshots_;
    session_registry& registry_;
    bool busy_ = false;
    bool closing_ = false;
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

}

struct server::impl {
    impl(server_options o, snapshot::holder const& s)
        : options(std::move(o)), snapshots(s), ioc(std::max(1, options.threads)),
          acceptor(asio::make_strand(ioc)), signals(ioc, SIGINT, SIGTERM), drain_timer(ioc)
    {
        tcp::endpoint const endpoint{asio::ip::make_address(options.address), options.port};
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
            if (!ec)
                std::make_shared<session>(std::move(socket), options, snapshots, registry)->start();
            do_accept();
        });
    }

    void begin_shutdown()
    {
        asio::post(acceptor.get_executor(), [this] {
            beast::error_code ec;
            acceptor.close(ec);
        });
        registry.close_all();
        drain_deadline = std::chrono::steady_clock::now() + options.drain_timeout;
        wait_for_drain();
    }

    void wait_for_drain()
    {
        // Poll briefly: sessions end on their own strands; the io_context stops when all are gone or
        // the drain deadline passes.
        if (registry.empty() || std::chrono::steady_clock::now() >= drain_deadline) {
            ioc.stop();
            return;
        }
        drain_timer.expires_after(std::chrono::milliseconds(20));
        drain_timer.async_wait([this](beast::error_code) { wait_for_drain(); });
    }

    server_options options;
    snapshot::holder const& snapshots;
    asio::io_context ioc;
    tcp::acceptor acceptor;
    asio::signal_set signals;
    asio::steady_timer drain_timer;
    std::chrono::steady_clock::time_point drain_deadline;
    session_registry registry;
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
    for (int i = 1; i < impl_->options.threads; ++i)
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
