#include "server/http/server.hpp"

#include "server/http/connection.hpp"
#include "server/http/forwarded.hpp"
#include "server/ops/stop_deadline.hpp"

#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>

#include <csignal>
#include <optional>
#include <thread>
#include <vector>

namespace lcg::http {

namespace {

using tcp = asio::ip::tcp;

// Connections are accepted straight onto an event loop's io_context; see connection.hpp for why
// each thread runs its own.
using acceptor_type = asio::basic_socket_acceptor<tcp, loop_executor>;

}

struct server::impl {
    impl(server_options o, snapshot::holder const& s, ops::metrics& m)
        : shared{std::move(o), s, m, m.log(), {}, {}, {}}, loops(make_loops(shared)), acceptor(loops.front()->ioc),
          signals(signal_ioc, SIGINT, SIGTERM), drain_timer(loops.front()->ioc)
    {
        if (shared.options.rate_limit)
            shared.limiter.emplace(*shared.options.rate_limit);
        // A peer that resets while sendfile writes to it must end that write with EPIPE, not end
        // the process (send has MSG_NOSIGNAL; sendfile has no such flag).
        std::signal(SIGPIPE, SIG_IGN);
        tcp::endpoint const endpoint{asio::ip::make_address(shared.options.address), shared.options.port};
        acceptor.open(endpoint.protocol());
        acceptor.set_option(asio::socket_base::reuse_address(true));
        acceptor.bind(endpoint);
        acceptor.listen(asio::socket_base::max_listen_connections);
    }

    static std::vector<std::unique_ptr<event_loop>> make_loops(connection_shared& shared)
    {
        std::vector<std::unique_ptr<event_loop>> out;
        for (int i = 0; i < std::max(1, shared.options.threads); ++i)
            out.push_back(std::make_unique<event_loop>(shared));
        return out;
    }

    // Connections are dealt to the event loops in turn; each is accepted straight onto its loop
    // and set up on that loop's thread.
    void do_accept()
    {
        event_loop& next = *loops[next_loop++ % loops.size()];
        acceptor.async_accept(next.ioc, [this, &next](beast::error_code ec, tcp_socket socket) {
            if (ec == asio::error::operation_aborted || !acceptor.is_open())
                return;
            if (!ec) {
                // A trusted proxy carries many clients: only other addresses are held to their share.
                std::string const peer = transport<tcp_socket>::peer(socket);
                bool const counted = !is_trusted_proxy(peer, shared.options.trusted_proxies);
                if (static_cast<std::size_t>(shared.metrics.open_connections()) >=
                    shared.options.max_connections)
                    refuse(std::move(socket));
                else if (counted && !shared.slots.take(peer, per_address_cap(shared.options)))
                    refuse(std::move(socket));
                else
                    asio::dispatch(next.ioc, [&next, peer, counted, crowded = crowded(), s = std::move(socket)]() mutable {
                        // Before the new connection is in the set: it is not the one closed.
                        if (crowded)
                            next.close_longest_idle();
                        std::make_shared<connection<tcp_socket>>(std::move(s), next, std::move(peer), counted)->start();
                    });
            } else if (ec == asio::error::no_descriptors) {
                // Out of descriptors: pause briefly rather than spin on accept.
                std::this_thread::sleep_for(std::chrono::milliseconds(10));
            }
            do_accept();
        });
    }

    bool crowded() const
    {
        auto const open = static_cast<std::size_t>(shared.metrics.open_connections());
        return open * 100 >= shared.options.max_connections * shared.options.crowded_percent;
    }

    void refuse(tcp_socket socket)
    {
        shared.metrics.record_rejected_connection();
        auto s = std::make_shared<tcp_socket>(std::move(socket));
        asio::async_write(*s, asio::buffer(busy_connection_answer()), [s](beast::error_code, std::size_t) {
            beast::error_code ec;
            s->shutdown(tcp::socket::shutdown_both, ec);
            s->close(ec);
        });
    }

    void begin_shutdown()
    {
        beast::error_code ec;
        acceptor.close(ec);
        for (auto& w : loops)
            asio::post(w->ioc, [&w = *w] {
                // Copied first: closing an idle connection may end it, and it leaves the set then.
                std::vector<connection_base*> const live(w.connections.begin(), w.connections.end());
                for (auto* c : live)
                    c->close_when_idle();
            });
        drain_deadline = steady::now() + shared.options.drain_timeout;
        wait_for_drain();
    }

    void wait_for_drain()
    {
        // Connections end on their own event loops; stop when all are gone or the drain deadline passes.
        if (shared.live_connections.load() == 0 || steady::now() >= drain_deadline) {
            for (auto& w : loops)
                w->ioc.stop();
            return;
        }
        drain_timer.expires_after(std::chrono::milliseconds(20));
        drain_timer.async_wait([this](beast::error_code) { wait_for_drain(); });
    }

    connection_shared shared;
    std::vector<std::unique_ptr<event_loop>> loops;
    acceptor_type acceptor;
    // Signals are taken on a thread of their own, never on an event loop: a loop held up (by a
    // handler, a log write, a flood) must not delay the bound on the stop (issue 29, H3).
    asio::io_context signal_ioc{1};
    asio::signal_set signals;
    asio::basic_waitable_timer<steady, asio::wait_traits<steady>, loop_executor> drain_timer;
    // Armed by a signal only (stop() is how tests and embedders end a run, on their own terms), and
    // kept until the server is destroyed: main stops the refresher and the archive meanwhile.
    std::optional<ops::stop_deadline> stop_bound;
    std::size_t next_loop = 0;
    steady::time_point drain_deadline;
};

server::server(server_options options, snapshot::holder const& snapshots, ops::metrics& metrics)
    : impl_(std::make_unique<impl>(std::move(options), snapshots, metrics))
{
}

server::~server() = default;

unsigned short server::port() const { return impl_->acceptor.local_endpoint().port(); }

void server::run()
{
    auto& main = *impl_->loops.front();
    impl_->signals.async_wait([this](beast::error_code ec, int) {
        if (ec)
            return;
        impl_->stop_bound.emplace(impl_->shared.options.stop_limit, "the stop (requests draining, the refresher, the "
                                  "archive or a mirror's follower)", impl_->shared.log);
        asio::post(impl_->loops.front()->ioc, [this] { impl_->begin_shutdown(); });
    });
    std::thread signal_thread([this] { impl_->signal_ioc.run(); });
    impl_->do_accept();
    for (auto& w : impl_->loops)
        w->sweep();
    std::vector<std::thread> extra;
    for (std::size_t i = 1; i < impl_->loops.size(); ++i)
        extra.emplace_back([&w = *impl_->loops[i]] { w.ioc.run(); });
    main.ioc.run();
    for (auto& t : extra)
        t.join();
    impl_->signal_ioc.stop();
    signal_thread.join();
    for (auto& w : impl_->loops)
        w->flush_log();
}

void server::stop()
{
    asio::post(impl_->signal_ioc, [this] { impl_->signals.cancel(); });
    asio::post(impl_->loops.front()->ioc, [this] { impl_->begin_shutdown(); });
}

}
