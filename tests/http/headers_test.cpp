// The header toolkit: the one list splitter, q-values, weighted lists and Accept-Language.
#include "server/http/headers.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace lcg::http;
using lcg::locale::language;

namespace {

std::vector<std::string> items(std::string_view list)
{
    auto const found = list_items(list);
    return {found.begin(), found.end()};
}

}

TEST_CASE("a header list is split at commas, each element trimmed, empty elements skipped")
{
    CHECK(items("") == std::vector<std::string>{});
    CHECK(items("gzip") == std::vector<std::string>{"gzip"});
    CHECK(items(" a ,\tb\t, , ,c,") == std::vector<std::string>{"a", "b", "c"});
    CHECK(items(",,,") == std::vector<std::string>{});
    CHECK(list_has("GET, HEAD", "HEAD"));
    CHECK(list_has(" GET ,HEAD", "GET"));
    CHECK_FALSE(list_has("GET, HEAD", "POST"));
    CHECK_FALSE(list_has("GET, HEAD", "GE"));
    CHECK_FALSE(list_has("", ""));

    request req{beast_http::verb::get, "/", 11};
    req.insert(beast_http::field::transfer_encoding, "gzip, ");
    req.insert(beast_http::field::transfer_encoding, " chunked");
    req.insert("X-Forwarded-For", "203.0.113.7 , 10.0.0.5");
    auto const codings = list_items(req, beast_http::field::transfer_encoding);
    CHECK(std::vector<std::string>(codings.begin(), codings.end()) == std::vector<std::string>{"gzip", "chunked"});
    auto const hops = list_items(req, "x-forwarded-for");
    CHECK(std::vector<std::string>(hops.begin(), hops.end()) == std::vector<std::string>{"203.0.113.7", "10.0.0.5"});
    CHECK(list_items(req, beast_http::field::accept).empty());
}

TEST_CASE("q-values are read in thousandths, malformed ones refused")
{
    CHECK(parse_qvalue("1") == 1000);
    CHECK(parse_qvalue("1.000") == 1000);
    CHECK(parse_qvalue("0") == 0);
    CHECK(parse_qvalue("0.5") == 500);
    CHECK(parse_qvalue("0.125") == 125);
    CHECK_FALSE(parse_qvalue("1.001").has_value());
    CHECK_FALSE(parse_qvalue("2").has_value());
    CHECK_FALSE(parse_qvalue("0.1234").has_value());
    CHECK_FALSE(parse_qvalue(".5").has_value());
    CHECK_FALSE(parse_qvalue("").has_value());

    auto const w = weighted_items("text/html;level=1;q=0.7, gzip ; Q=0 , bad;q=x, */*");
    REQUIRE(w.size() == 3);
    CHECK(w[0].value == "text/html");
    CHECK(w[0].q == 700);
    CHECK(w[1].value == "gzip");
    CHECK(w[1].q == 0);
    CHECK(w[2].value == "*/*");
    CHECK(w[2].q == 1000);
}

TEST_CASE("Accept-Language: the best q-value among fr and en wins, English by default")
{
    CHECK(negotiate_language("") == language::en);
    CHECK(negotiate_language("fr") == language::fr);
    CHECK(negotiate_language("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5") == language::fr);
    CHECK(negotiate_language("de-DE, en;q=0.5, fr;q=0.4") == language::en);
    CHECK(negotiate_language("de, fr;q=0.3") == language::fr);
    CHECK(negotiate_language("en;q=0.2, FR-be;q=0.9") == language::fr);
    CHECK(negotiate_language("de, it") == language::en);
    CHECK(negotiate_language("fr;q=0, en") == language::en);
    CHECK(negotiate_language("fr;q=0") == language::en);
    CHECK(negotiate_language("fr;q=2, en;q=0.1") == language::en);  // a malformed q-value: ignored
    CHECK(negotiate_language("fr;q=0.5, en;q=0.5") == language::fr);  // tie: the earlier
    CHECK(negotiate_language("*, fr;q=0.5") == language::en);
    CHECK(negotiate_language(" fr ; q=1.000 ") == language::fr);
}

TEST_CASE("negotiation fields sent on several lines become one line each, other fields are left as sent")
{
    request req{beast_http::verb::get, "/", 11};
    req.insert(beast_http::field::accept_language, "de");
    req.insert(beast_http::field::accept, "text/html");
    req.insert(beast_http::field::accept_language, " fr;q=0.5");
    req.insert(beast_http::field::transfer_encoding, "gzip");
    req.insert(beast_http::field::transfer_encoding, "chunked");
    join_negotiation_lines(req);
    CHECK(req.count(beast_http::field::accept_language) == 1);
    CHECK(std::string(req[beast_http::field::accept_language]) == "de, fr;q=0.5");  // each line as the parser trimmed it
    CHECK(negotiate_language(req[beast_http::field::accept_language]) == language::fr);
    CHECK(std::string(req[beast_http::field::accept]) == "text/html");
    CHECK(req.count(beast_http::field::transfer_encoding) == 2);
}

TEST_CASE("a target in absolute-form becomes its origin-form, and its authority replaces Host")
{
    struct rewrite {
        char const* target;
        char const* origin;
        char const* host;
    };
    for (auto const& r : {rewrite{"http://localhost:8080/v1/prices?lang=fr", "/v1/prices?lang=fr", "localhost:8080"},
                          rewrite{"HTTPS://prices.example/v1/gpus", "/v1/gpus", "prices.example"},
                          rewrite{"http://user@127.0.0.1", "/", "127.0.0.1"},
                          rewrite{"http://[::1]:9?x=1", "/?x=1", "[::1]:9"},
                          rewrite{"/v1/prices", "/v1/prices", "x"},
                          rewrite{"ftp://host/v1/prices", "ftp://host/v1/prices", "x"},
                          rewrite{"http:///v1/prices", "http:///v1/prices", "x"}}) {
        CAPTURE(r.target);
        request req{beast_http::verb::get, r.target, 11};
        req.set(beast_http::field::host, "x");
        to_origin_form(req);
        CHECK(std::string(req.target()) == r.origin);
        CHECK(std::string(req[beast_http::field::host]) == r.host);
    }
}
