// Lookups that never answer the wrong thing, on the sample data's whole catalog and glossary, through
// both faces: GET /v1/gpus/{gpu} and /v1/glossary/{term} over HTTP, get_gpu and explain_term as MCP
// tools over POST /mcp. Each row is asked both ways and must get the same answer: the model or term
// it names, or a refusal whose candidates start as the row says.
#include "harness.hpp"

#include "api/operation.hpp"

#include <doctest/doctest.h>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <map>
#include <string>
#include <vector>

using namespace lcg::testing;
namespace json = boost::json;

namespace {

struct lookup_row {
    std::string text;
    std::string lang;                 // "" or "fr": the lang argument
    std::string found;                // the slug or id answered, "" for a refusal
    std::vector<std::string> first;   // a refusal's first candidates, in order
    bool loose = false;               // a glossary answer marked as a loose match
};

std::string percent_encoded(std::string const& text)
{
    static char const hex[] = "0123456789ABCDEF";
    std::string out;
    for (unsigned char c : text) {
        if (std::isalnum(c) || c == '-' || c == '_' || c == '.')
            out += static_cast<char>(c);
        else
            out += {'%', hex[c >> 4], hex[c & 15]};
    }
    return out;
}

json::object call_tool(server_process const& server, std::string const& tool, json::object arguments)
{
    json::object message{{"jsonrpc", "2.0"}, {"id", 1}, {"method", "tools/call"},
                         {"params", {{"name", tool}, {"arguments", std::move(arguments)}}}};
    auto const reply = http_request(server.port(), "POST", "/mcp",
                                    {{"Content-Type", "application/json"}, {"Accept", "application/json"}},
                                    json::serialize(message));
    REQUIRE(reply.status == 200);
    return json::parse(reply.body).at("result").as_object();
}

void check_both_faces(server_process const& server, std::string const& route, std::string const& tool,
                      std::string const& parameter, std::string const& answer_key, lookup_row const& row)
{
    CAPTURE(row.text);
    auto const target = route + percent_encoded(row.text) + (row.lang.empty() ? "" : "?lang=" + row.lang);
    auto const http = server.get(target);
    json::object arguments{{parameter, row.text}};
    if (!row.lang.empty())
        arguments["lang"] = row.lang;
    auto const mcp = call_tool(server, tool, arguments);
    if (!row.found.empty()) {
        REQUIRE(http.status == 200);
        auto const body = json::parse(http.body).as_object();
        CHECK(body.at(answer_key).as_string() == row.found);
        CHECK(body.contains("match") == row.loose);
        REQUIRE(mcp.at("isError") == false);
        CHECK(mcp.at("structuredContent").as_object() == body);
        return;
    }
    REQUIRE(http.status == 404);
    CHECK(http.header("content-type") == "application/problem+json");
    auto const problem = json::parse(http.body).as_object();
    auto const& suggestions = problem.at("suggestions").as_array();
    REQUIRE(suggestions.size() >= row.first.size());
    std::string closest;
    for (std::size_t i = 0; i < row.first.size(); ++i) {
        CHECK(suggestions[i].as_string() == row.first[i]);
        closest += (i ? ", " : "") + row.first[i];
    }
    REQUIRE(mcp.at("isError") == true);
    auto const text = std::string(mcp.at("content").at(0).at("text").as_string());
    CHECK(text == std::string(problem.at("detail").as_string()));
    if (!closest.empty())
        CHECK(text.find("closest: " + closest) != std::string::npos);
}

// A request of one operation: its example's arguments, with `changed` set (an empty value drops the
// argument), as an HTTP target (path segments filled in, the rest as the query) and as MCP tool
// arguments, every value a string.
struct asked {
    std::string target;
    json::object arguments;
};

asked request_of(lcg::api::operation const& op, std::map<std::string, std::string> values, bool french)
{
    asked out{std::string(op.route), {}};
    values.erase("lang");
    std::string query;
    for (auto const& [name, value] : values) {
        out.arguments[name] = value;
        auto const segment = "{" + name + "}";
        if (auto const at = out.target.find(segment); at != std::string::npos)
            out.target.replace(at, segment.size(), percent_encoded(value));
        else
            query += (query.empty() ? "?" : "&") + name + "=" + percent_encoded(value);
    }
    if (french) {
        query += (query.empty() ? "?" : "&") + std::string("lang=fr");
        out.arguments["lang"] = "fr";
    }
    out.target += query;
    return out;
}

// Words that only an English message holds (a French one quotes inputs, ids and parameter names).
bool reads_english(std::string const& text)
{
    for (char const* word : {"accepted", "required", " is ", " are ", "given", "unknown", " the ", " of ", " not ",
                             " no ", "must", " or ", " only ", " with ", "give "})
        if (text.find(word) != std::string::npos)
            return true;
    return false;
}

// French typography: a narrow no-break space before a colon or a semicolon, never a plain one.
bool plain_space_before_colon(std::string const& text)
{
    return text.find(" :") != std::string::npos || text.find(" ;") != std::string::npos;
}

}

