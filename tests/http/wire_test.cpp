// The bytes the server writes: the response head, and the request log line.
#include "server/http/response.hpp"
#include "server/http/wire.hpp"

#include <boost/json.hpp>
#include <doctest/doctest.h>

using namespace lcg::http;

TEST_CASE("the head is the status line, every field and a blank line, the body is framed")
{
    request req{beast_http::verb::get, "/x", 11};
    auto res = base_response(req, beast_http::status::ok);
    res.set(beast_http::field::content_type, "application/json");
    res.body() = std::string("{}\n");
    std::string head;
    write_head(res, head, "Sat, 05 Dec 2026 21:50:07 GMT");
    CHECK(head.starts_with("HTTP/1.1 200 OK\r\nDate: Sat, 05 Dec 2026 21:50:07 GMT\r\n"));
    CHECK(head.find("\r\nContent-Type: application/json\r\n") != std::string::npos);
    CHECK(head.find("\r\nServer: lowcostgpu\r\n") != std::string::npos);
    CHECK(head.find("\r\nContent-Length: 3\r\n") != std::string::npos);  // added: none was set
    CHECK(head.ends_with("\r\n\r\n"));

    res.prepare_payload();
    write_head(res, head, {});
    CHECK(head.find("Date") == std::string::npos);
    CHECK(head.find("Content-Length: 3") == head.rfind("Content-Length: 3"));  // not twice

    auto not_modified = base_response(req, beast_http::status::not_modified);
    write_head(not_modified, head, {});
    CHECK(head.starts_with("HTTP/1.1 304 Not Modified\r\n"));
    CHECK(head.find("Content-Length") == std::string::npos);

    request old{beast_http::verb::get, "/x", 10};
    write_head(base_response(old, beast_http::status::not_found), head, {});
    CHECK(head.starts_with("HTTP/1.0 404 Not Found\r\n"));
}

TEST_CASE("a log line is valid JSON whatever the client sent")
{
    std::string out;
    append_log_line({"GET", "/v1/prices?q=\"a\\b\x01\xff", 200, 6547, "203.0.113.7", std::chrono::microseconds(31)}, out);
    REQUIRE(out.ends_with("}\n"));
    auto const line = boost::json::parse(out).as_object();
    CHECK(line.at("event") == "request");
    CHECK(line.at("target") == "/v1/prices?q=\"a\\b\x01\xc3\xbf");  // 0xff is written as \u00ff
    CHECK(line.at("status") == 200);
    CHECK(line.at("bytes") == 6547);
    CHECK(line.at("client") == "203.0.113.7");
    CHECK(line.at("micros") == 31);

    out.clear();
    append_log_line({"GET", std::string(1000, 'a'), 414, 0, "::1", std::chrono::microseconds(0)}, out);
    CHECK(boost::json::parse(out).at("target").as_string().size() == 256);
}

TEST_CASE("a body ending with kept text counts it from the start and joins it only when asked whole")
{
    auto const kept = std::make_shared<std::string const>("-the kept end}");
    payload body(std::string("{\"id\":1"));
    body.end_with(kept, *kept);
    CHECK(body.size() == 7 + kept->size());
    CHECK(body.lead() == "{\"id\":1");
    CHECK(body.lasting_end().data() == kept->data());
    CHECK(body.view() == "{\"id\":1-the kept end}");
    CHECK(body.lead() == "{\"id\":1");  // still the text before the end, now that it is joined
    CHECK(body.size() == 7 + kept->size());

    payload unjoined(std::string("ab"));
    unjoined.end_with(kept, *kept);
    payload const moved = std::move(unjoined);
    CHECK(moved.view() == "ab-the kept end}");
    CHECK(unjoined.lasting_end().empty());  // what a move leaves
    CHECK(unjoined.size() == unjoined.view().size());

    payload shared(kept, *kept);
    shared.end_with(kept, "more");
    CHECK(shared.lasting_end().empty());  // only a body of text takes an end
    CHECK(shared.view() == *kept);
}
