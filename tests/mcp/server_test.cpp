#include "mcp/server.hpp"
#include "mcp/tool_calls.hpp"

#include "mcp/stdio.hpp"

#include "fixture_server.hpp"

#include "pricing/estimate.hpp"
#include "pricing/rules.hpp"
#include "pricing/utf8.hpp"

#include <doctest/doctest.h>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <random>
#include <set>
#include <sstream>
#include <string>

namespace {

using namespace lcg;
namespace json = boost::json;

// A message's context on `via`, with the MCP-Protocol-Version header `version` (HTTP only).
mcp::message_context over(mcp::transport via, std::optional<std::string_view> version = std::nullopt)
{
    mcp::message_context c;
    c.via = via;
    c.protocol_version_header = version;
    return c;
}

mcp::server const& test_server()
{
    return testing::fixture_mcp_server();
}

json::value ask(std::string const& method, std::string const& params)
{
    auto const r = test_server().handle(R"({"jsonrpc":"2.0","id":1,"method":")" + method + R"(","params":)" + params + "}",
                                        {});
    return json::parse(r.text());
}

json::object call(std::string const& tool, std::string const& arguments)
{
    auto const r = test_server().handle(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":")" + tool +
                                            R"(","arguments":)" + arguments + "}}",
                                        {});
    return json::parse(r.text()).at("result").as_object();
}

}

TEST_CASE("decode_header_value reads the Base64 sentinel form and passes plain values through")
{
    CHECK(mcp::decode_header_value("get_prices") == "get_prices");
    CHECK(mcp::decode_header_value("=?base64?SGVsbG8sIOS4lueVjA==?=") == "Hello, 世界");
    CHECK(mcp::decode_header_value("=?base64?IHBhZGRlZCA=?=") == " padded ");
    CHECK_FALSE(mcp::decode_header_value("=?base64?not base64!?=").has_value());
    CHECK_FALSE(mcp::decode_header_value("=?base64?abc?=").has_value());
}

TEST_CASE("estimate_job_cost gives the amounts of pricing::estimate_job")
{
    auto const& data = *testing::fixture_view();
    pricing::estimate_parameters params;
    params.gpu = "h100-sxm";
    params.gpus = "2";
    params.hours = "10.5";
    params.storage_gb = "250";
    params.egress_gb = "12.5";
    auto const job = pricing::parse_job(params, data.catalog());
    REQUIRE(job);
    auto const expected = pricing::estimate_job(*job, data.current_sheet()->find("h100-sxm"));
    REQUIRE(expected);

    auto const result = call("estimate_job_cost",
                             R"({"gpu":"H100-SXM","gpus":2,"hours":10.5,"storage_gb":250,"egress_gb":12.5})");
    REQUIRE(result.at("isError") == false);
    auto const& s = result.at("structuredContent").as_object();
    CHECK(s.at("total").as_string() == pricing::to_decimal(expected->total));
    auto const& lines = s.at("lines").as_array();
    REQUIRE(lines.size() == expected->lines.size());
    for (std::size_t i = 0; i < lines.size(); ++i)
        CHECK(lines[i].at("amount").as_string() == pricing::to_decimal(expected->lines[i].amount));
    for (std::size_t i = 0; i < expected->tiers.size(); ++i)
        CHECK(s.at("tiers").as_array()[i].at("total").as_string() == pricing::to_decimal(expected->tiers[i].total));
}

TEST_CASE("the pre-rendered default get_prices answer is the sheet of GET /v1/prices")
{
    auto const fast = call("get_prices", "{}");
    auto const http = testing::fixture_request("/v1/prices");
    CHECK(fast.at("structuredContent") == json::parse(http.body()));
    CHECK(fast == call("get_prices", R"({"sort":"gpu"})"));
}

