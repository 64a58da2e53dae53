// An operation's input is its parameter list (api/input.hpp): every parameter an operation
// declares must be read when a client gives it, or the client's value would be ignored without a
// word. These tests call every operation of the registry with each of its parameters, and show that
// a member declared and never read is caught.
#include "fixture_server.hpp"

#include "api/operation.hpp"

#include <boost/json/parse.hpp>

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

// The decoder (api/decoder.hpp): presence, type and bounds, checked from the declaration before an
// operation answers, with one wording on both faces. The cases that pricing/'s unit tests held
// before the decoder took these checks over are here.
namespace {

namespace json = boost::json;

// The same arguments as an MCP client writes them: numbers, booleans and arrays in their JSON types.
json::object json_arguments(api::operation const& op, std::map<std::string, std::string, std::less<>> const& values)
{
    json::object out;
    for (auto const& entry : values) {
        std::string const& name = entry.first;  // named, not bound: clang 14 captures no binding
        std::string const& value = entry.second;
        auto const params = op.parameters();
        auto const p = std::find_if(params.begin(), params.end(), [&](api::parameter const& q) { return q.name == name; });
        REQUIRE(p != params.end());
        json::value v = json::string(value);
        if (p->type == api::value_type::integer || p->type == api::value_type::number)
            v = json::parse(value);
        else if (p->type == api::value_type::boolean && (value == "true" || value == "false"))
            v = value == "true";
        else if (p->type == api::value_type::string_list) {
            json::array items;
            for (std::string_view rest = value; !rest.empty();) {
                auto const comma = rest.find(',');
                items.emplace_back(rest.substr(0, comma));
                rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
            }
            v = std::move(items);
        }
        out[name] = std::move(v);
    }
    return out;
}

// The refusal of `op` called with `values` through one face (an answer is a failure of the test).
api::failure refusal_of(api::operation const& op, pricing::outcome<api::arguments, api::failure> args)
{
    if (!args)
        return args.err();
    api::request r{*testing::fixture_view(), args.value()};
    auto const out = api::call(op, r);
    REQUIRE_FALSE(out.has_value());
    return out.err();
}

struct refusal_case {
    std::string_view tool;
    std::string query;
    std::string_view parameter;
    std::string_view phrase;
    bool http_only = false;  // a value an MCP client writes as a JSON type of its own, refused as that
};

constexpr std::string_view rent = "gpu=h100-sxm&purchase_price=250000&power_watts=10200&electricity_price=0.12&"
                                  "hosting_per_month=1500&utilisation=40&months=36";

}

