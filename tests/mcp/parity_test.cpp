// One operation, one document: for every operation of the registry, the tool's structuredContent is
// the JSON body of the HTTP request for the same question, its text block is that JSON serialized,
// and the document declares nothing its outputSchema does not (generated from the registry, on
// the fixture snapshot; tests/integration/parity_test.cpp does the same on the sample data over
// real sockets).
#include "fixture_server.hpp"

#include "../support/parity_cases.hpp"

#include "mcp/tool_calls.hpp"

#include "pricing/rules.hpp"

#include <doctest/doctest.h>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <fstream>
#include <iterator>
#include <string>

namespace {

using namespace lcg;
namespace json = boost::json;

json::object call(std::string const& tool, json::object const& arguments)
{
    json::object message{{"jsonrpc", "2.0"},
                         {"id", 1},
                         {"method", "tools/call"},
                         {"params", {{"name", tool}, {"arguments", arguments}}}};
    auto const r = testing::fixture_mcp_server().handle(json::serialize(message), {});
    return json::parse(r.text()).at("result").as_object();
}

json::object const& resolve(json::object const& schema, json::object const& root)
{
    auto const* ref = schema.if_contains("$ref");
    if (!ref)
        return schema;
    std::string_view const path = ref->as_string();
    REQUIRE(path.starts_with("#/$defs/"));
    return root.at("$defs").at(path.substr(8)).as_object();
}

bool type_matches(json::value const& v, std::string_view type)
{
    if (type == "object") return v.is_object();
    if (type == "array") return v.is_array();
    if (type == "string") return v.is_string();
    if (type == "integer") return v.is_int64() || v.is_uint64();
    if (type == "number") return v.is_number();
    if (type == "boolean") return v.is_bool();
    if (type == "null") return v.is_null();
    return false;
}

// The properties a schema declares for an object: its own and those of its oneOf/anyOf/allOf
// branches (a branch may tie some of them to a flag), each with the first schema declaring it.
void declared_properties(json::object const& schema, json::object const& root, json::object& out)
{
    auto const& s = resolve(schema, root);
    if (auto const* props = s.if_contains("properties"))
        for (auto const& [key, sub] : props->as_object())
            if (!out.contains(key))
                out[key] = sub;
    for (auto const* key : {"oneOf", "anyOf", "allOf"})
        if (auto const* branches = s.if_contains(key))
            for (auto const& b : branches->as_array())
                declared_properties(b.as_object(), root, out);
}

// Every member the value carries is declared by the schema (at any depth), every required member is
// there and types agree. Returns the first problem, or empty.
std::string undeclared(json::value const& v, json::object const& schema_in, json::object const& root, std::string const& at)
{
    auto const& schema = resolve(schema_in, root);
    bool const alternatives = !schema.contains("type") && !schema.contains("properties");
    for (auto const* key : {"anyOf", "oneOf"})
        if (auto const* branches = schema.if_contains(key); branches && alternatives) {
            std::string first;
            for (auto const& b : branches->as_array()) {
                auto problem = undeclared(v, b.as_object(), root, at);
                if (problem.empty())
                    return {};
                if (first.empty())
                    first = problem;
            }
            return first.empty() ? at + ": no branch of " + key : first;
        }
    if (auto const* type = schema.if_contains("type")) {
        if (!type->is_string())
            return at + ": a type list in the schema";
        if (!type_matches(v, type->as_string()))
            return at + ": " + json::serialize(v).substr(0, 60) + " is not " + std::string(type->as_string());
    }
    if (v.is_object()) {
        json::object props;
        declared_properties(schema, root, props);
        auto const* extra = schema.if_contains("additionalProperties");
        for (auto const& [key, member] : v.as_object()) {
            json::value const* sub = props.if_contains(key);
            if (!sub && extra && extra->is_object())
                sub = extra;
            if (!sub)
                return at + "." + std::string(key) + ": not declared in the output schema";
            if (auto problem = undeclared(member, sub->as_object(), root, at + "." + std::string(key)); !problem.empty())
                return problem;
        }
        if (auto const* required = schema.if_contains("required"))
            for (auto const& name : required->as_array())
                if (!v.as_object().contains(name.as_string()))
                    return at + ": required " + std::string(name.as_string()) + " is missing";
    }
    if (v.is_array())
        if (auto const* items = schema.if_contains("items"))
            for (std::size_t i = 0; i < v.as_array().size(); ++i)
                if (auto problem = undeclared(v.as_array()[i], items->as_object(), root, at + "[" + std::to_string(i) + "]");
                    !problem.empty())
                    return problem;
    return {};
}

}