TEST_CASE("a reply ending with a result the server keeps holds only its opening: the kept bytes are not copied")
{
    for (auto const* message : {R"({"jsonrpc":"2.0","id":"a-b","method":"tools/call","params":{"name":"get_prices"}})",
                                R"({"jsonrpc":"2.0","id":12,"method":"tools/list"})"}) {
        CAPTURE(message);
        auto const first = test_server().handle(message, {});
        auto const again = test_server().handle(message, {});
        CHECK(first.body.size() < 64);
        REQUIRE(first.lasting_end.size() > 1000);
        CHECK(first.lasting_end.data() == again.lasting_end.data());  // the same bytes, at the same address
        auto const whole = json::parse(first.text()).as_object();
        CHECK(whole.at("id") == json::parse(message).at("id"));
        CHECK(whole.at("result").is_object());
    }
}

TEST_CASE("no input crashes the server or goes unanswered: random bytes and mutated messages (fixed seed)")
{
    std::mt19937 rng(20261130);
    std::string const seeds[] = {
        R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"estimate_job_cost","arguments":{"gpu":"h100-sxm","hours":2}}})",
        R"({"jsonrpc":"2.0","id":"a","method":"resources/read","params":{"uri":"lowcostgpu://glossary/gpu-hour?lang=fr"}})",
        R"({"jsonrpc":"2.0","id":2,"method":"completion/complete","params":{"ref":{"type":"ref/resource","uri":"lowcostgpu://gpus/{id}"},"argument":{"name":"id","value":"h"}}})",
        R"([{"jsonrpc":"2.0","id":3,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"},{"jsonrpc":"2.0","id":4,"method":"prompts/get","params":{"name":"explain_pricing","arguments":{"term":"gpu-hour"}}}])",
    };
    for (int i = 0; i < 4000; ++i) {
        std::string message = seeds[static_cast<std::size_t>(i) % 4];
        int const edits = 1 + static_cast<int>(rng() % 4);
        for (int e = 0; e < edits && !message.empty(); ++e) {
            auto const at = rng() % message.size();
            switch (rng() % 3) {
            case 0: message[at] = static_cast<char>(rng() % 256); break;
            case 1: message.erase(at, 1 + rng() % 8); break;
            default: message.insert(at, 1, "{}[]\",:0\\"[rng() % 10]); break;
            }
        }
        mcp::message_context context;
        if (i % 2)
            context.via = mcp::transport::http;
        auto const r = test_server().handle(message, context);
        if (r.text().empty()) {
            CHECK_FALSE(r.error.has_value());
            continue;
        }
        boost::system::error_code ec;
        auto const v = json::parse(r.text(), ec);
        REQUIRE_MESSAGE(!ec, message);
        if (v.is_array()) {
            for (auto const& answer : v.as_array())
                CHECK(answer.as_object().at("jsonrpc") == "2.0");
            continue;
        }
        CHECK(v.as_object().at("jsonrpc") == "2.0");
    }
}

TEST_CASE("every example and URI the prompts give names something the data has")
{
    auto const list = ask("prompts/list", "{}").at("result").at("prompts").as_array();
    std::size_t examples = 0;
    std::vector<std::string> texts;
    for (auto const& prompt : list) {
        std::string const name(prompt.at("name").as_string());
        texts.emplace_back(prompt.at("description").as_string());
        json::object arguments;
        for (auto const& argument : prompt.at("arguments").as_array()) {
            std::string const arg(argument.at("name").as_string());
            std::string const description(argument.at("description").as_string());
            texts.push_back(description);
            // What completion offers for the argument: when it offers anything, an example in the
            // description ("e.g. h100-sxm") must be one of those values.
            auto const ref = R"({"ref":{"type":"ref/prompt","name":")" + name + R"("},"argument":{"name":")" + arg;
            auto const offered = ask("completion/complete", ref + R"(","value":""}})")
                                     .at("result").at("completion").at("values").as_array();
            auto const at = description.find("e.g. ");
            if (at != std::string::npos && !offered.empty()) {
                auto const example = description.substr(at + 5, description.find_first_of(", )", at + 5) - at - 5);
                CAPTURE(name);
                CAPTURE(example);
                CHECK(std::find(offered.begin(), offered.end(), json::value(example)) != offered.end());
                ++examples;
            }
            arguments[arg] = offered.empty() ? json::value("10") : offered.front();
        }
        // The text of the prompt itself, every argument given.
        auto const got = ask("prompts/get", json::serialize(json::object{{"name", name}, {"arguments", arguments}}));
        REQUIRE_MESSAGE(got.as_object().contains("result"), json::serialize(got));
        texts.emplace_back(got.at("result").at("messages").at(0).at("content").at("text").as_string());
    }
    CHECK(examples >= 2);  // a GPU id and a glossary slug

    // Every lowcostgpu:// URI a prompt mentions reads.
    std::size_t uris = 0;
    for (auto const& text : texts) {
        for (auto at = text.find("lowcostgpu://"); at != std::string::npos; at = text.find("lowcostgpu://", at + 1)) {
            auto uri = text.substr(at, text.find_first_of(" ),", at) - at);
            CAPTURE(uri);
            auto const read = ask("resources/read", json::serialize(json::object{{"uri", uri}}));
            CHECK(read.as_object().contains("result"));
            ++uris;
        }
    }
    CHECK(uris >= 2);  // the methodology, and the glossary entry of explain_pricing's term
}