TEST_CASE("a GPU lookup answers the model named, or ranked candidates, never a loose guess (HTTP and MCP)")
{
    test_database db;
    server_process server(db.url("reader"));
    std::vector<lookup_row> const rows{
        {"h100-sxm", "", "h100-sxm", {}},
        {"NVIDIA H100 SXM5 80GB", "", "h100-sxm", {}},
        {"h100sxm", "", "h100-sxm", {}},              // squeezed
        {"rtx4090", "", "rtx-4090", {}},
        {"nvidia-h100-sxm", "", "h100-sxm", {}},      // the cloud document's ids
        {"nvidia-l40", "", "l40", {}},
        {"nvidia-h100", "", "", {"h100-sxm", "h100-pcie", "h100-nvl"}},
        {"nvidia-a100-80", "", "", {"a100-80gb-sxm", "a100-80gb-pcie"}},  // never the 40 GB model first
        {"mi300", "", "", {"mi300x"}},
        {"blackwell", "", "", {"rtx-pro-6000-blackwell"}},  // a family
        {"ada", "", "", {"rtx-6000-ada"}},
        {"hopper", "", "", {"h100-sxm", "h200-sxm"}},
        {"141gb", "", "", {"h200-sxm", "h200-nvl"}},        // a memory size: the H200 NVL has it too
        {"h10-sxm", "", "", {"h100-sxm"}},                  // a typo
    };
    for (auto const& row : rows)
        check_both_faces(server, "/v1/gpus/", "get_gpu", "gpu", "id", row);
    // A family is not called a GPU of the catalog, nor several of the same name.
    auto const family = json::parse(server.get("/v1/gpus/blackwell").body).at("detail").as_string();
    CHECK(std::string(family).find("names a family or a memory size, not one GPU") != std::string::npos);
    auto const typo = json::parse(server.get("/v1/gpus/h10-sxm").body).at("detail").as_string();
    CHECK(std::string(typo).find("is not a GPU of the catalog") != std::string::npos);
}

