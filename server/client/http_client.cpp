#include "server/client/http_client.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

#include <openssl/ssl.h>
#include <openssl/x509_vfy.h>

#include <algorithm>
#include <type_traits>

namespace lcg::client {

namespace {

namespace asio = boost::asio;
namespace ssl = asio::ssl;
namespace beast = boost::beast;
namespace bhttp = beast::http;
using tcp = asio::ip::tcp;
using clock = std::chrono::steady_clock;
using request_type = bhttp::request<bhttp::empty_body>;

// What an answer says besides its body.
struct answer {
    int status = 0;
    std::string etag;
};
// Where the body of an answer with this status goes.
using answer_sink = std::function<body_sink(int status)>;

// An answer's body handed to a sink as it arrives, never held. The parser starts the reader (init)
// once the header is read and before any of the body: the status then says which sink.
struct sink_body {
    struct value_type {
        answer_sink const* sink_for = nullptr;
        body_sink sink;
        std::uint64_t received = 0;
    };

    class reader {
    public:
        // Made with the parser, before anything is read. Beast asks that a reader be constructible
        // from a request's header too; only a response's is ever given.
        template <bool IsRequest, class Fields>
        reader(bhttp::header<IsRequest, Fields>& head, value_type& body) : head_(head), body_(body)
        {
        }

        void init(boost::optional<std::uint64_t> const&, beast::error_code& ec)
        {
            ec = {};
            body_.sink = (*body_.sink_for)(head_.result_int());
        }

        template <class ConstBufferSequence>
        std::size_t put(ConstBufferSequence const& buffers, beast::error_code& ec)
        {
            ec = {};
            std::size_t n = 0;
            for (auto const b : beast::buffers_range_ref(buffers)) {
                body_.sink(std::string_view(static_cast<char const*>(b.data()), b.size()));
                n += b.size();
            }
            body_.received += n;
            return n;
        }

        void finish(beast::error_code& ec) { ec = {}; }

    private:
        bhttp::response_header<>& head_;
        value_type& body_;
    };
};

using response_head = bhttp::response_header<>;

bool is_ip_address(std::string const& host)
{
    beast::error_code ec;
    asio::ip::make_address(host, ec);
    return !ec;
}

// One request and its answer on a private event loop, over TCP or TLS over TCP. Beast's stream
// timeouts only apply to asynchronous operations, so every step is asynchronous and run to
// completion here: a blocking read would wait forever on a server that accepts and never answers.
template <bool Tls>
class exchange {
    using stream_type = std::conditional_t<Tls, beast::ssl_stream<beast::tcp_stream>, beast::tcp_stream>;

public:
    // `stream_args`: the TLS context, for Tls only.
    template <class... StreamArgs>
    exchange(limits const& l, clock::time_point deadline, request_type request, answer_sink const& sink_for,
             StreamArgs&... stream_args)
        : limits_(l), deadline_(deadline), stream_(ioc_, stream_args...), request_(std::move(request))
    {
        parser_.body_limit(l.max_body_bytes);
        parser_.get().body().sink_for = &sink_for;
    }

    // The answer's header (its body went to the sink), or a message saying why there is none.
    pricing::outcome<response_head> run(tcp::resolver::results_type const& endpoints, std::string const& host)
    {
        if constexpr (Tls)
            if (!expect_certificate_of(host))
                return pricing::invalid("cannot set up TLS for " + host);
        lowest().expires_after(step());
        lowest().async_connect(endpoints, [this](beast::error_code ec, tcp::endpoint const&) { on_connect(ec); });
        ioc_.run();
        // The whole answer is read (or given up): no TLS close_notify is owed to a server we leave.
        beast::error_code ignored;
        lowest().socket().shutdown(tcp::socket::shutdown_both, ignored);
        if (!failure_.empty())
            return pricing::invalid(failure_);
        return std::move(parser_.release().base());
    }

private:
    beast::tcp_stream& lowest() { return beast::get_lowest_layer(stream_); }

    // The time the next step may take: the silence allowed, or what is left of the total.
    clock::duration step() const
    {
        return std::clamp<clock::duration>(deadline_ - clock::now(), clock::duration::zero(), limits_.timeout);
    }

    // SNI for a name (RFC 6066 forbids it for an address), and the name or address the certificate
    // must carry; the chain itself is checked against the context's trust store.
    bool expect_certificate_of(std::string const& host) requires Tls
    {
        SSL* const ssl = stream_.native_handle();
        X509_VERIFY_PARAM* const param = SSL_get0_param(ssl);
        if (is_ip_address(host))
            return X509_VERIFY_PARAM_set1_ip_asc(param, host.c_str()) == 1;
        return SSL_set_tlsext_host_name(ssl, host.c_str()) == 1 && X509_VERIFY_PARAM_set1_host(param, host.c_str(), 0) == 1;
    }