TEST_CASE("duplicated keys are found in objects of any size, and only then")
{
    auto const message = [](int keys, std::string const& extra) {
        std::string m = R"({"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{)";
        for (int i = 0; i < keys; ++i)
            m += (i ? "," : "") + std::string("\"k") + std::to_string(i) + "\":" + std::to_string(i);
        return m + extra + "}}}";
    };
    for (int keys : {2, 8, 9, 20000}) {
        CAPTURE(keys);
        auto const fine = json::parse(test_server().handle(message(keys, ""), {}).text());
        CHECK(fine.as_object().contains("result"));
        auto const twice = json::parse(test_server().handle(message(keys, R"(,"k1":"again")"), {}).text());
        CHECK(twice.at("error").at("code") == -32600);
        CHECK(std::string(twice.at("error").at("message").as_string()).find("'k1'") != std::string::npos);
        CHECK(twice.at("id") == 1);
    }
    // A key spelled with escapes is the key it spells; the same key in sibling objects is no repeat.
    auto const escaped = json::parse(test_server().handle(message(3, R"(,"\u006b2":0)"), {}).text());
    CHECK(escaped.at("error").at("code") == -32600);
    auto const siblings = json::parse(
        test_server().handle(R"({"jsonrpc":"2.0","id":2,"method":"ping","params":{"_meta":{"a":{"k":1},"b":{"k":1}}}})", {})
            .text());
    CHECK(siblings.as_object().contains("result"));
}

TEST_CASE("a repeated id is never echoed, whatever other key repeats before it")
{
    for (std::string const message :
         {R"({"jsonrpc":"2.0","id":1,"id":2,"method":"tools/list"})",
          R"({"jsonrpc":"2.0","id":1,"id":2,"method":"tools/list","params":{"cursor":null,"cursor":null}})",
          R"({"jsonrpc":"2.0","params":{"a":1,"a":2},"method":"ping","method":"ping","id":1,"id":2})"}) {
        CAPTURE(message);
        auto const refused = json::parse(test_server().handle(message, {}).text());
        CHECK(refused.at("error").at("code") == -32600);
        CHECK(refused.at("id").is_null());
        CHECK(std::string(refused.at("error").at("message").as_string()).find("the key 'id' appears twice") !=
              std::string::npos);
    }
}

TEST_CASE("over stdio, the 2026-07-28 revision is promised no subscriptions and cannot make one")
{
    std::string const meta = R"("_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",)"
                             R"("io.modelcontextprotocol/clientCapabilities":{}})";
    auto const discover = json::parse(
        test_server()
            .handle(R"({"jsonrpc":"2.0","id":1,"method":"server/discover","params":{)" + meta + "}}", {})
            .text());
    auto const& resources = discover.at("result").at("capabilities").at("resources");
    CHECK(resources.at("subscribe") == false);
    CHECK(resources.at("listChanged") == false);
    auto const subscribe = json::parse(
        test_server()
            .handle(R"({"jsonrpc":"2.0","id":2,"method":"resources/subscribe","params":{"uri":"lowcostgpu://prices",)" +
                        meta + "}}",
                    {})
            .text());
    CHECK(subscribe.at("error").at("code") == -32601);
    // The earlier revisions keep both.
    auto const initialize = json::parse(
        test_server()
            .handle(R"({"jsonrpc":"2.0","id":3,"method":"initialize","params":{"protocolVersion":"2025-11-25",)"
                    R"("capabilities":{},"clientInfo":{"name":"t","version":"1"}}})",
                    {})
            .text());
    CHECK(initialize.at("result").at("capabilities").at("resources").at("subscribe") == true);
}

