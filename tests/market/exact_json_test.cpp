#include "server/market/exact_json.hpp"

#include <doctest/doctest.h>

#include <optional>
#include <random>
#include <string>
#include <utility>

using namespace lcg::market;

namespace {

std::string refusal(std::string_view text, exact_json_limits limits = {})
{
    auto const parsed = parse_exact_json(text, limits);
    REQUIRE_FALSE(parsed);
    return parsed.err().message;
}

std::string nested(std::size_t depth)
{
    return std::string(depth, '[') + std::string(depth, ']');
}

}

TEST_CASE("numbers keep the text they were written with")
{
    auto const doc = parse_exact_json(
        R"({"price": 0.36979999999999996, "big": 123456789012345678901234567890, "int": -42, "exp": 2.5E-3,
            "zero": 0, "tiny": 0.000000000000000001})");
    REQUIRE(doc);
    CHECK(doc->kind == json_kind::object);
    CHECK(doc->member("price")->text == "0.36979999999999996");
    CHECK(doc->member("big")->text == "123456789012345678901234567890");
    CHECK(doc->member("int")->text == "-42");
    CHECK(doc->member("exp")->text == "2.5E-3");
    CHECK(doc->member("zero")->text == "0");
    CHECK(doc->member("tiny")->text == "0.000000000000000001");
    CHECK(doc->member("price")->kind == json_kind::number);
    CHECK(doc->member("absent") == nullptr);
}

TEST_CASE("random decimals come back digit for digit (fixed seed)")
{
    std::mt19937_64 random(24);
    std::string document = "[";
    std::vector<std::string> written;
    for (int i = 0; i < 2000; ++i) {
        std::string n = std::to_string(random() % 100000);
        n += '.';
        for (auto digits = 1 + random() % 20; digits > 0; --digits)
            n += static_cast<char>('0' + random() % 10);
        written.push_back(n);
        document += (i ? "," : "") + n;
    }
    document += "]";
    auto const doc = parse_exact_json(document);
    REQUIRE(doc);
    REQUIRE(doc->items.size() == written.size());
    for (std::size_t i = 0; i < written.size(); ++i)
        CHECK(doc->items[i].text == written[i]);
}

TEST_CASE("strings, booleans, null, arrays and objects keep their order and keys")
{
    auto const doc = parse_exact_json(R"({"s": "a\"b\u00e9", "t": true, "f": false, "n": null,
                                          "list": [1, "x", {"k": []}], "o": {"z": 1, "a": 2}})");
    REQUIRE(doc);
    CHECK(doc->member("s")->text == "a\"b\xc3\xa9");
    CHECK(doc->member("s")->kind == json_kind::string);
    CHECK(doc->member("t")->kind == json_kind::boolean);
    CHECK(doc->member("t")->text == "true");
    CHECK(doc->member("f")->text == "false");
    CHECK(doc->member("n")->kind == json_kind::null);
    auto const& list = *doc->member("list");
    REQUIRE(list.items.size() == 3);
    CHECK(list.items[0].key.empty());
    CHECK(list.items[1].text == "x");
    CHECK(list.items[2].member("k")->kind == json_kind::array);
    auto const& o = *doc->member("o");
    REQUIRE(o.items.size() == 2);
    CHECK(o.items[0].key == "z");
    CHECK(o.items[1].key == "a");
    CHECK(list.member("k") == nullptr);  // an array has no members
    auto const scalar = parse_exact_json(" 7 ");
    REQUIRE(scalar);
    CHECK(scalar->text == "7");
}

TEST_CASE("what is not one JSON document is refused with the reason")
{
    for (std::string_view text : {"", "{", "[1,]", "{'a': 1}", "nul", "// c\n{}", "{} x", "{\"a\" 1}", "offers: []",
                                  "[1] [2]"})
        CHECK_MESSAGE(refusal(text).starts_with("not JSON: "), text);
    CHECK(refusal("{\n\"a\": 1,\n\"b\": }").find("after line 3") != std::string::npos);
    CHECK(refusal("[\"\xff\"]").starts_with("not JSON: "));
    CHECK(refusal(R"({"id": 1, "dph_total": 0.5, "id": 2})") == "an object names the key 'id' twice");
    CHECK(refusal(R"([{"a": {"x": 1, "y": 2, "x": 3}}])") == "an object names the key 'x' twice");
}

TEST_CASE("depth, values and size are bounded")
{
    CHECK(parse_exact_json(nested(20)));
    CHECK(refusal(nested(21)) == "the document nests arrays and objects deeper than 20 levels");
    CHECK(refusal(nested(100000)) == "the document nests arrays and objects deeper than 20 levels");
    exact_json_limits small;
    small.max_values = 4;
    CHECK(parse_exact_json("[1, 2, 3]", small));
    CHECK(refusal("[1, 2, 3, 4]", small) == "the document has more than 4 values");
    small.max_bytes = 8;
    CHECK(refusal("[1, 2, 3 ]", small) == "the document is larger than 8 bytes");
}

TEST_CASE("the whole part of a number")
{
    std::pair<std::string_view, std::optional<std::int64_t>> const cases[] = {
        {"24564", 24564}, {"46068.5", 46068}, {"0", 0}, {"1099511627776", std::int64_t{1} << 40},
        {"1099511627777", {}}, {"12345678901234567890", {}}, {"-1", {}}, {"1e3", {}}, {"1.5e3", {}}, {"", {}}};
    for (auto const& c : cases)  // no structured binding: clang 14 cannot capture one in CHECK
        CHECK_MESSAGE(whole_part(c.first) == c.second, c.first);
}

TEST_CASE("a member reader keeps the first member of the wrong type")
{
    auto const doc = parse_exact_json(R"({"n": 1.50, "s": "x", "b": true, "z": null, "wrong": "1", "worse": 2})");
    REQUIRE(doc);
    member_reader m(*doc, "offers[3]");
    CHECK(m.number("n") == "1.50");
    CHECK(m.text("s") == "x");
    CHECK(m.flag("b") == true);
    CHECK(m.number("z").empty());
    CHECK(m.text("absent").empty());
    CHECK_FALSE(m.flag("z"));
    CHECK_FALSE(m.error());
    CHECK(m.number("wrong").empty());
    CHECK(m.text("worse").empty());
    REQUIRE(m.error());
    CHECK(m.error()->message == "offers[3].wrong is a string, not a number");
}