TEST_CASE("every operation: structuredContent equals the HTTP JSON body, and the text block is that JSON")
{
    auto const cases = testing::parity_cases();
    REQUIRE(cases.size() == api::operations().size());
    for (auto const& c : cases) {
        CAPTURE(c.tool);
        CAPTURE(c.http_target);
        auto const result = call(c.tool, c.arguments);
        REQUIRE(result.at("isError") == false);
        auto const http = testing::fixture_request(c.http_target);
        REQUIRE(http.result_int() == 200);
        auto const body = json::parse(http.body());
        CHECK(result.at("structuredContent") == body);
        auto const& content = result.at("content").as_array();
        auto const& text = content.at(0).at("text").as_string();
        CHECK(json::parse(text) == body);
        // A long result of an operation with filters adds one block saying how to ask for less
        // (tests/integration/parity_test.cpp: list_gpus on the sample data).
        if (content.size() > 1) {
            CHECK(text.size() > pricing::rules::assistant_result_bytes);
            CHECK(std::string(content[1].at("text").as_string()).starts_with("This result is about "));
        }
        CHECK(content.size() <= 2);
    }
}

TEST_CASE("both faces accept and refuse the same numbers: zeros ending a fraction change nothing")
{
    auto const mcp = call("estimate_job_cost", {{"gpu", "h100-sxm"}, {"hours", 2.5}, {"gpus", 2.0}});
    REQUIRE(mcp.at("isError") == false);
    for (char const* target : {"/v1/estimate?gpu=h100-sxm&hours=2.50&gpus=2.0", "/v1/estimate?gpu=h100-sxm&hours=2.5000000&gpus=2"}) {
        CAPTURE(target);
        auto const http = testing::fixture_request(target);
        REQUIRE(http.result_int() == 200);
        CHECK(mcp.at("structuredContent") == json::parse(http.body()));
    }
    CHECK(testing::fixture_request("/v1/estimate?gpu=h100-sxm&hours=1&gpus=2.5").result_int() == 400);
    CHECK(call("estimate_job_cost", {{"gpu", "h100-sxm"}, {"hours", 1}, {"gpus", 2.5}}).at("isError") == true);
    // A number written out longer than any argument may be is refused as such, not quoted whole.
    auto const tiny = call("estimate_job_cost", {{"gpu", "h100-sxm"}, {"hours", 1e-300}});
    CHECK(tiny.at("isError") == true);
    CHECK(tiny.at("content").at(0).at("text") == "hours: written out as a decimal, longer than 256 bytes");
}

TEST_CASE("a NUL is refused on both faces, where the word splitter would have dropped it")
{
    CHECK(testing::fixture_request("/v1/estimate?gpu=h100-sxm%00&hours=1").result_int() == 400);
    auto const nul = call("estimate_job_cost", {{"gpu", std::string("h100-sxm\0", 9)}, {"hours", 1}});
    CHECK(nul.at("isError") == true);
    CHECK(nul.at("content").at(0).at("text") == "gpu: a NUL character is not accepted");
    auto const in_list = call("compare_gpus", {{"gpus", json::array{"h100-sxm", std::string("mi300x\0", 7)}}});
    CHECK(in_list.at("isError") == true);
}

TEST_CASE("every operation's document is fully declared by its outputSchema")
{
    for (auto const& c : testing::parity_cases()) {
        CAPTURE(c.tool);
        auto const* op = api::find_tool(c.tool);
        REQUIRE(op);
        auto const& schema = api::output_schema(*op);
        auto const document = call(c.tool, c.arguments).at("structuredContent");
        CHECK(undeclared(document, schema, schema, c.tool) == "");
        // The unfiltered form too, where the operation has one without arguments.
        auto const bare = call(c.tool, {});
        if (bare.at("isError") == false)
            CHECK(undeclared(bare.at("structuredContent"), schema, schema, c.tool + "()") == "");
    }
}

TEST_CASE("the tool list is the registry, and no schema uses a type list")
{
    auto const& tools = mcp::tool_definitions();
    REQUIRE(tools.size() == api::operations().size());
    auto const text = json::serialize(tools);
    CHECK(text.find("\"type\":[") == std::string::npos);
    for (std::size_t i = 0; i < tools.size(); ++i) {
        auto const& op = api::operations()[i];
        auto const& t = tools[i].as_object();
        CHECK(t.at("name").as_string() == op.tool);
        auto const& input = t.at("inputSchema").as_object();
        CHECK(input.at("properties").as_object().size() == op.parameters().size());
        CHECK(input.at("additionalProperties") == false);
    }
}