    void fail(beast::error_code ec, std::string_view while_doing)
    {
        if (ec == beast::error::timeout)
            failure_ = "timed out " + std::string(while_doing) + " (allowed: " +
                       std::to_string(limits_.timeout.count()) + " s without progress, " +
                       std::to_string(limits_.total.count()) + " s in all)";
        else if (ec == bhttp::error::body_limit)
            failure_ = "the answer is larger than " + std::to_string(limits_.max_body_bytes) + " bytes";
        else if (ec == bhttp::error::end_of_stream)
            failure_ = "the server closed the connection without answering";
        else if (ec == bhttp::error::partial_message || ec == ssl::error::stream_truncated)
            failure_ = truncated();
        else if (ec == bhttp::error::bad_chunk || ec == bhttp::error::bad_chunk_extension)
            failure_ = "broken chunked encoding (" + ec.message() + ")";
        else
            failure_ = std::string(while_doing) + ": " + ec.message();
    }

    // A connection closed before the answer's end: what arrived of what was announced.
    std::string truncated() const
    {
        if (!parser_.is_header_done())
            return "the connection closed before the end of the answer's header";
        auto const received = std::to_string(parser_.get().body().received);
        if (auto const announced = parser_.content_length())
            return "truncated: the connection closed after " + received + " of the " + std::to_string(*announced) +
                   " bytes of Content-Length";
        if (parser_.chunked())
            return "truncated: the connection closed after " + received + " bytes, before the last chunk";
        return "truncated: the connection closed after " + received + " bytes without TLS close_notify";
    }

    void on_connect(beast::error_code ec)
    {
        if (ec)
            return fail(ec, "connecting");
        lowest().expires_after(step());
        if constexpr (Tls)
            stream_.async_handshake(ssl::stream_base::client, [this](beast::error_code e) { on_handshake(e); });
        else
            write();
    }

    void on_handshake(beast::error_code ec) requires Tls
    {
        if (!ec)
            return write();
        if (long const verified = SSL_get_verify_result(stream_.native_handle()); verified != X509_V_OK)
            failure_ = std::string("the server's certificate is refused: ") + X509_verify_cert_error_string(verified);
        else
            fail(ec, "in the TLS handshake");
    }

    void write()
    {
        lowest().expires_after(step());
        bhttp::async_write(stream_, request_, [this](beast::error_code e, std::size_t) { on_write(e); });
    }

    void on_write(beast::error_code ec)
    {
        if (ec)
            return fail(ec, "sending the request");
        sent_at_ = clock::now();
        read_more();
    }

    void read_more()
    {
        lowest().expires_after(step());
        bhttp::async_read_some(stream_, buffer_, parser_,
                               [this](beast::error_code ec, std::size_t n) { on_read(ec, n); });
    }

    void on_read(beast::error_code ec, std::size_t n)
    {
        if (ec)
            return fail(ec, "reading the answer");
        received_ += n;
        if (parser_.is_done())
            return;
        if (too_slow())
            return;
        read_more();
    }

    // Past the grace, the bytes so far must average the minimum rate.
    bool too_slow()
    {
        if (limits_.min_bytes_per_second == 0)
            return false;
        auto const elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(clock::now() - sent_at_);
        if (elapsed < limits_.slow_grace)
            return false;
        if (received_ * 1000 >= limits_.min_bytes_per_second * static_cast<std::uint64_t>(elapsed.count()))
            return false;
        failure_ = "the answer arrives slower than " + std::to_string(limits_.min_bytes_per_second) +
                   " bytes/s (" + std::to_string(received_) + " bytes in " +
                   std::to_string(elapsed.count() / 1000) + " s)";
        return true;
    }

