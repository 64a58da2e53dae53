// An operation's input is its parameter list (api/input.hpp): every parameter an operation
// declares must be read when a client gives it, or the client's value would be ignored without a
// word. These tests call every operation of the registry with each of its parameters, and show that
// a member declared and never read is caught.
#include "fixture_server.hpp"

#include "api/operation.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <string>

namespace {

using namespace lcg;

// A value of the parameter the fixture accepts: its example's, else one made from its type.
std::string sample_value(api::operation const& op, api::parameter const& p)
{
    for (auto const& [name, value] : api::example_arguments(op))
        if (name == p.name)
            return std::string(value);
    static std::map<std::string_view, std::string, std::less<>> const by_name{
        {"gpu", "h100-sxm"},   {"other_gpu", "h100-sxm"}, {"gpus", "2"},        {"region", "eu-paris-1"},
        {"week", "current"},   {"term", "spot"},           {"q", "spot"},        {"category", "pricing"},
        {"cpu_generation", "v7"}, {"fields", "name"},      {"vendor", "nvidia"}, {"architecture", "hopper"}};
    if (p.type == api::value_type::string_list && p.name == "gpus")
        return "h100-sxm,a100-80gb-sxm";
    if (auto it = by_name.find(p.name); it != by_name.end())
        return it->second;
    if (!p.choices.empty())
        return std::string(p.choices.front());
    switch (p.type) {
    case api::value_type::boolean: return "true";
    case api::value_type::integer: return std::to_string(std::max<std::int64_t>(p.minimum.value_or(1), 1));
    default: return "1";
    }
}

// The names of the parameters given to `op` (its example and `p`) that it did not read.
std::vector<std::string_view> unread_with(api::operation const& op, api::parameter const& p)
{
    std::map<std::string, std::string, std::less<>> values;
    for (auto const& [name, value] : api::example_arguments(op))
        values.emplace(name, value);
    values[std::string(p.name)] = sample_value(op, p);
    auto args = api::arguments::from_query(op.parameters(), values);
    REQUIRE(args.has_value());
    api::request r{*testing::fixture_view(), args.value()};
    (void)api::call(op, r);
    return r.unread;
}

struct forgetful_input : api::input {
    api::argument used{this, {"used", api::value_type::string, "read"}};
    api::argument forgotten{this, {"forgotten", api::value_type::string, "declared, never read"}};
};

api::result answer_forgetfully(api::request&, forgetful_input const& in)
{
    api::answer a;
    a.document["used"] = in.used().value_or("");
    return a;
}

}

TEST_CASE("every parameter an operation declares is read when it is given")
{
    for (auto const& op : api::operations())
        for (auto const& p : op.parameters()) {
            if (p.name == "lang")  // api::call reads it for every operation
                continue;
            INFO(op.tool, " ", p.name);
            auto const unread = unread_with(op, p);
            CHECK(std::find(unread.begin(), unread.end(), p.name) == unread.end());
        }
}

TEST_CASE("a parameter declared and never read is reported, and the declaration is the parameter list")
{
    auto const how = api::answered_by<forgetful_input, answer_forgetfully>();
    REQUIRE(how.parameters.size() == 3);
    CHECK(how.parameters[0].name == "used");
    CHECK(how.parameters[1].name == "forgotten");
    CHECK(how.parameters[2].name == "lang");

    auto args = api::arguments::from_query(how.parameters, {{"used", "a"}, {"forgotten", "b"}});
    REQUIRE(args.has_value());
    api::request r{*testing::fixture_view(), args.value()};
    (void)how.run(r);
    REQUIRE(r.unread.size() == 1);
    CHECK(r.unread.front() == "forgotten");
}
