#pragma once

#include "server/snapshot/snapshot.hpp"

#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>

#include <memory>

namespace lcg::http {

namespace beast_http = boost::beast::http;
using request = beast_http::request<beast_http::string_body>;
using response = beast_http::response<beast_http::string_body>;

// What the router needs besides the request: the snapshot in force (null before the first one)
// and the clock reading for this request. No socket, no database: the router is a pure function.
struct request_context {
    std::shared_ptr<const snapshot::snapshot> snapshot;
    pricing::instant now;
};

// Answers one request. Never throws: a failure becomes a problem+json 500 with no internals.
response handle(request const& req, request_context const& ctx);

}
