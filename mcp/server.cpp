#include "mcp/server.hpp"

#include "mcp/dispatch.hpp"
#include "mcp/lifecycle.hpp"
#include "mcp/strict_json.hpp"

#include <boost/json/monotonic_resource.hpp>

#include <chrono>
#include <ctime>
#include <cstddef>
#include <exception>
#include <string>
#include <variant>
#include <vector>

// The envelope of JSON-RPC and its batches: a message is read (mcp/strict_json.hpp), its id taken
// first so that any error can echo it, its envelope checked, its era negotiated
// (mcp/lifecycle.hpp), and it goes to the method table (mcp/dispatch.hpp).
namespace lcg::mcp {

namespace {

namespace json = boost::json;

// The error that answers a message, echoing `id` (null when it could not be read).
reply refused(json::value const& id, failure f) { return {error_response(id, f), f.code}; }

// The answer to a message larger than max_message_bytes, left unread.
reply unread(failure f)
{
    reply r = refused(nullptr, std::move(f));
    r.too_large = true;
    return r;
}

// The CPU time this thread has used: what a batch's budget counts (time spent waiting for the
// machine's other work is not the batch's).
std::chrono::nanoseconds thread_cpu_time()
{
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return std::chrono::seconds(t.tv_sec) + std::chrono::nanoseconds(t.tv_nsec);
}

// The answer to a batch's message left unrun once the batch spent its budget: its id echoed so the
// client knows which to send again; a notification is, as ever, not answered.
reply over_budget(json::value const& message, std::optional<std::chrono::microseconds> cpu)
{
    auto const* object = message.if_object();
    auto const* id = object ? object->if_contains("id") : nullptr;
    if (object && !id)
        return {};
    json::value const echoed = id && (id->is_string() || id->is_int64() || id->is_uint64()) ? *id : json::value();
    std::string const cpu_part = cpu ? std::to_string(cpu->count() / 1000) + " ms of CPU or " : "";
    return refused(echoed, {error_code::rate_limited, "not run: the batch spent its budget (" + cpu_part +
                                                          std::to_string(batch_reply_budget >> 20) +
                                                          " MiB of answers) before this message; send it again"});
}

// A notification is never answered (JSON-RPC 2.0: the server MUST NOT reply to one), whatever its
// params, except over HTTP when it names a protocol version this server does not speak: the
// transport then refuses every POST with 400 (2025-06-18). A 2026-07-28 notification needs none of
// the headers a request does.
reply notification(std::string_view method, json::value const* params, message_context const& context)
{
    if (context.via != transport::http)
        return {};
    auto const negotiated = negotiate(method, params && params->is_object() ? &params->get_object() : nullptr, context);
    if (negotiated)
        return {};
    if (negotiated.err().code == error_code::unsupported_protocol_version)
        return refused(nullptr, negotiated.err());
    return {};
}

// The -32603 answer to a message whose handling threw: the client learns nothing internal, the
// transport's log learns what failed and on which method.
reply internal_error(json::value const& id, std::string_view method, std::exception const& e)
{
    reply r = refused(id, {error_code::internal_error, "internal error: the server failed to answer"});
    r.failures.push_back(std::string(method.empty() ? "a message" : method) + ": " + e.what());
    return r;
}

std::string_view method_of(json::value const& message)
{
    auto const* o = message.if_object();
    auto const* m = o ? o->if_contains("method") : nullptr;
    return m && m->is_string() ? std::string_view(m->get_string()) : std::string_view{};
}

}

struct server::impl {
    server_state state;

    impl(std::shared_ptr<const data_view> data, implementation const& info) : state(std::move(data), info) {}

