// The MCP / JSON-RPC core over arbitrary bytes, on the fixture snapshot of the HTTP and MCP tests: it must
// always answer with JSON-RPC (one response, a batch's array of them, or nothing for notifications),
// never crash, never answer -32603 (an internal error).
// The first byte picks the transport and which protocol headers come along.
#include "../mcp/fixture_server.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace {

lcg::mcp::server const& fuzz_server()
{
    return lcg::testing::fixture_mcp_server();
}

}

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size)
{
    if (size == 0)
        return 0;
    std::uint8_t const mode = data[0];
    std::string_view const message(reinterpret_cast<char const*>(data + 1), size - 1);
    lcg::mcp::message_context context;
    context.via = mode & 1 ? lcg::mcp::transport::http : lcg::mcp::transport::stdio;
    if (mode & 2)
        context.protocol_version_header = "2026-07-28";
    if (mode & 4)
        context.method_header = "tools/call";
    if (mode & 8)
        context.name_header = "get_prices";
    auto const reply = fuzz_server().handle(message, context);
    if (reply.error == lcg::mcp::error_code::internal_error)
        std::abort();
    if (!reply.empty()) {
        boost::system::error_code ec;
        auto const v = boost::json::parse(reply.text(), ec);
        if (ec)
            std::abort();
        // One response, or a batch's array of them (never empty: a batch of notifications only
        // gets no body).
        auto const is_response = [](boost::json::value const& r) {
            return r.is_object() && r.as_object().contains("jsonrpc");
        };
        bool const batch_of_responses = v.is_array() && !v.as_array().empty() &&
                                        std::all_of(v.as_array().begin(), v.as_array().end(), is_response);
        if (!is_response(v) && !batch_of_responses)
            std::abort();
    }
    return 0;
}
