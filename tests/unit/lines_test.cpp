#include "pricing/lines.hpp"

#include <doctest/doctest.h>

#include <string_view>
#include <vector>

namespace {

std::vector<std::string_view> all_lines(std::string_view text)
{
    std::vector<std::string_view> out;
    while (!text.empty())
        out.push_back(lcg::pricing::take_line(text));
    return out;
}

}

TEST_CASE("take_line gives each line without its end, the last whether or not it ends in a newline")
{
    CHECK(all_lines("a\nbc\n") == std::vector<std::string_view>{"a", "bc"});
    CHECK(all_lines("a\nbc") == std::vector<std::string_view>{"a", "bc"});
    CHECK(all_lines("a\n\nb\n") == std::vector<std::string_view>{"a", "", "b"});  // an empty line inside is one
    CHECK(all_lines("\n") == std::vector<std::string_view>{""});
    CHECK(all_lines("").empty());
    std::string_view rest = "x\r\ny";
    CHECK(lcg::pricing::take_line(rest) == "x\r");  // a carriage return is the caller's to drop
    CHECK(rest == "y");
}
