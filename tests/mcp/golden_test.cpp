// Golden exchanges: each tests/mcp/golden/*.txt file is a conversation with the MCP core, reviewed
// like code. Its first line says what it pins. Then:
//
//   # …                    a comment
//   h NAME: VALUE; …       the next message goes over HTTP with these headers ("h" alone: none);
//                          without an "h" line a message goes over stdio
//   > MESSAGE              a client message, verbatim; or a generated one: "@nest N" (a tools/call
//                          whose arguments nest N arrays deep), "@huge N" (a tools/call with an
//                          N-byte string), "@oversize" (a message over 1 MiB), "@batch N" (a
//                          batch of N pings, ids 1 to N)
//   < REPLY                what the server answers: over stdio the line, or "(no response)"; over
//                          HTTP the status, then the body when there is one
//
// The test replays every message and compares the whole file. LCG_UPDATE_GOLDENS=1 rewrites the
// files with the answers instead (then review the diff).
#include "mcp/server.hpp"

#include "server/http/handlers.hpp"

#include "fixture_server.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using namespace lcg;

std::string read_text(fs::path const& p)
{
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::string generated(std::string_view spec)
{
    std::string const head = R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"explain_term","arguments":{"term":)";
    if (spec.starts_with("@nest ")) {
        int const n = std::stoi(std::string(spec.substr(6)));
        return head + std::string(static_cast<std::size_t>(n), '[') + std::string(static_cast<std::size_t>(n), ']') +
               "}}}";
    }
    if (spec.starts_with("@huge ")) {
        auto const n = std::stoul(std::string(spec.substr(6)));
        return head + "\"" + std::string(n, 'a') + "\"}}}";
    }
    if (spec.starts_with("@batch ")) {
        int const n = std::stoi(std::string(spec.substr(7)));
        std::string batch = "[";
        for (int i = 1; i <= n; ++i)
            batch += (i > 1 ? "," : "") + std::string(R"({"jsonrpc":"2.0","id":)") + std::to_string(i) +
                     R"(,"method":"ping"})";
        return batch + "]";
    }
    if (spec == "@oversize")
        return head + "\"" + std::string(mcp::max_message_bytes, 'a') + "\"}}}";
    return std::string(spec);
}

struct pending_http {
    bool active = false;
    std::vector<std::pair<std::string, std::string>> headers;
};

pending_http parse_headers(std::string_view line)
{
    pending_http h{true, {}};
    line.remove_prefix(1);
    while (!line.empty()) {
        while (line.starts_with(' ') || line.starts_with(';'))
            line.remove_prefix(1);
        auto const end = line.find("; ");
        auto item = line.substr(0, end);
        line = end == std::string_view::npos ? std::string_view{} : line.substr(end + 2);
        auto const colon = item.find(": ");
        if (colon != std::string_view::npos)
            h.headers.emplace_back(std::string(item.substr(0, colon)), std::string(item.substr(colon + 2)));
    }
    return h;
}

std::string replay(std::string const& text, mcp::server const& server)
{
    std::string out;
    std::istringstream in(text);
    std::string line;
    pending_http http;
    while (std::getline(in, line)) {
        if (line.starts_with("< "))
            continue;
        out += line + "\n";
        if (line == "h" || line.starts_with("h ")) {
            http = parse_headers(line);
            continue;
        }
        if (!line.starts_with("> "))
            continue;
        std::string const message = generated(std::string_view(line).substr(2));
        mcp::message_context context;
        if (http.active) {
            context.via = mcp::transport::http;
            for (auto const& [name, value] : http.headers) {
                if (name == "MCP-Protocol-Version")
                    context.protocol_version_header = value;
                else if (name == "Mcp-Method")
                    context.method_header = value;
                else if (name == "Mcp-Name")
                    context.name_header = value;
            }
        }
        auto const answer = server.handle(message, context);
        auto const said = answer.text();
        if (http.active)
            out += "< " + std::to_string(static_cast<unsigned>(http::mcp_status(answer))) +
                   (said.empty() ? "" : " " + said) + "\n";
        else
            out += "< " + (said.empty() ? std::string("(no response)") : said) + "\n";
        http = {};
    }
    return out;
}

std::vector<fs::path> golden_files()
{
    std::vector<fs::path> files;
    for (auto const& e : fs::directory_iterator(LCG_MCP_GOLDEN_DIR))
        if (e.path().extension() == ".txt")
            files.push_back(e.path());
    std::sort(files.begin(), files.end());
    return files;
}

}

TEST_CASE("golden exchanges replay exactly")
{
    mcp::server const& server = lcg::testing::fixture_mcp_server();
    bool const update = std::getenv("LCG_UPDATE_GOLDENS") != nullptr;
    auto const files = golden_files();
    REQUIRE(files.size() >= 10);
    for (auto const& file : files) {
        CAPTURE(file.filename().string());
        std::string const expected = read_text(file);
        REQUIRE_MESSAGE(expected.starts_with("# "), "the first line says what the file pins");
        std::string const actual = replay(expected, server);
        if (update) {
            std::ofstream(file, std::ios::binary) << actual;
            continue;
        }
        if (actual == expected) {
            CHECK(true);
            continue;
        }
        // Name the first line that differs, with both versions.
        std::istringstream a(actual), e(expected);
        std::string la, le;
        int n = 0;
        while (true) {
            ++n;
            bool const more_a = static_cast<bool>(std::getline(a, la));
            bool const more_e = static_cast<bool>(std::getline(e, le));
            if (!more_a && !more_e)
                break;
            if (la != le || more_a != more_e) {
                FAIL_CHECK("line " << n << " differs\n expected: " << le.substr(0, 2000) << "\n   actual: "
                                   << la.substr(0, 2000));
                break;
            }
        }
    }
}