TEST_CASE("the stdio transport writes a batch's answers as one line holding an array")
{
    auto const server = std::shared_ptr<const mcp::server>(&test_server(), [](mcp::server const*) {});
    std::istringstream in(
        "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"},{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"},"
        "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}]\n"
        "[{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}]\n"
        "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}\n");
    std::ostringstream out;
    mcp::serve_stdio([&] { return server; }, in, out);
    CHECK(out.str() == "[{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}},{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}]\n"
                       "{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{}}\n");
}

namespace {

// The fixture's data, except that reading the current sheet throws once armed (after the server has
// pre-rendered its answers): a fault the core cannot foresee.
class failing_view : public api::data_view {
public:
    bool armed = false;
    pricing::catalog const& catalog() const override { return testing::fixture_view()->catalog(); }
    pricing::price_sheet const* current_sheet() const override
    {
        if (armed)
            throw std::runtime_error("the sheet exploded");
        return testing::fixture_view()->current_sheet();
    }
    std::span<const pricing::price_sheet> sheets() const override { return testing::fixture_view()->sheets(); }
    glossary::document const* glossary(locale::language lang) const override
    {
        return testing::fixture_view()->glossary(lang);
    }
    std::string_view glossary_problem() const override { return testing::fixture_view()->glossary_problem(); }
    std::optional<api::document_ref> document(std::string_view path) const override
    {
        return testing::fixture_view()->document(path);
    }
};

std::string tools_call(std::string const& tool, std::string const& arguments)
{
    return R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":")" + tool + R"(","arguments":)" +
           arguments + "}}";
}

}

TEST_CASE("a reply says which tools it called and how each ended, for the transport's metrics")
{
    auto const ok = test_server().handle(tools_call("get_prices", "{}"), {});
    REQUIRE(ok.tool_calls.size() == 1);
    CHECK(ok.tool_calls[0].tool == "get_prices");
    CHECK(ok.tool_calls[0].outcome == "ok");
    auto const computed = test_server().handle(tools_call("get_gpu", R"({"gpu":"h100-sxm"})"), {});
    REQUIRE(computed.tool_calls.size() == 1);
    CHECK(computed.tool_calls[0].outcome == "ok");
    auto const refused = test_server().handle(tools_call("get_gpu", R"({"gpu":"nope"})"), {});
    REQUIRE(refused.tool_calls.size() == 1);
    CHECK(refused.tool_calls[0].outcome == "tool_error");
    // A name nobody registered is not a label: it is counted as "(unknown)".
    auto const unknown = test_server().handle(tools_call("no_such_tool_1234", "{}"), {});
    REQUIRE(unknown.tool_calls.size() == 1);
    CHECK(unknown.tool_calls[0].tool == "(unknown)");
    CHECK(unknown.tool_calls[0].outcome == "rpc_error");
    auto const batch = test_server().handle("[" + tools_call("get_prices", "{}") + "," +
                                                tools_call("get_gpu", R"({"gpu":"nope"})") + "]",
                                            {});
    CHECK(batch.tool_calls.size() == 2);
    CHECK(test_server().handle(R"({"jsonrpc":"2.0","id":1,"method":"ping"})", {}).tool_calls.empty());
}