TEST_CASE("a glossary lookup finds names and acronyms in either language and marks a loose match (HTTP and MCP)")
{
    test_database db;
    server_process server(db.url("reader"));
    std::vector<lookup_row> const rows{
        {"gpu-hour", "", "gpu-hour", {}},
        {"TP", "", "tensor-parallelism", {}},
        {"NVL", "fr", "nvlink", {}},
        {"Clé API", "", "api-key", {}},            // a French name, asked without lang
        {"gpu hours", "fr", "gpu-hour", {}},       // an English alias, asked in French
        {"spot", "fr", "interruptible-instance", {}},
        {"interruptible", "", "interruptible-instance", {}, true},
        {"MIG", "", "mig", {}},                     // an acronym, in either language
        {"MIG", "fr", "mig", {}},
        {"multi-instance GPU", "", "mig", {}},       // not "Multi-GPU instance", the opposite idea
        {"GPU multi-instance", "", "mig", {}},       // its French name, asked without lang
        {"silicon", "", "", {}},                     // only in a definition: not a name
        {"interruptibel", "", "", {"interruptible-instance"}},
    };
    for (auto const& row : rows)
        check_both_faces(server, "/v1/glossary/", "explain_term", "term", "slug", row);
    auto const loose = json::parse(server.get("/v1/glossary/interruptible").body).as_object();
    CHECK(loose.at("match").at("asked").as_string() == "interruptible");
    auto const page = server.get("/v1/glossary/interruptible.md?lang=fr");
    REQUIRE(page.status == 200);
    CHECK(page.body.find("Trouvé d’après le début d’un de ses noms") != std::string::npos);
    // What only shares words with a name, in another order, is offered, never answered.
    auto const wrong = json::parse(server.get("/v1/glossary/gpu%20instance%20multi").body).as_object();
    CHECK(std::string(wrong.at("detail").as_string()).starts_with("term: no glossary entry is named 'gpu instance multi'"));
}

TEST_CASE("French in: decimal commas and the tiers' French words, in a call made in French (HTTP)")
{
    test_database db;
    server_process server(db.url("reader"));
    auto const comma = server.get("/v1/estimate?gpu=h100-sxm&hours=1,5&lang=fr");
    REQUIRE(comma.status == 200);
    auto const point = server.get("/v1/estimate?gpu=h100-sxm&hours=1.5&lang=fr");
    REQUIRE(point.status == 200);
    CHECK(json::parse(comma.body) == json::parse(point.body));
    // The same through Accept-Language.
    CHECK(server.get("/v1/estimate?gpu=h100-sxm&hours=1,5", {{"Accept-Language", "fr-FR"}}).status == 200);
    // In English a comma is refused: "1,500" could mean fifteen hundred.
    auto const english = server.get("/v1/estimate?gpu=h100-sxm&hours=1,5");
    CHECK(english.status == 400);
    CHECK(json::parse(english.body).at("parameter").as_string() == "hours");
    // Tiers as the glossary and the pages write them, in any letter case, on every operation.
    auto const spot = json::parse(server.get("/v1/estimate?gpu=h100-sxm&hours=2&tier=spot").body);
    for (char const* word : {"interruptible", "SPOT", "Preemptible"})
        CHECK(json::parse(server.get(std::string("/v1/estimate?gpu=h100-sxm&hours=2&tier=") + word).body) == spot);
    auto const reserved = json::parse(server.get("/v1/estimate?gpu=h100-sxm&hours=2&tier=reserved").body);
    CHECK(json::parse(server.get("/v1/estimate?gpu=h100-sxm&hours=2&tier=r%C3%A9serv%C3%A9").body) == reserved);
    auto const on_demand = json::parse(server.get("/v1/estimate?gpu=h100-sxm&hours=2").body);
    CHECK(json::parse(server.get("/v1/estimate?gpu=h100-sxm&hours=2&tier=%C3%A0%20la%20demande").body) == on_demand);
    // The history accepts what the prices accept (it refused SPOT).
    CHECK(server.get("/v1/history?tier=SPOT").status == 200);
    CHECK(server.get("/v1/history?tier=SPOT").body == server.get("/v1/history?tier=spot").body);
    CHECK(server.get("/v1/history?tier=cheap").status == 400);
}