TEST_CASE("arguments follow the input schema strictly")
{
    auto const as_string = call("estimate_job_cost", {{"gpu", "h100-sxm"}, {"hours", "2"}});
    CHECK(as_string.at("isError") == true);
    CHECK(as_string.at("content").at(0).at("text") == "hours: a number is expected (as the input schema says)");
    auto const negative = call("estimate_job_cost", {{"gpu", "h100-sxm"}, {"hours", -2}});
    CHECK(std::string(negative.at("content").at(0).at("text").as_string()).find("below the minimum") !=
          std::string::npos);
    auto const list = call("compare_gpus", {{"gpus", json::array{"h100-sxm"}}});
    CHECK(list.at("content").at(0).at("text") == "gpus: 1 item given; accepted: a list of 2 to 8 items");
    auto const joined = call("compare_gpus", {{"gpus", json::array{"h100-sxm,a100-80gb-sxm"}}});
    CHECK(std::string(joined.at("content").at(0).at("text").as_string()).find("holds a comma") != std::string::npos);
    auto const comma = call("compare_gpus", {{"gpus", json::array{"h100-sxm", "a100-80gb-sxm,mi300x"}}});
    CHECK(std::string(comma.at("content").at(0).at("text").as_string()).find("holds a comma") != std::string::npos);
    // What the list accepts is its own: members for fields, not catalog ids.
    auto const empty_member = call("list_gpus", {{"fields", json::array{"name", ""}}});
    std::string const member_text(empty_member.at("content").at(0).at("text").as_string());
    CHECK(member_text.find("holds a comma") != std::string::npos);
    CHECK(member_text.find("catalog ids") == std::string::npos);
    auto const none = call("compare_gpus", {{"gpus", json::array{}}});
    CHECK(std::string(none.at("content").at(0).at("text").as_string()).find("0 items given") != std::string::npos);
    auto const huge = call("estimate_job_cost", {{"gpu", "h100-sxm"}, {"hours", 1}, {"gpus", 1e20}});
    CHECK(std::string(huge.at("content").at(0).at("text").as_string()).find("out of range") != std::string::npos);
    auto const unknown = call("get_prices", {{"colour", "red"}});
    CHECK(std::string(unknown.at("content").at(0).at("text").as_string()).find("unknown parameter 'colour'") !=
          std::string::npos);
}

TEST_CASE("deploy/server.json, for the MCP registry, states this server's version and its transport")
{
    std::ifstream in(LCG_SOURCE_DIR "/deploy/server.json");
    REQUIRE(in);
    std::string const text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto const registry_entry = json::parse(text).as_object();
    CHECK(registry_entry.at("$schema").as_string() ==
          "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json");
    CHECK(registry_entry.at("version").as_string() == mcp_bridge::server_identity().version);
    CHECK(registry_entry.at("title").as_string() == mcp_bridge::server_identity().title);
    // The server card says the same: a registry and a client see one server.
    CHECK(registry_entry.at("name").as_string() == mcp_bridge::registry_identity().name);
    CHECK(registry_entry.at("description").as_string() == mcp_bridge::registry_identity().description);
    CHECK(registry_entry.at("remotes").at(0).at("type").as_string() == "streamable-http");
    CHECK(std::string_view(registry_entry.at("remotes").at(0).at("url").as_string()).ends_with("/mcp"));
}

TEST_CASE("deploy/server.json's package is the image of deploy/Dockerfile running `lowcostgpu mcp --upstream` over stdio")
{
    std::ifstream in(LCG_SOURCE_DIR "/deploy/server.json");
    REQUIRE(in);
    std::string const text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto const registry_entry = json::parse(text).as_object();
    auto const& packages = registry_entry.at("packages").as_array();
    REQUIRE(packages.size() == 1);
    auto const& package = packages.at(0).as_object();
    CHECK(package.at("registryType") == "oci");
    CHECK(package.at("transport").at("type") == "stdio");
    // The image's tag is the server's version.
    CHECK(std::string_view(package.at("identifier").as_string())
              .ends_with(":" + mcp_bridge::server_identity().version));
    auto const& arguments = package.at("packageArguments").as_array();
    REQUIRE(arguments.size() == 3);
    CHECK(arguments.at(0).at("value") == "mcp");
    CHECK(arguments.at(1).at("name") == "--upstream");
    CHECK(arguments.at(2).at("name") == "--upstream-keys");
    // The keys file the mount puts in the container is the one --upstream-keys reads.
    std::string const mount(package.at("runtimeArguments").at(0).at("value").as_string());
    CHECK(mount.find("dst=" + std::string(arguments.at(2).at("value").as_string()) + ",") != std::string::npos);
    // The registry checks an image's owner by this label of the image.
    std::ifstream dockerfile(LCG_SOURCE_DIR "/deploy/Dockerfile");
    REQUIRE(dockerfile);
    std::string const recipe((std::istreambuf_iterator<char>(dockerfile)), std::istreambuf_iterator<char>());
    CHECK(recipe.find("io.modelcontextprotocol.server.name=\"" + mcp_bridge::registry_identity().name + "\"") !=
          std::string::npos);
}
