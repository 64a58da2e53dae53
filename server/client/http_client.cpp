#include "server/client/http_client.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <algorithm>

namespace lcg::client {

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace bhttp = beast::http;
using tcp = asio::ip::tcp;
using clock = std::chrono::steady_clock;

// One request and its answer on a private event loop. Beast's stream timeouts only apply to
// asynchronous operations, so every step is asynchronous and run to completion here: a blocking
// read would wait forever on a server that accepts and never answers.
class exchange {
public:
    exchange(limits const& l, bhttp::request<bhttp::empty_body> request)
        : limits_(l), deadline_(clock::now() + l.total), stream_(ioc_), request_(std::move(request))
    {
        parser_.body_limit(l.max_body_bytes);
    }

    // The answer, or a message saying why there is none.
    pricing::outcome<bhttp::response<bhttp::string_body>> run(tcp::resolver::results_type const& endpoints)
    {
        stream_.expires_after(step());
        stream_.async_connect(endpoints, [this](beast::error_code ec, tcp::endpoint const&) { on_connect(ec); });
        ioc_.run();
        beast::error_code ignored;
        stream_.socket().shutdown(tcp::socket::shutdown_both, ignored);
        if (!failure_.empty())
            return pricing::invalid(failure_);
        return parser_.release();
    }

private:
    // The time the next step may take: the silence allowed, or what is left of the total.
    clock::duration step() const
    {
        return std::clamp<clock::duration>(deadline_ - clock::now(), clock::duration::zero(), limits_.timeout);
    }

    void fail(beast::error_code ec, std::string_view while_doing)
    {
        if (ec == beast::error::timeout)
            failure_ = "timed out " + std::string(while_doing) + " (allowed: " +
                       std::to_string(limits_.timeout.count()) + " s without progress, " +
                       std::to_string(limits_.total.count()) + " s in all)";
        else if (ec == bhttp::error::body_limit)
            failure_ = "the answer is larger than " + std::to_string(limits_.max_body_bytes) + " bytes";
        else
            failure_ = std::string(while_doing) + ": " + ec.message();
    }

    void on_connect(beast::error_code ec)
    {
        if (ec)
            return fail(ec, "connecting");
        stream_.expires_after(step());
        bhttp::async_write(stream_, request_, [this](beast::error_code e, std::size_t) { on_write(e); });
    }

    void on_write(beast::error_code ec)
    {
        if (ec)
            return fail(ec, "sending the request");
        read_more();
    }

    void read_more()
    {
        stream_.expires_after(step());
        bhttp::async_read_some(stream_, buffer_, parser_, [this](beast::error_code ec, std::size_t) { on_read(ec); });
    }

    void on_read(beast::error_code ec)
    {
        if (ec)
            return fail(ec, "reading the answer");
        if (!parser_.is_done())
            read_more();
    }

    limits limits_;
    clock::time_point deadline_;
    asio::io_context ioc_;
    beast::tcp_stream stream_;
    bhttp::request<bhttp::empty_body> request_;
    beast::flat_buffer buffer_;
    bhttp::response_parser<bhttp::string_body> parser_;
    std::string failure_;
};

}

std::string base_url::to_string() const { return "http://" + host + ":" + port + prefix; }

pricing::outcome<base_url> parse_base_url(std::string_view url)
{
    constexpr std::string_view scheme = "http://";
    if (!url.starts_with(scheme))
        return pricing::invalid(pricing::quote(url) + " is not a plain http:// URL (for example http://127.0.0.1:8080); "
                                "https is not supported");
    std::string_view rest = url.substr(scheme.size());
    auto const slash = rest.find('/');
    std::string_view const authority = rest.substr(0, slash);
    std::string prefix(slash == std::string_view::npos ? std::string_view() : rest.substr(slash));
    while (!prefix.empty() && prefix.back() == '/')
        prefix.pop_back();
    base_url out{std::string(authority), "80", std::move(prefix)};
    // A bracketed IPv6 address keeps its colons; a port follows the closing bracket.
    auto const colon = authority.rfind(':');
    if (colon != std::string_view::npos && authority.find(']', colon) == std::string_view::npos) {
        out.host = authority.substr(0, colon);
        out.port = authority.substr(colon + 1);
        bool const digits = !out.port.empty() && out.port.size() <= 5 &&
                            std::all_of(out.port.begin(), out.port.end(), [](char c) { return c >= '0' && c <= '9'; });
        if (!digits || std::stoi(out.port) < 1 || std::stoi(out.port) > 65535)
            return pricing::invalid(pricing::quote(url) + " has no valid port (1 to 65535)");
    }
    if (out.host.size() > 2 && out.host.front() == '[' && out.host.back() == ']')
        out.host = out.host.substr(1, out.host.size() - 2);
    if (out.host.empty())
        return pricing::invalid(pricing::quote(url) + " names no host");
    return out;
}

reply get(base_url const& base, std::string const& target, std::string_view accept, limits const& l,
          std::string_view if_none_match)
{
    std::string const url = base.to_string() + target;
    asio::io_context resolving;
    tcp::resolver resolver(resolving);
    beast::error_code ec;
    auto const endpoints = resolver.resolve(base.host, base.port, ec);
    if (ec)
        throw fetch_error("GET " + url + ": cannot resolve " + base.host + ": " + ec.message());
    bhttp::request<bhttp::empty_body> req{bhttp::verb::get, base.prefix + target, 11};
    req.set(bhttp::field::host, base.host + ":" + base.port);
    req.set(bhttp::field::accept, accept);
    req.set(bhttp::field::user_agent, "lowcostgpu");
    req.set(bhttp::field::connection, "close");
    if (!if_none_match.empty())
        req.set(bhttp::field::if_none_match, if_none_match);
    exchange x(l, std::move(req));
    auto res = x.run(endpoints);
    if (!res)
        throw fetch_error("GET " + url + ": " + res.err().message);
    return {static_cast<int>(res->result_int()), std::string((*res)[bhttp::field::etag]), std::move(res.value().body())};
}

std::string get_body(base_url const& base, std::string const& target, std::string_view accept, limits const& l)
{
    auto r = get(base, target, accept, l);
    if (r.status != 200)
        throw fetch_error("GET " + base.to_string() + target + " answered " + std::to_string(r.status));
    return std::move(r.body);
}

}
