// render::json_writer gives the bytes Boost.JSON's serializer gives, so a document's format does
// not depend on which of the two wrote it.
#include "render/json_writer.hpp"

#include "fixture.hpp"

#include <boost/json.hpp>
#include <doctest/doctest.h>

#include <limits>

using lcg::render::json_writer;

TEST_CASE("json_writer matches Boost.JSON byte for byte")
{
    std::string awkward = "quote \" backslash \\ slash / tab \t newline \n é ×";
    for (char c = 0; c < 0x20; ++c)
        awkward += c;
    awkward += "\x7f end";
    json_writer w;
    w.begin_object().member("text", awkward).member("long plain text, more than eight bytes", "0.840");
    w.member_number("min", std::numeric_limits<std::int64_t>::min()).member_number("zero", 0);
    w.member_boolean("yes", true).key("nothing").null();
    w.key("list").begin_array().number(1).string("two").begin_object().end_object().begin_array().end_array();
    w.end_array().key("nested").begin_object().member_boolean("no", false).end_object().end_object();
    boost::json::object const expected{{"text", awkward},
                                       {"long plain text, more than eight bytes", "0.840"},
                                       {"min", std::numeric_limits<std::int64_t>::min()},
                                       {"zero", 0},
                                       {"yes", true},
                                       {"nothing", nullptr},
                                       {"list", boost::json::array{1, "two", boost::json::object{}, boost::json::array{}}},
                                       {"nested", {{"no", false}}}};
    CHECK(std::move(w).text() == boost::json::serialize(expected) + "\n");
}

TEST_CASE("json_writer grows past its first buffer, and escapes at every position of a word")
{
    json_writer w;
    boost::json::array expected;
    w.begin_array();
    // Strings of every length up to 40 with a quote at each position, then plain ones, far past
    // the 4 KiB the writer starts with.
    for (std::size_t length = 1; length <= 40; ++length)
        for (std::size_t at = 0; at < length; ++at) {
            std::string text(length, 'x');
            text[at] = '"';
            w.string(text);
            expected.emplace_back(text);
        }
    for (int i = 0; i < 500; ++i) {
        std::string const plain = "plain text number " + std::to_string(i);
        w.string(plain);
        expected.emplace_back(plain);
    }
    w.end_array();
    std::string const written = std::move(w).text();
    CHECK(written.size() > 16 * 1024);
    CHECK(written == boost::json::serialize(expected) + "\n");
}

TEST_CASE("json_writer refuses an unfinished document")
{
    json_writer open;
    open.begin_object().key("a");
    CHECK_THROWS_AS(std::move(open).text(), std::logic_error);
}

TEST_CASE("the estimate, written directly, is what serialising its parsed tree gives")
{
    for (auto const* target : {"/v1/estimate?gpu=h100-sxm&gpus=2&hours=10&tier=spot&storage_gb=200&egress_gb=50",
                               "/v1/estimate?gpu=h100-sxm&hours=3&tokens_per_second=2500",
                               "/v1/estimate?gpu=h100-sxm&hours=1&images_per_hour=700&tier=reserved"}) {
        CAPTURE(target);
        auto const body = lcg::testing::fixture_request(target).body().str();
        CHECK(boost::json::serialize(boost::json::parse(body)) + "\n" == body);
    }
}