TEST_CASE("French out: every refusal of a call made in French is written in French, on both faces")
{
    test_database db;
    server_process server(db.url("reader"));
    int refusals = 0;
    for (auto const& op : lcg::api::operations()) {
        std::map<std::string, std::string> example;
        for (auto const& [name, value] : lcg::api::example_arguments(op))
            example[std::string(name)] = std::string(value);
        // Each argument in turn replaced by a value no parameter takes or left out, and one
        // argument that the operation does not know.
        std::vector<std::map<std::string, std::string>> variants;
        for (auto const& p : op.parameters()) {
            if (p.name == "lang")
                continue;
            auto bad = example;
            bad[std::string(p.name)] = "zz!";
            variants.push_back(bad);
            if (example.contains(std::string(p.name)) && p.required && op.route.find("{" + std::string(p.name) + "}") == std::string_view::npos) {
                auto missing = example;
                missing.erase(std::string(p.name));
                variants.push_back(missing);
            }
        }
        auto unknown = example;
        unknown["zz"] = "1";
        variants.push_back(unknown);
        for (auto const& values : variants) {
            auto const fr = request_of(op, values, true);
            auto const en = request_of(op, values, false);
            CAPTURE(fr.target);
            auto const http = server.get(fr.target);
            if (http.status >= 400) {
                ++refusals;
                CHECK(http.header("content-language") == "fr");
                auto const problem = json::parse(http.body).as_object();
                auto const title = std::string(problem.at("title").as_string());
                CHECK((title == "Requête incorrecte" || title == "Introuvable" || title == "Service indisponible"));
                auto const detail = std::string(problem.at("detail").as_string());
                CAPTURE(detail);
                CHECK_FALSE(reads_english(detail));
                CHECK(plain_space_before_colon(detail) == false);
                auto const english = json::parse(server.get(en.target).body).as_object();
                CHECK(english.at("detail").as_string() != detail);
                CHECK(reads_english(std::string(english.at("detail").as_string())));
            }
            auto const mcp = call_tool(server, std::string(op.tool), fr.arguments);
            if (mcp.at("isError") == true) {
                ++refusals;
                auto const text = std::string(mcp.at("content").at(0).at("text").as_string());
                CAPTURE(text);
                CHECK_FALSE(reads_english(text));
                CHECK(plain_space_before_colon(text) == false);
                auto const english = call_tool(server, std::string(op.tool), en.arguments);
                CHECK(english.at("content").at(0).at("text").as_string() != text);
            }
        }
    }
    CHECK(refusals > 100);  // the sweep reached the refusals, not only answers
    // A refused lang is refused in the language of Accept-Language.
    auto const lang = server.get("/v1/prices?lang=de", {{"Accept-Language", "fr"}});
    CHECK(lang.status == 400);
    CHECK_FALSE(reads_english(std::string(json::parse(lang.body).at("detail").as_string())));
    // French through Accept-Language alone, and a calculator's refusal under its form.
    auto const header = server.get("/v1/estimate?gpu=h100-sxm&hours=abc", {{"Accept-Language", "fr-FR"}});
    CHECK(header.status == 400);
    CHECK(json::parse(header.body).at("detail").as_string().starts_with("hours\u202F: 'abc' n’est pas un nombre\u202F; accepté\u202F: un nombre supérieur à 0"));
    // What is refused before the query is read (no such path, a method, a format) follows
    // Accept-Language.
    std::map<std::string, std::string> const french{{"Accept-Language", "fr"}};
    for (auto const& reply : {server.get("/nowhere", french), server.get("/v1/prices", {{"Accept-Language", "fr"}, {"Accept", "image/png"}}),
                              http_request(server.port(), "DELETE", "/v1/prices", french, "")}) {
        CHECK(reply.status >= 400);
        auto const detail = std::string(json::parse(reply.body).at("detail").as_string());
        CAPTURE(detail);
        CHECK_FALSE(reads_english(detail));
        CHECK_FALSE(plain_space_before_colon(detail));
    }
    auto const page = server.get("/v1/estimate.html?gpu=h100-sxm&hours=abc&lang=fr");
    CHECK(page.status == 400);
    CHECK(page.body.find("Requête incorrecte") != std::string::npos);
    CHECK(page.body.find("n’est pas un nombre") != std::string::npos);
}