    limits limits_;
    clock::time_point deadline_;
    clock::time_point sent_at_{};
    std::uint64_t received_ = 0;  // bytes of the answer read so far, head included
    asio::io_context ioc_;
    stream_type stream_;
    request_type request_;
    beast::flat_buffer buffer_;
    bhttp::response_parser<sink_body> parser_;
    std::string failure_;
};

// The server's certificate chains to the system's trust store; TLS 1.2 at least.
ssl::context make_tls_context()
{
    ssl::context ctx(ssl::context::tls_client);
    ctx.set_default_verify_paths();
    ctx.set_verify_mode(ssl::verify_peer);
    SSL_CTX_set_min_proto_version(ctx.native_handle(), TLS1_2_VERSION);
    return ctx;
}

// One GET of `at`, whatever it answers.
response_head get_once(base_url const& at, std::string_view accept, limits const& l, clock::time_point deadline,
                       std::string_view if_none_match, answer_sink const& sink_for)
{
    std::string const url = at.to_string();
    asio::io_context resolving;
    tcp::resolver resolver(resolving);
    beast::error_code ec;
    auto const endpoints = resolver.resolve(at.host, at.port, ec);
    if (ec)
        throw fetch_error("GET " + url + ": cannot resolve " + at.host + ": " + ec.message());
    request_type req{bhttp::verb::get, at.prefix.empty() ? "/" : at.prefix, 11};
    req.set(bhttp::field::host, host_header(at));
    req.set(bhttp::field::accept, accept);
    req.set(bhttp::field::user_agent, "lowcostgpu");
    req.set(bhttp::field::connection, "close");
    if (!if_none_match.empty())
        req.set(bhttp::field::if_none_match, if_none_match);
    auto res = [&] {
        if (!at.tls)
            return exchange<false>(l, deadline, std::move(req), sink_for).run(endpoints, at.host);
        auto ctx = make_tls_context();
        return exchange<true>(l, deadline, std::move(req), sink_for, ctx).run(endpoints, at.host);
    }();
    if (!res)
        throw fetch_error("GET " + url + ": " + res.err().message);
    return std::move(res).value();
}

bool is_redirect(unsigned status) { return status == 301 || status == 302 || status == 303 || status == 307 || status == 308; }

// The one request path beneath get, get_stream and get_body: limits, redirects and If-None-Match,
// each answer's body going where `sink_for` says from its status.
answer get_streamed(base_url const& base, std::string const& target, std::string_view accept, limits const& l,
                    std::string_view if_none_match, answer_sink const& sink_for)
{
    auto const deadline = clock::now() + l.total;
    bool const following = l.max_redirects > 0;
    // A redirect's own body is nobody's: it is read (within the limits) and dropped.
    answer_sink const body_of = [&](int status) -> body_sink {
        if (following && is_redirect(static_cast<unsigned>(status)))
            return [](std::string_view) {};
        return sink_for(status);
    };
    base_url at = base;
    at.prefix += target;
    for (int redirects = 0;; ++redirects) {
        auto const res = get_once(at, accept, l, deadline, if_none_match, body_of);
        if (!following || !is_redirect(res.result_int()))
            return {static_cast<int>(res.result_int()), std::string(res[bhttp::field::etag])};
        std::string const from = "GET " + at.to_string() + " (" + std::to_string(res.result_int()) + ")";
        if (redirects == l.max_redirects)
            throw fetch_error(from + ": more than " + std::to_string(l.max_redirects) + " redirects");
        auto next = resolve_location(at, res[bhttp::field::location]);
        if (!next)
            throw fetch_error(from + ": cannot follow the redirect: " + next.err().message);
        if (at.tls && !next->tls)
            throw fetch_error(from + ": redirected from https to " + next->to_string() + ", refused");
        at = std::move(next).value();
    }
}

}

limits streamed_limits(limits l, std::uint64_t bytes)
{
    l.max_body_bytes = bytes;
    l.total = std::max(l.total, std::chrono::seconds(bytes / pricing::rules::upstream_inputs_bytes_per_second));
    return l;
}

limits at_most(limits l, std::uint64_t bytes)
{
    l.max_body_bytes = std::min(l.max_body_bytes, bytes);
    return l;
}

reply get(base_url const& base, std::string const& target, std::string_view accept, limits const& l,
          std::string_view if_none_match)
{
    reply r;
    auto const head = get_streamed(base, target, accept, l, if_none_match, [&](int) -> body_sink {
        return [&](std::string_view bytes) { r.body += bytes; };
    });
    r.status = head.status;
    r.etag = head.etag;
    return r;
}

void get_stream(base_url const& base, std::string const& target, std::string_view accept, limits const& l,
                body_sink const& sink)
{
    auto const head = get_streamed(base, target, accept, l, {}, [&](int status) -> body_sink {
        if (status == 200)
            return sink;
        return [](std::string_view) {};
    });
    if (head.status != 200)
        throw fetch_error("GET " + base.to_string() + target + " answered " + std::to_string(head.status));
}

std::string get_body(base_url const& base, std::string const& target, std::string_view accept, limits const& l)
{
    std::string body;
    get_stream(base, target, accept, l, [&](std::string_view bytes) { body += bytes; });
    return body;
}

}