TEST_CASE("an unexpected exception is a -32603 without internals, and the reply carries what happened")
{
    auto const view = std::make_shared<failing_view>();
    mcp::server const broken(view, {"lowcostgpu", "LowCostGPU pricing", "test"});
    view->armed = true;
    auto const r = broken.handle(tools_call("get_prices", R"({"tier":"spot"})"), {});
    CAPTURE(r.text());
    auto const body = json::parse(r.text()).as_object();
    CHECK(body.at("error").at("code") == -32603);
    CHECK(r.text().find("exploded") == std::string::npos);  // nothing internal reaches the client
    REQUIRE(r.failures.size() == 1);
    CHECK(r.failures[0].find("the sheet exploded") != std::string::npos);
    CHECK(r.failures[0].find("tools/call") != std::string::npos);  // and what was being answered

    auto const batch = broken.handle("[" + tools_call("get_prices", R"({"tier":"spot"})") + "]", {});
    CHECK(batch.failures.size() == 1);

    std::istringstream in(tools_call("get_prices", R"({"tier":"spot"})") + "\n");
    std::ostringstream out, log;
    mcp::serve_stdio([&] { return std::shared_ptr<const mcp::server>(&broken, [](auto*) {}); }, in, out, &log);
    CHECK(out.str().find("-32603") != std::string::npos);
    auto const line = json::parse(log.str()).as_object();
    CHECK(line.at("event") == "caught_exception");
    CHECK(line.at("where") == "mcp");
    CHECK(std::string(line.at("detail").as_string()).find("the sheet exploded") != std::string::npos);
}

TEST_CASE("a reply says which resources a stdio client subscribed to or left, batches included, refusals not")
{
    auto const message = [](int id, std::string const& method, std::string const& uri) {
        return R"({"jsonrpc":"2.0","id":)" + std::to_string(id) + R"(,"method":")" + method + R"(","params":{"uri":")" +
               uri + R"("}})";
    };
    using change = mcp::subscription_change;
    auto const one = test_server().handle(message(1, "resources/subscribe", "lowcostgpu://prices"), {});
    CHECK(one.subscriptions == std::vector<change>{{"lowcostgpu://prices", "lowcostgpu://prices", true}});
    // Any spelling of a resource is kept under the URI the lists give it.
    auto const spelled = test_server().handle(message(9, "resources/subscribe", "lowcostgpu://gpus/H100-SXM?lang=fr"), {});
    CHECK(spelled.subscriptions ==
          std::vector<change>{{"lowcostgpu://gpus/h100-sxm?lang=fr", "lowcostgpu://gpus/H100-SXM?lang=fr", true}});
    CHECK(test_server().handle(message(2, "resources/subscribe", "lowcostgpu://nothing"), {}).subscriptions.empty());
    auto const batch = test_server().handle("[" + message(3, "resources/subscribe", "lowcostgpu://methodology") + "," +
                                                message(4, "resources/unsubscribe", "lowcostgpu://prices") + "]",
                                            {});
    CHECK(batch.subscriptions ==
          std::vector<change>{{"lowcostgpu://methodology", "lowcostgpu://methodology", true},
                              {"lowcostgpu://prices", "lowcostgpu://prices", false}});
    // Over HTTP there is no session to keep them: the methods are not offered there.
    mcp::message_context http;
    http.via = mcp::transport::http;
    CHECK(test_server().handle(message(5, "resources/subscribe", "lowcostgpu://prices"), http).subscriptions.empty());
}

TEST_CASE("check_instance takes the cloud document's word for the performance flag, and its schema says so")
{
    auto const ok = call("check_instance", R"({"gpu":"h100-sxm","vcpus":8,"memory_gib":64,"cpu_generation":"v5","cpu_performance":"highest"})");
    CHECK(ok.at("isError") == false);
    CHECK(ok.at("structuredContent").at("status") == "ok");
    auto const bad = call("check_instance", R"({"gpu":"h100-sxm","vcpus":8,"memory_gib":64,"cpu_generation":"v5","cpu_performance":"lowest"})");
    CHECK(bad.at("isError") == true);
    auto const tools = ask("tools/list", "{}");
    for (auto const& t : tools.at("result").at("tools").as_array())
        if (t.at("name") == "check_instance") {
            auto const& flag = t.at("inputSchema").at("properties").at("cpu_performance");
            CHECK(flag.at("anyOf").at(0).at("type") == "boolean");
            CHECK(flag.at("anyOf").at(1).at("enum").at(0) == "highest");
        }
}