TEST_CASE("the decoder refuses a value out of its declared bounds, or not of its type, alike on both faces")
{
    std::string const r(rent);
    refusal_case const cases[] = {
        {"estimate_job_cost", "gpu=h100-sxm&gpus=0&hours=1", "gpus", "gpus: '0' is below the minimum; accepted: an integer from 1 to 64"},
        {"estimate_job_cost", "gpu=h100-sxm&gpus=65&hours=1", "gpus", "'65' is above the maximum; accepted: an integer from 1 to 64"},
        {"estimate_job_cost", "gpu=h100-sxm&seconds=0", "seconds", "below the minimum; accepted: an integer from 1 to 31536000"},
        {"estimate_job_cost", "gpu=h100-sxm&seconds=31536001", "seconds", "above the maximum"},
        {"estimate_job_cost", "gpu=h100-sxm&hours=8760.000001", "hours", "above the maximum; accepted: a number above 0, up to 8760"},
        {"estimate_job_cost", "gpu=h100-sxm&hours=-1", "hours", "below the minimum"},
        {"estimate_job_cost", "gpu=h100-sxm&hours=0", "hours", "'0' is below the minimum"},  // the minimum is excluded
        {"estimate_job_cost", "gpu=h100-sxm&hours=1&storage_gb=1000000.5", "storage_gb", "above the maximum; accepted: a number from 0 to 1000000"},
        {"estimate_job_cost", "gpu=h100-sxm&hours=1&storage_gb=1&storage_hours=9000", "storage_hours", "above the maximum"},
        {"estimate_job_cost", "gpu=h100-sxm&hours=1&egress_gb=10000001", "egress_gb", "above the maximum"},
        {"estimate_job_cost", "gpu=h100-sxm&hours=1&images_per_hour=0", "images_per_hour", "below the minimum"},
        {"estimate_job_cost", "gpu=h100-sxm&hours=abc", "hours", "hours: 'abc' is not a number; accepted: a number above 0, up to 8760", true},
        {"estimate_job_cost", "gpu=h100-sxm&hours=1e3", "hours", "is not a number", true},
        {"estimate_job_cost", "gpu=h100-sxm&gpus=1.5&hours=1", "gpus", "'1.5' is not an integer", true},
        {"list_gpus", "min_vram_gb=-1", "min_vram_gb", "below the minimum; accepted: a number from 0 to 100000"},
        {"list_gpus", "mig=yes", "mig", "mig: 'yes' is not a boolean; accepted: true, false", true},
        {"check_instance", "gpu=h100-sxm&gpus=0&vcpus=8&memory_gib=64&cpu_generation=v7", "gpus", "below the minimum"},
        {"check_instance", "gpu=h100-sxm&vcpus=5000&memory_gib=64&cpu_generation=v7", "vcpus", "accepted: an integer from 1 to 4096"},
        {"check_instance", "gpu=h100-sxm&vcpus=8&memory_gib=-64&cpu_generation=v7", "memory_gib", "below the minimum"},
        {"check_instance", "gpu=h100-sxm&vcpus=8&memory_gib=64&cpu_generation=v7&cpu_performance=maybe", "cpu_performance",
         "accepted: true, false, highest (true)", true},
        {"size_model", "params_b=0&precision=fp16", "params_b", "below the minimum; accepted: a number above 0, up to 100000"},
        {"size_model", "params_b=100000.000001&precision=fp16", "params_b", "above the maximum"},
        {"transfer_time", "gb=0", "gb", "below the minimum"},
        {"transfer_time", "gb=-1", "gb", "below the minimum"},
        {"transfer_time", "gb=1000000.1", "gb", "above the maximum; accepted: a number above 0, up to 1000000"},
        {"compare_gpus", "gpus=h100-sxm", "gpus", "gpus: 1 item given; accepted: a list of 2 to 8 items"},
        {"compare_gpus", "gpus=a,b,c,d,e,f,g,h,i", "gpus", "gpus: 9 items given"},
        {"rent_vs_buy", r + "&utilisation=100.01", "utilisation", "above the maximum; accepted: a number from 0 to 100"},
        {"rent_vs_buy", r + "&months=0", "months", "below the minimum; accepted: an integer from 1 to 120"},
        {"rent_vs_buy", r + "&months=121", "months", "above the maximum"},
        {"rent_vs_buy", r + "&power_watts=200001", "power_watts", "above the maximum"},
        {"rent_vs_buy", r + "&electricity_price=2.000001", "electricity_price", "above the maximum"},
        {"rent_vs_buy", r + "&purchase_price=-1", "purchase_price", "below the minimum"},
        {"rent_vs_buy", r + "&purchase_price=100000000.000001", "purchase_price", "above the maximum"},
        {"rent_vs_buy", r + "&gpus=65", "gpus", "above the maximum"},
        {"rent_vs_buy", r + "&gpus=0", "gpus", "below the minimum"},
        {"verify_quote", "gpu=h100-sxm&price=100000.000001", "price", "above the maximum"},
        {"get_prices", "max_price=-0.5", "max_price", "below the minimum"},
        {"get_log_proof", "index=-1", "index", "below the minimum"},
    };
    for (auto const& c : cases) {
        INFO(c.tool, " ", c.query);
        auto const* op = api::find_tool(c.tool);
        REQUIRE(op != nullptr);
        // A later value wins: the rent_vs_buy cases change one of a complete call's.
        std::map<std::string, std::string, std::less<>> values;
        for (std::string_view rest = c.query; !rest.empty();) {
            auto const amp = rest.find('&');
            auto const pair = rest.substr(0, amp);
            rest = amp == std::string_view::npos ? std::string_view{} : rest.substr(amp + 1);
            values[std::string(pair.substr(0, pair.find('=')))] = std::string(pair.substr(pair.find('=') + 1));
        }
        auto const http = refusal_of(*op, api::arguments::from_query(op->parameters(), values));
        CHECK(http.code == pricing::errc::invalid_argument);
        CHECK(http.parameter == c.parameter);
        CHECK(http.message.find(c.phrase) != std::string::npos);
        CHECK(http.message_fr.find(std::string(c.parameter) + "\u202F: ") == 0);  // and in French
        if (c.http_only)
            continue;
        auto const arguments = json_arguments(*op, values);
        auto const mcp = refusal_of(*op, api::arguments::from_json(op->parameters(), &arguments));
        CHECK(mcp.parameter == http.parameter);
        CHECK(mcp.message == http.message);
        CHECK(mcp.message_fr == http.message_fr);
    }
}

