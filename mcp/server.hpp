#pragma once

#include "api/data_view.hpp"
#include "mcp/failure.hpp"
#include "mcp/tool_call.hpp"

#include <boost/json/object.hpp>

#include <array>
#include <chrono>
#include <cstddef>
#include <memory>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// The Model Context Protocol core: JSON-RPC 2.0 in, JSON-RPC 2.0 out, over any transport. It speaks
// both eras of the protocol, chosen per message and without sessions, so any replica can answer any
// message:
//   - modern, 2026-07-28: every request carries its version and the client's capabilities in
//     params._meta ("io.modelcontextprotocol/protocolVersion", ".../clientCapabilities");
//     server/discover; on HTTP the MCP-Protocol-Version, Mcp-Method and Mcp-Name headers must
//     mirror the body;
//   - legacy, 2025-11-25, 2025-06-18 and 2025-03-26: initialize (the client's version when
//     supported, else 2025-11-25), notifications/initialized, ping, logging/setLevel.
// Both serve the same tools, resources, prompts and completions, read from a data_view.
//
// Two rules hold for every message, whatever its era:
//   - an object that names the same key twice, at any depth, is refused with -32600 naming the key
//     (JSON leaves the meaning of such an object open, and parsers disagree on which value wins);
//   - a JSON-RPC batch (an array of messages) is accepted only where 2025-03-26 can be in force:
//     over HTTP when MCP-Protocol-Version is absent (the spec says to assume 2025-03-26 then) or is
//     2025-03-26, and always over stdio, which carries no version with each message and is
//     stateless here (a later client never sends a batch, so accepting one costs it nothing, while
//     refusing it would break a 2025-03-26 client, which must be able to send one). Later
//     revisions removed batches: with another version header a batch is refused whole (-32600, or
//     -32022 for an unknown version). An accepted batch holds 1 to max_batch_messages messages;
//     each is checked and answered on its own (an initialize or a 2026-07-28 request inside one is
//     refused alone), and the reply is the array of the answers in order, notifications left out.
namespace lcg::mcp {

using api::data_view;  // what the core reads: the operations' view of the service

inline constexpr std::string_view modern_version = "2026-07-28";
inline constexpr std::array<std::string_view, 3> legacy_versions{"2025-11-25", "2025-06-18", "2025-03-26"};
// Every version, newest first, as server/discover and the -32022 error list them.
inline constexpr std::array<std::string_view, 4> supported_versions{"2026-07-28", "2025-11-25", "2025-06-18",
                                                                    "2025-03-26"};

inline constexpr std::size_t max_message_bytes = 1024 * 1024;  // larger messages are refused unread
inline constexpr std::size_t max_nesting_depth = 64;           // of arrays and objects in a message
inline constexpr std::size_t max_batch_messages = 32;          // larger batches are refused whole
// What one batch may cost over HTTP: once its answers have taken this much of the thread's CPU time
// or this many bytes, the messages left are refused (-32000) with their ids. A POST then holds its
// event loop for about one budget however costly its messages, and the first message always runs.
// Over stdio only the bytes count: the one client there waits for nobody but itself, and a batch
// of 32 cheap calls should not take it ten round trips.
inline constexpr std::chrono::microseconds batch_cpu_budget{5'000};
inline constexpr std::size_t batch_reply_budget = 4 * 1024 * 1024;
inline constexpr std::int64_t cache_ttl_ms = 300'000;          // ttlMs of lists and reads, as HTTP's max-age

// Who we are, as serverInfo says.
struct implementation {
    std::string name;
    std::string title;
    std::string version;
};

enum class transport { stdio, http };

// What the transport knows besides the message. For HTTP, the request headers the protocol checks
// (empty when absent); stdio has none.
struct message_context {
    transport via = transport::stdio;
    std::optional<std::string_view> protocol_version_header;  // MCP-Protocol-Version
    std::optional<std::string_view> method_header;            // Mcp-Method
    std::optional<std::string_view> name_header;              // Mcp-Name
    // Asked once a batch is read and before any of its messages is answered, with how many it
    // holds: whether they may all be answered (the HTTP transport charges its rate limit per
    // message). Refused, the batch is refused whole (-32000) and nothing of it runs. Unset: every batch may.
    std::function<bool(std::size_t messages)> admit_batch{};
    std::optional<std::chrono::microseconds> batch_cpu{};  // HTTP: batch_cpu_budget; stdio: none
};

// A subscription a message made or ended: the resource's canonical URI (mcp/resources.hpp), which
// keys it, so that a session holds at most one per resource however the client spells it, and the
// URI as the client wrote it, which its updates name.
struct subscription_change {
    std::string canonical;
    std::string uri;
    bool subscribed = false;
    bool operator==(subscription_change const&) const = default;
};

// The answer to one message. An empty body means no response (a notification, or a batch of
// notifications only): the transport writes none. A transport with words of its own for
// how a message ended (HTTP's status, mapped in server/http/mcp_handler.cpp) reads them from
// `error`, `modern` and `too_large`; a batch's answer has no `error`, whatever its answers say.
struct reply {
    // One JSON-RPC response, or an array of them, without a trailing newline: `body` followed by
    // `lasting_end` (below), which is empty unless the reply ends with text the server keeps.
    std::string body;
    std::optional<error_code> error{};  // the error a lone message was answered with
    bool modern = false;                // answered in the 2026-07-28 era
    bool too_large = false;             // refused unread: larger than max_message_bytes
    // An initialize answered with its result: the session speaks a revision before 2026-07-28,
    // whose clients are told of a new sheet (stdio; 2026-07-28's subscriptions/listen is not offered).
    bool initialized = false;
    // A batch's reply: what it holds depends on the CPU time its messages took (batch_cpu), so the
    // same batch sent again may be answered otherwise. A lone message's reply depends only on the
    // message, the context and this server's data.
    bool batch = false;
    // What the transport records: the tools called (for its metrics), and each exception caught while
    // answering, with what was being answered (for its log: the body says only "internal error").
    std::vector<tool_call> tool_calls{};
    std::vector<std::string> failures{};
    // The resources a message subscribed to (true) or unsubscribed from (false), in order: the
    // stdio session keeps them and announces their updates.
    std::vector<subscription_change> subscriptions{};
    // The reply's last bytes when the server keeps them for its whole life (the tool list or the
    // default get_prices result, with the reply's closing brace): the same bytes at the same address
    // in every such reply, never copied into `body`, so that a transport may keep a copy of them
    // once (HTTP sends it by sendfile) and a reply costs the few bytes before them. Valid while the
    // server that answered lives.
    std::string_view lasting_end{};

    // The reply's text after `out`, and alone.
    void append_to(std::string& out) const { out.append(body).append(lasting_end); }
    std::string text() const
    {
        std::string whole;
        whole.reserve(body.size() + lasting_end.size());
        append_to(whole);
        return whole;
    }
    bool empty() const { return body.empty() && lasting_end.empty(); }
};

// One MCP server over one immutable data view. Build it once per view (it pre-renders the tool list
// and the default get_prices answer); handle() is const and safe to call from many threads.
class server {
public:
    server(std::shared_ptr<const data_view> data, implementation info);
    ~server();
    server(server const&) = delete;
    server& operator=(server const&) = delete;

    // Answers one message (an object, or a batch where one is accepted). Never throws: an
    // unexpected failure is a -32603 error without internals. The reply's lasting_end lives as long
    // as this server: keep the server until the reply is written.
    reply handle(std::string_view message, message_context const& context) const;

    data_view const& data() const;

private:
    struct impl;
    std::unique_ptr<impl> impl_;
};

// What this server can do, as initialize and server/discover say (legacy adds logging) and the
// server card states. Over stdio, resources can be subscribed to and their list changes are announced.
boost::json::object server_capabilities(bool modern, transport via = transport::http);

// Decodes an Mcp-Name (or Mcp-Param-*) header value: "=?base64?…?=" is Base64 of UTF-8, anything
// else is taken as it is. Nothing when the sentinel form holds invalid Base64.
std::optional<std::string> decode_header_value(std::string_view value);

}