TEST_CASE("a batch over HTTP past its CPU budget answers the messages left with an error naming each id")
{
    std::string const calls = "[" + tools_call("get_prices", "{}") + "," +
                              R"({"jsonrpc":"2.0","id":"two","method":"ping"},)" +
                              R"({"jsonrpc":"2.0","method":"notifications/initialized"},)" +
                              R"({"jsonrpc":"2.0","id":4,"method":"ping"}])";
    auto spent = over(mcp::transport::http);
    spent.batch_cpu = std::chrono::microseconds(0);  // spent by the first message, whatever it costs
    auto const r = test_server().handle(calls, spent);
    CAPTURE(r.text());
    auto const answers = json::parse(r.text()).as_array();
    REQUIRE(answers.size() == 3);  // the notification is not answered, run or not
    CHECK(answers[0].as_object().contains("result"));
    CHECK(answers[1].at("id") == "two");
    CHECK(answers[2].at("id") == 4);
    for (auto const& refused : {answers[1], answers[2]}) {
        CHECK(refused.at("error").at("code") == -32000);
        CHECK(std::string(refused.at("error").at("message").as_string()).find("budget") != std::string::npos);
    }
    CHECK(r.tool_calls.size() == 1);  // only the first ran
    // With the default budget, the same batch runs whole.
    auto const whole = json::parse(test_server().handle(calls, {}).text()).as_array();
    CHECK(whole[1].as_object().contains("result"));
    CHECK(whole[2].as_object().contains("result"));
}

TEST_CASE("over stdio a batch of 32 calls is answered whole: only HTTP counts a batch's CPU")
{
    std::string calls = "[";
    for (int i = 0; i < 32; ++i)
        calls += (i ? "," : "") + std::string(R"({"jsonrpc":"2.0","id":)") + std::to_string(i) +
                 R"(,"method":"tools/call","params":{"name":"get_prices","arguments":{"sort":"price"}}})";
    calls += "]";
    auto const answers = json::parse(test_server().handle(calls, {}).text()).as_array();
    REQUIRE(answers.size() == 32);
    for (auto const& a : answers)
        CHECK(a.as_object().contains("result"));
}

TEST_CASE("a notification is never answered, whatever its params, but over HTTP a version it cannot speak is refused")
{
    for (auto const via : {mcp::transport::stdio, mcp::transport::http}) {
        CAPTURE(static_cast<int>(via));
        for (std::string_view params : {R"([])", R"(7)", R"({"_meta": 1})", R"({})"})
            CHECK(test_server()
                      .handle(R"({"jsonrpc":"2.0","method":"notifications/initialized","params":)" + std::string(params) +
                                  "}",
                              over(via))
                      .empty());
    }
    std::string const note = R"({"jsonrpc":"2.0","method":"notifications/initialized"})";
    auto const unknown = over(mcp::transport::http, "1999-01-01");
    auto const refused = test_server().handle(note, unknown);
    REQUIRE_FALSE(refused.empty());
    CHECK(refused.error == mcp::error_code::unsupported_protocol_version);
    CHECK(json::parse(refused.text()).at("id").is_null());
    auto const known = over(mcp::transport::http, "2025-06-18");
    CHECK(test_server().handle(note, known).empty());
    CHECK(test_server().handle(note, over(mcp::transport::stdio, "1999-01-01")).empty());
}

TEST_CASE("a response sent to the server is refused without echoing its id, which names a request of the client's")
{
    auto const r = test_server().handle(R"({"jsonrpc":"2.0","id":7,"result":{}})", over(mcp::transport::http));
    CHECK(r.error == mcp::error_code::invalid_request);
    CHECK(json::parse(r.text()).at("id").is_null());
}