TEST_CASE("every required parameter left out of its operation's example is refused by the decoder, naming it")
{
    int required = 0;
    for (auto const& op : api::operations())
        for (auto const& p : op.parameters()) {
            if (!p.required)
                continue;
            INFO(op.tool, " ", p.name);
            ++required;
            std::map<std::string, std::string, std::less<>> values;
            for (auto const& [name, value] : api::example_arguments(op))
                if (name != p.name)
                    values.emplace(name, value);
            auto const f = refusal_of(op, api::arguments::from_query(op.parameters(), values));
            CHECK(f.parameter == p.name);
            CHECK(f.message.find(std::string(p.name) + ": required; accepted: ") == 0);
            CHECK(f.message_fr.find(std::string(p.name) + "\u202F: obligatoire\u202F; accepté\u202F: ") == 0);
            auto const arguments = json_arguments(op, values);
            CHECK(refusal_of(op, api::arguments::from_json(op.parameters(), &arguments)).message == f.message);
        }
    CHECK(required > 15);
    auto const* estimate = api::find_tool("estimate_job_cost");
    auto const gpu = refusal_of(*estimate, api::arguments::from_query(estimate->parameters(), {{"hours", "1"}}));
    CHECK(gpu.message == "gpu: required; accepted: a catalog id such as h100-sxm (any letter case); /v1/gpus lists them");
    CHECK(gpu.message_fr == "gpu\u202F: obligatoire\u202F; accepté\u202F: un identifiant du catalogue, comme h100-sxm (casse "
                            "indifférente)\u202F; /v1/gpus les liste");
}

TEST_CASE("a string argument is as long as its characters, as the schema's maxLength counts, on both faces")
{
    auto const how = api::answered_by<forgetful_input, answer_forgetfully>();
    std::string e_acute;  // U+00E9: two bytes, one character
    for (int i = 0; i < 256; ++i)
        e_acute += "\u00E9";
    auto const over = e_acute + "e";
    std::string const ascii_over(257, 'e');

    CHECK(api::arguments::from_query(how.parameters, {{"used", e_acute}}).has_value());
    json::object fits{{"used", e_acute}};
    CHECK(api::arguments::from_json(how.parameters, &fits).has_value());
    for (auto const& value : {over, ascii_over}) {
        auto const http = api::arguments::from_query(how.parameters, {{"used", value}});
        REQUIRE_FALSE(http.has_value());
        CHECK(http.err().message == "used: at most 256 characters");
        CHECK(http.err().message_fr == "used\u202F: au plus 256 caractères");
        json::object too_long{{"used", value}};
        auto const mcp = api::arguments::from_json(how.parameters, &too_long);
        REQUIRE_FALSE(mcp.has_value());
        CHECK(mcp.err().message == http.err().message);
    }
    // Bytes that are not UTF-8 are counted one by one: 256 of them pass, 257 do not.
    CHECK(api::arguments::from_query(how.parameters, {{"used", std::string(256, '\xE9')}}).has_value());
    CHECK_FALSE(api::arguments::from_query(how.parameters, {{"used", std::string(257, '\xE9')}}).has_value());
}

TEST_CASE("a parameter may take fewer characters than the default, and its schema says how many")
{
    auto const* explain = api::find_tool("explain_term");
    REQUIRE(explain != nullptr);
    auto const schema = api::input_schema(*explain);
    CHECK(schema.at("properties").at("term").at("maxLength") == 200);
    std::string e_acute;
    for (int i = 0; i < 200; ++i)
        e_acute += "\u00E9";
    CHECK(api::arguments::from_query(explain->parameters(), {{"term", e_acute}}).has_value());
    auto const over = api::arguments::from_query(explain->parameters(), {{"term", e_acute + "e"}});
    REQUIRE_FALSE(over.has_value());
    CHECK(over.err().message == "term: at most 200 characters");
    json::object too_long{{"term", e_acute + "e"}};
    CHECK(api::arguments::from_json(explain->parameters(), &too_long).err().message == over.err().message);
}

TEST_CASE("an empty list item is refused alike on both faces, wherever the comma sits")
{
    auto const* list = api::find_tool("list_gpus");
    REQUIRE(list != nullptr);
    json::object empty_item{{"fields", json::array{"name", ""}}};
    auto const mcp = refusal_of(*list, api::arguments::from_json(list->parameters(), &empty_item));
    CHECK(mcp.message.starts_with("fields: an item is empty or holds a comma; accepted: "));
    for (std::string const value : {"name,", ",name", "name,,vram_gb", ","}) {
        CAPTURE(value);
        auto const http = refusal_of(*list, api::arguments::from_query(list->parameters(), {{"fields", value}}));
        CHECK(http.message == mcp.message);
        CHECK(http.message_fr == mcp.message_fr);
    }
}
