// lean_load's reading of answers (tests/bench/answer_reader.hpp): whole, in pieces of every size,
// and the framings it cannot follow.
#include "tests/bench/answer_reader.hpp"

#include <doctest/doctest.h>

#include <string>
#include <string_view>

using lcg::bench::answer_reader;
using lcg::bench::reading;

namespace {

std::string answer(int status, std::string const& body, std::string const& length_line = {})
{
    return "HTTP/1.1 " + std::to_string(status) + " X\r\nServer: t\r\n" +
           (length_line.empty() ? "Content-Length: " + std::to_string(body.size()) : length_line) + "\r\n\r\n" + body;
}

// Feeds `bytes` in pieces of `piece` bytes: the reading after the last piece, and whether any
// piece before it already read as answered or broken.
reading in_pieces(answer_reader& reader, std::string_view bytes, std::size_t piece, bool& early)
{
    early = false;
    reading last = reading::incomplete;
    for (std::size_t at = 0; at < bytes.size(); at += piece) {
        if (last != reading::incomplete)
            early = true;
        last = reader.take(bytes.substr(at, piece));
    }
    return last;
}

}

TEST_CASE("an answer is read whole at its last byte, in pieces of any size, and the next one after it")
{
    std::string const body(20'000, 'x');
    auto const bytes = answer(200, body);
    for (std::size_t piece : {std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{7}, std::size_t{4096},
                              bytes.size()}) {
        CAPTURE(piece);
        answer_reader reader;
        bool early = false;
        CHECK(in_pieces(reader, bytes, piece, early) == reading::answered);
        CHECK_FALSE(early);
        CHECK(reader.status() == 200);
        CHECK(in_pieces(reader, answer(404, "{}"), piece, early) == reading::answered);
        CHECK_FALSE(early);
        CHECK(reader.status() == 404);
    }
}

TEST_CASE("an empty body ends with the head, and the name Content-Length is read in any case")
{
    answer_reader reader;
    CHECK(reader.take(answer(204, "", "content-LENGTH:  0 ")) == reading::answered);
    CHECK(reader.take(answer(200, "ab", "CONTENT-LENGTH:2")) == reading::answered);
}

TEST_CASE("framings a load generator cannot follow break the connection")
{
    SUBCASE("more bytes than the answer, as a second answer nobody asked for")
    {
        answer_reader reader;
        CHECK(reader.take(answer(200, "a") + answer(200, "b")) == reading::broken);
    }
    SUBCASE("no Content-Length (chunked)")
    {
        answer_reader reader;
        CHECK(reader.take("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\na\r\n0\r\n\r\n") ==
              reading::broken);
    }
    SUBCASE("a Content-Length that is not a number")
    {
        answer_reader reader;
        CHECK(reader.take(answer(200, "a", "Content-Length: 1x")) == reading::broken);
    }
    SUBCASE("not an HTTP/1 status line")
    {
        answer_reader reader;
        CHECK(reader.take("SSH-2.0-OpenSSH\r\nContent-Length: 0\r\n\r\n") == reading::broken);
    }
    SUBCASE("a head without end")
    {
        answer_reader reader;
        std::string const endless = "HTTP/1.1 200 OK\r\nX: " + std::string(answer_reader::head_limit, 'h');
        CHECK(reader.take(endless) == reading::broken);
    }
}