    reply handle(std::string_view message, message_context const& context, json::value& id_out) const;
    reply handle_batch(json::array const& batch, std::vector<duplicate_key> const& duplicates,
                       message_context const& context) const;
    reply handle_one(json::value const& message, duplicate_key const* duplicate, message_context const& context,
                     json::value& id_out, bool in_batch) const;
};

reply server::impl::handle(std::string_view message, message_context const& context, json::value& id_out) const
{
    json::value const null_id = nullptr;
    if (message.size() > max_message_bytes)
        return unread(too_large());

    // The message and everything parsed from it live in this buffer (and, past it, in blocks from the
    // heap bounded by the message size); the parser stops at the nesting limit.
    unsigned char buffer[8192];
    json::monotonic_resource resource(buffer, sizeof buffer);
    auto const parsed = parse_strict(message, &resource);
    if (parsed.error == json::error::too_deep)
        return refused(null_id, {error_code::invalid_request, "the message nests deeper than 64 levels"});
    if (parsed.error)
        return refused(null_id, {error_code::parse_error, "parse error: the message is not valid JSON"});
    if (parsed.value.is_array()) {
        auto answer = handle_batch(parsed.value.get_array(), parsed.duplicates, context);
        answer.batch = true;
        return answer;
    }
    try {
        return handle_one(parsed.value, parsed.duplicates.empty() ? nullptr : &parsed.duplicates.front(), context,
                          id_out, false);
    } catch (std::exception const& e) {
        return internal_error(id_out, method_of(parsed.value), e);  // while the message is still readable
    }
}

reply server::impl::handle_batch(json::array const& batch, std::vector<duplicate_key> const& duplicates,
                                 message_context const& context) const
{
    json::value const null_id = nullptr;
    auto refuse = [&](std::string why) {
        return refused(null_id, {error_code::invalid_request, std::move(why)});
    };
    if (context.via == transport::http && context.protocol_version_header) {
        auto const version = *context.protocol_version_header;
        if (!is_known(version))
            return refused(null_id, unsupported_version(version));
        if (version != batch_version)
            return refuse("invalid request: batches (JSON arrays) are not part of MCP " + std::string(version) +
                          "; send one message per request (only " + std::string(batch_version) + " takes batches)");
    }
    if (batch.empty())
        return refuse("invalid request: the batch (JSON array) is empty");
    if (batch.size() > max_batch_messages)
        return refuse("invalid request: a batch holds at most " + std::to_string(max_batch_messages) +
                      " messages; this one has " + std::to_string(batch.size()));
    if (context.admit_batch && !context.admit_batch(batch.size()))
        return refused(null_id, {error_code::rate_limited, "rate limited: a batch counts one request per message; "
                                                           "retry later"});

    std::string body = "[";
    reply merged;
    auto duplicate = duplicates.begin();
    auto const started = thread_cpu_time();
    for (std::size_t i = 0; i < batch.size(); ++i) {
        while (duplicate != duplicates.end() && duplicate->element < i)
            ++duplicate;
        duplicate_key const* found = duplicate != duplicates.end() && duplicate->element == i ? &*duplicate : nullptr;
        json::value id = nullptr;
        reply answer;
        bool const spent = context.batch_cpu && thread_cpu_time() - started >= *context.batch_cpu;
        if (i > 0 && (spent || body.size() >= batch_reply_budget)) {
            answer = over_budget(batch[i], context.batch_cpu);
        } else {
            // Each message is dispatched on its own: one that fails unexpectedly gets its own -32603.
            try {
                answer = handle_one(batch[i], found, context, id, true);
            } catch (std::exception const& e) {
                answer = internal_error(id, method_of(batch[i]), e);
            }
        }
        merged.tool_calls.insert(merged.tool_calls.end(), answer.tool_calls.begin(), answer.tool_calls.end());
        merged.failures.insert(merged.failures.end(), answer.failures.begin(), answer.failures.end());
        merged.subscriptions.insert(merged.subscriptions.end(), answer.subscriptions.begin(), answer.subscriptions.end());
        if (answer.empty())
            continue;
        if (body.size() > 1)
            body += ',';
        answer.append_to(body);
    }
    if (body.size() == 1)
        return merged;  // notifications only: nothing to answer
    body += ']';
    merged.body = std::move(body);
    return merged;
}

reply server::impl::handle_one(json::value const& message, duplicate_key const* duplicate,
                               message_context const& context, json::value& id_out, bool in_batch) const
{
    json::value const null_id = nullptr;
    if (!message.is_object())
        return refused(null_id, {error_code::invalid_request, "a message is a JSON object"});
    auto const& object = message.get_object();

    // The id first, so that every later error can echo it.
    auto const* id = object.if_contains("id");
    if (id) {
        if (!id->is_string() && !id->is_int64() && !id->is_uint64())
            return refused(null_id, {error_code::invalid_request,
                                     "invalid request: id must be a string or an integer (a notification has no id)"});
        id_out = json::value(*id, json::storage_ptr());
    }
    json::value const& rid = id ? id_out : null_id;
    auto invalid = [&](std::string why) {
        return refused(rid, {error_code::invalid_request, std::move(why)});
    };
    if (duplicate) {
        // -32600 rather than -32602: the message as a whole has no single meaning (RFC 8259 leaves an
        // object with repeated names to each parser), wherever the repetition sits, and the check runs
        // before anything knows which part is the method's params. A repeated top-level "id" cannot be
        // echoed: which one was meant is the question.
        std::string const key = duplicate->key.size() > 64 ? limited(duplicate->key) + "…" : duplicate->key;
        std::string why = "invalid request: the key " + pricing::quote(key) + " appears twice in " +
                          (duplicate->top_level ? "the message object" : "one object") +
                          "; an object must name each key once";
        if (duplicate->top_level && duplicate->key == "id")
            return refused(null_id, {error_code::invalid_request, std::move(why)});
        return invalid(std::move(why));
    }
    auto const* jsonrpc = object.if_contains("jsonrpc");
    if (!jsonrpc || !jsonrpc->is_string() || jsonrpc->get_string() != "2.0")
        return invalid("invalid request: jsonrpc must be \"2.0\"");
    auto const* method_value = object.if_contains("method");
    if (!method_value || !method_value->is_string()) {
        // A response has no id of ours to echo: its id names a request of the client's own.
        if (object.contains("result") || object.contains("error"))
            return refused(null_id, {error_code::invalid_request,
                                     "invalid request: this server sends no requests, so it takes no responses"});
        return invalid("invalid request: method must be a string");
    }
    std::string_view const method = method_value->get_string();
    json::object const* params = nullptr;
    if (!id)
        return notification(method, object.if_contains("params"), context);
    if (auto const* p = object.if_contains("params")) {
        if (p->is_array())
            return refused(rid, invalid_params("params must be an object"));
        if (!p->is_object())
            return invalid("invalid request: params must be an object");
        params = &p->get_object();
    }

    if (method.starts_with("notifications/"))
        return invalid("invalid request: " + limited(method) + " is a notification and takes no id");
    // 2025-03-26: "The initialize request MUST NOT be part of a JSON-RPC batch".
    if (in_batch && method == "initialize")
        return invalid("invalid request: initialize must be sent alone, not in a batch");

    auto const negotiated = negotiate(method, params, context);
    if (!negotiated)
        return refused(rid, negotiated.err());
    bool const modern = *negotiated == era::modern;
    if (in_batch && modern)
        return invalid("invalid request: batches are not part of MCP " + std::string(modern_version) +
                       "; send this request alone");
    return dispatch(state, {rid, method, params, modern, context.via});
}

server::server(std::shared_ptr<const data_view> data, implementation info)
    : impl_(std::make_unique<impl>(std::move(data), info))
{
}

server::~server() = default;

data_view const& server::data() const { return *impl_->state.data; }

reply server::handle(std::string_view message, message_context const& context) const
{
    json::value id = nullptr;
    try {
        return impl_->handle(message, context, id);
    } catch (std::exception const& e) {
        return internal_error(id, {}, e);
    }
}

}