TEST_CASE("resources/list gives every glossary entry, model history and sheet a page at a time, each readable")
{
    auto const& data = *testing::fixture_view();
    std::vector<std::string> uris;
    std::string params = "{}";
    for (int page = 0; page < 20; ++page) {
        auto const answer = ask("resources/list", params);
        auto const& result = answer.at("result").as_object();
        auto const& resources = result.at("resources").as_array();
        CHECK(resources.size() <= pricing::rules::mcp_page_size);
        for (auto const& r : resources)
            uris.emplace_back(r.at("uri").as_string());
        auto const* next = result.if_contains("nextCursor");
        if (!next)
            break;
        CHECK(resources.size() == pricing::rules::mcp_page_size);  // only the last page is short
        params = R"({"cursor":")" + std::string(next->as_string()) + R"("})";
    }
    auto const* glossary = data.glossary(locale::language::en);
    REQUIRE(glossary);
    std::size_t const expected = 5 + glossary->term_count() + glossary->questions.size() + data.catalog().gpus.size() +
                                 data.sheets().size();
    CHECK(uris.size() == expected);
    CHECK(std::set<std::string>(uris.begin(), uris.end()).size() == uris.size());
    CHECK(std::find(uris.begin(), uris.end(), "lowcostgpu://prices/h100-sxm/history") != uris.end());
    CHECK(std::find(uris.begin(), uris.end(), "lowcostgpu://glossary/gpu-hour") != uris.end());
    for (auto const& uri : uris) {
        CAPTURE(uri);
        auto const read = ask("resources/read", R"({"uri":")" + uri + R"("})");
        CHECK(read.as_object().contains("result"));
    }
    // A cursor this server did not give, or past the end, is -32602.
    for (auto const* bad : {R"({"cursor":"page-2"})", R"({"cursor":"r1.0"})", R"({"cursor":"r1.99999"})",
                            R"({"cursor":"r1.5x"})", R"({"cursor":7})"}) {
        CAPTURE(bad);
        CHECK(ask("resources/list", bad).at("error").at("code").as_int64() == -32602);
    }
}

namespace {

// The fixture's data, counting the documents read.
class counting_view : public api::data_view {
public:
    mutable int documents_read = 0;
    pricing::catalog const& catalog() const override { return testing::fixture_view()->catalog(); }
    pricing::price_sheet const* current_sheet() const override { return testing::fixture_view()->current_sheet(); }
    std::span<const pricing::price_sheet> sheets() const override { return testing::fixture_view()->sheets(); }
    glossary::document const* glossary(locale::language lang) const override
    {
        return testing::fixture_view()->glossary(lang);
    }
    std::string_view glossary_problem() const override { return testing::fixture_view()->glossary_problem(); }
    std::optional<api::document_ref> document(std::string_view path) const override
    {
        ++documents_read;
        return testing::fixture_view()->document(path);
    }
};

}

TEST_CASE("a result made of a published document is written once per server and language, then reused")
{
    counting_view const view;
    mcp::published_results published;
    boost::json::object const english{{"gpu", "h100-sxm"}};
    auto const first = mcp::call_tool("get_gpu", &english, view, published);
    REQUIRE(first.has_value());
    CHECK_FALSE(first->is_error);
    CHECK(view.documents_read == 1);
    auto const again = mcp::call_tool("get_gpu", &english, view, published);
    CHECK(again->json == first->json);
    CHECK(view.documents_read == 1);  // not read again: the result was kept

    boost::json::object const french{{"gpu", "h100-sxm"}, {"lang", "fr"}};
    auto const in_french = mcp::call_tool("get_gpu", &french, view, published);
    CHECK(view.documents_read == 2);
    CHECK(in_french->json != first->json);
    // A computed answer is never kept: each call computes it.
    boost::json::object const estimate{{"gpu", "h100-sxm"}, {"hours", 1}};
    CHECK_FALSE(mcp::call_tool("estimate_job_cost", &estimate, view, published)->is_error);
    CHECK(view.documents_read == 2);
}

TEST_CASE("a header's bytes that are not UTF-8 are %-encoded where an error quotes them: the reply stays UTF-8")
{
    auto const old = test_server().handle(R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})",
                                          over(mcp::transport::http, "2025-\xff"));
    auto const refused = old.text();
    CHECK(pricing::utf8_length(refused));
    CHECK(refused.find("unsupported protocol version '2025-%FF'") != std::string::npos);

    auto modern = over(mcp::transport::http, "2026-07-28");
    modern.method_header = "tools/call";
    modern.name_header = "=?base64?/w==?=";  // one byte, 0xFF
    auto const mismatch = test_server()
                              .handle(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_prices",)"
                                      R"("_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",)"
                                      R"("io.modelcontextprotocol/clientCapabilities":{}}}})",
                                      modern)
                              .text();
    CHECK(pricing::utf8_length(mismatch));
    CHECK(mismatch.find("Mcp-Name '%FF' does not match") != std::string::npos);
}
