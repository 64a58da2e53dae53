#include "mcp/server.hpp"
#include "pricing/utf8.hpp"

#include "mcp/failure.hpp"
#include "mcp/prompts.hpp"
#include "mcp/resources.hpp"
#include "mcp/tool_calls.hpp"

#include "pricing/outcome.hpp"

#include <boost/json/basic_parser_impl.hpp>
#include <boost/json/monotonic_resource.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value_stack.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <ctime>
#include <cstddef>
#include <exception>
#include <forward_list>
#include <functional>
#include <string>
#include <vector>

namespace lcg::mcp {

namespace {

namespace json = boost::json;

constexpr std::string_view version_key = "io.modelcontextprotocol/protocolVersion";
constexpr std::string_view capabilities_key = "io.modelcontextprotocol/clientCapabilities";
constexpr std::string_view server_info_key = "io.modelcontextprotocol/serverInfo";
constexpr std::string_view latest_legacy = legacy_versions[0];
constexpr std::string_view batch_version = "2025-03-26";  // the one revision with JSON-RPC batches

constexpr std::array<std::string_view, 8> log_levels{"debug", "info",     "notice", "warning",
                                                     "error", "critical", "alert",  "emergency"};

constexpr char const* instructions =
    "LowCostGPU publishes a weekly GPU price sheet: per-GPU hourly rates (on-demand at most 70 % of the public "
    "market median, spot 50 % and reserved 65 % of on-demand), the GPU catalog and a bilingual glossary. Every "
    "figure comes from the tools, computed exactly by the server: quote them as given and never compute prices "
    "yourself. Start with get_prices, find_cheapest, size_model or estimate_job_cost; explain_term explains the "
    "vocabulary in English or French.";

bool is_known(std::string_view v)
{
    return std::find(supported_versions.begin(), supported_versions.end(), v) != supported_versions.end();
}

bool is_legacy(std::string_view v)
{
    return std::find(legacy_versions.begin(), legacy_versions.end(), v) != legacy_versions.end();
}

// What can go wrong before a method runs, or in it: a JSON-RPC error plus the HTTP status to send.
struct rejection {
    failure error;
    int http_status = 200;
};

int status_of(error_code code, bool modern)
{
    switch (code) {
    case error_code::parse_error:
    case error_code::invalid_request:
    case error_code::header_mismatch:
    case error_code::unsupported_protocol_version:
        return 400;
    case error_code::method_not_found:
        return modern ? 404 : 200;
    case error_code::internal_error:
        return 500;
    case error_code::rate_limited:
        return 429;
    case error_code::invalid_params:
    case error_code::resource_not_found:
        return 200;
    }
    return 500;
}

std::string error_body(json::value const& id, failure const& f)
{
    json::object error{{"code", static_cast<int>(f.code)}, {"message", f.message}};
    if (!f.data.is_null())
        error["data"] = f.data;
    return json::serialize(json::object{{"jsonrpc", "2.0"}, {"id", id}, {"error", std::move(error)}});
}

reply error_reply(json::value const& id, failure const& f, bool modern)
{
    return {status_of(f.code, modern), error_body(id, f)};
}

// The -32603 answer to a message whose handling threw: the client learns nothing internal, the
// transport's log learns what failed and on which method.
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
reply over_budget(json::value const& message, std::chrono::microseconds cpu)
{
    auto const* object = message.if_object();
    auto const* id = object ? object->if_contains("id") : nullptr;
    if (object && !id)
        return {202, {}};
    json::value const echoed = id && (id->is_string() || id->is_int64() || id->is_uint64()) ? *id : json::value();
    return {200, error_body(echoed, {error_code::rate_limited,
                                     "not run: the batch spent its budget (" + std::to_string(cpu.count() / 1000) +
                                         " ms of CPU or " + std::to_string(batch_reply_budget >> 20) +
                                         " MiB of answers) before this message; send it again"})};
}

reply internal_error(json::value const& id, std::string_view method, std::exception const& e)
{
    reply r = error_reply(id, {error_code::internal_error, "internal error: the server failed to answer"}, false);
    r.failures.push_back(std::string(method.empty() ? "a message" : method) + ": " + e.what());
    return r;
}

std::string_view method_of(json::value const& message)
{
    auto const* o = message.if_object();
    auto const* m = o ? o->if_contains("method") : nullptr;
    return m && m->is_string() ? std::string_view(m->get_string()) : std::string_view{};
}


std::string result_body(json::value const& id, std::string_view result)
{
    std::string out = R"({"jsonrpc":"2.0","id":)";
    out += json::serialize(id);
    out += R"(,"result":)";
    out += result;
    out += '}';
    return out;
}

unsigned base64_value(char c)
{
    if (c >= 'A' && c <= 'Z')
        return static_cast<unsigned>(c - 'A');
    if (c >= 'a' && c <= 'z')
        return static_cast<unsigned>(c - 'a' + 26);
    if (c >= '0' && c <= '9')
        return static_cast<unsigned>(c - '0' + 52);
    if (c == '+')
        return 62;
    if (c == '/')
        return 63;
    return 64;
}

// The first key named twice in one object of a message. `element` is the message's index in a
// batch (0 for a lone message); `top_level` says whether that object is the message itself.
struct duplicate_key {
    std::size_t element = 0;
    bool top_level = false;
    std::string key;
};

// The keys of the objects being read, kept from one message to the next on each thread so that the
// common path allocates nothing. A key is a view of the message itself when it is written there
// without escapes (almost always); otherwise a copy held in `copies`.
struct key_scratch {
    std::vector<std::string_view> keys;
    std::vector<std::size_t> frames;  // where each open object's keys start in `keys`
    std::vector<std::string_view> sorted;
    std::forward_list<std::string> copies;
    std::string pending;  // a key read in pieces

    void clear()
    {
        keys.clear();
        frames.clear();
        copies.clear();
        pending.clear();
        // What a hostile message made grow is not kept.
        if (keys.capacity() > 4096) {
            keys = {};
            sorted = {};
        }
    }
};

// A basic_parser handler that builds the value as json::parse does, through a value_stack, and in
// the same pass notes the keys an object names twice, which the value_stack would merge silently
// (Boost.JSON 1.81 has no option to refuse them). The keys of an object are compared when it
// closes: pairwise up to 8 keys (the usual case: a few comparisons of short strings), sorted
// beyond, so that an object of 100,000 keys costs a sort rather than billions of comparisons.
// Parsing goes on after a duplicate, so that the message's id can still be read and echoed.
class checking_handler {
public:
    static constexpr std::size_t max_object_size = json::object::max_size();
    static constexpr std::size_t max_array_size = json::array::max_size();
    static constexpr std::size_t max_key_size = json::string::max_size();
    static constexpr std::size_t max_string_size = json::string::max_size();

    json::value_stack st;
    std::vector<duplicate_key> duplicates;  // in document order, at most one per message

    checking_handler(json::storage_ptr values, unsigned char* temp, std::size_t temp_size, std::string_view message,
                     key_scratch& scratch)
        : st(json::storage_ptr(), temp, temp_size), message_(message), s_(scratch)
    {
        st.reset(std::move(values));
        s_.clear();
    }

    bool on_document_begin(boost::system::error_code&) { return true; }
    bool on_document_end(boost::system::error_code&) { return true; }
    bool on_object_begin(boost::system::error_code&)
    {
        s_.frames.push_back(s_.keys.size());
        ++depth_;
        return true;
    }
    bool on_object_end(std::size_t n, boost::system::error_code&)
    {
        st.push_object(n);
        std::size_t const first = s_.frames.back();
        s_.frames.pop_back();
        if (s_.keys.size() - first >= 2)
            check_keys(first);
        s_.keys.resize(first);
        --depth_;
        value_done();
        return true;
    }
    bool on_array_begin(boost::system::error_code&)
    {
        if (depth_ == 0)
            root_is_array_ = true;
        ++depth_;
        return true;
    }
    bool on_array_end(std::size_t n, boost::system::error_code&)
    {
        st.push_array(n);
        --depth_;
        value_done();
        return true;
    }
    bool on_key_part(json::string_view s, std::size_t, boost::system::error_code&)
    {
        st.push_chars(s);
        s_.pending.append(s.data(), s.size());
        return true;
    }
    bool on_key(json::string_view s, std::size_t n, boost::system::error_code&)
    {
        st.push_key(s);
        std::less<char const*> const before;
        if (n == s.size() && !before(s.data(), message_.data()) &&
            !before(message_.data() + message_.size(), s.data() + s.size())) {
            s_.keys.emplace_back(s.data(), s.size());
        } else {
            s_.pending.append(s.data(), s.size());
            s_.copies.push_front(std::move(s_.pending));
            s_.pending.clear();
            s_.keys.emplace_back(s_.copies.front());
        }
        return true;
    }
    bool on_string_part(json::string_view s, std::size_t, boost::system::error_code&)
    {
        st.push_chars(s);
        return true;
    }
    bool on_string(json::string_view s, std::size_t, boost::system::error_code&)
    {
        st.push_string(s);
        value_done();
        return true;
    }
    bool on_number_part(json::string_view, boost::system::error_code&) { return true; }
    bool on_int64(std::int64_t i, json::string_view, boost::system::error_code&)
    {
        st.push_int64(i);
        value_done();
        return true;
    }
    bool on_uint64(std::uint64_t u, json::string_view, boost::system::error_code&)
    {
        st.push_uint64(u);
        value_done();
        return true;
    }
    bool on_double(double d, json::string_view, boost::system::error_code&)
    {
        st.push_double(d);
        value_done();
        return true;
    }
    bool on_bool(bool b, boost::system::error_code&)
    {
        st.push_bool(b);
        value_done();
        return true;
    }
    bool on_null(boost::system::error_code&)
    {
        st.push_null();
        value_done();
        return true;
    }
    bool on_comment_part(json::string_view, boost::system::error_code&) { return true; }
    bool on_comment(json::string_view, boost::system::error_code&) { return true; }

private:
    std::string_view message_;
    key_scratch& s_;
    std::size_t depth_ = 0;
    bool root_is_array_ = false;
    std::size_t element_ = 0;  // the batch element being read, when the root is an array

    // A value is complete; at depth 1 of a batch that is one more message read.
    void value_done()
    {
        if (depth_ == 1)
            ++element_;
    }

    // The keys of the object that closes are s_.keys[first…]; at least two of them.
    void check_keys(std::size_t first)
    {
        auto const begin = s_.keys.begin() + static_cast<std::ptrdiff_t>(first);
        auto const end = s_.keys.end();
        std::optional<std::string_view> found;
        if (end - begin <= 8) {
            for (auto i = begin + 1; i != end && !found; ++i)
                if (std::find(begin, i, *i) != i)
                    found = *i;
        } else {
            s_.sorted.assign(begin, end);
            std::sort(s_.sorted.begin(), s_.sorted.end());
            if (auto const it = std::adjacent_find(s_.sorted.begin(), s_.sorted.end()); it != s_.sorted.end())
                found = *it;
        }
        if (!found)
            return;
        std::size_t const element = root_is_array_ ? element_ : 0;
        if (!duplicates.empty() && duplicates.back().element == element)
            return;
        duplicates.push_back({element, depth_ == (root_is_array_ ? 2u : 1u), std::string(*found)});
    }
};

struct parsed_message {
    json::value value;
    boost::system::error_code error;
    std::vector<duplicate_key> duplicates;
};

// Parses a whole message as json::parse would, into `values`, noting duplicated keys on the way.
parsed_message parse_message(std::string_view message, json::storage_ptr values)
{
    thread_local key_scratch scratch;
    // Emptied again once the message is read, so a hostile one's keys are not held until the next.
    struct clear_after {
        key_scratch& s;
        ~clear_after() { s.clear(); }
    } const guard{scratch};
    json::parse_options options;
    options.max_depth = max_nesting_depth;
    unsigned char stack_buffer[4096];
    json::basic_parser<checking_handler> parser(options, std::move(values), stack_buffer, sizeof stack_buffer, message,
                                                scratch);
    boost::system::error_code ec;
    auto const used = parser.write_some(false, message.data(), message.size(), ec);
    if (!ec && used < message.size())
        ec = json::error::extra_data;
    if (ec)
        return {nullptr, ec, {}};
    // Built in place: assigning a value moves it only within one memory resource, and copies it
    // otherwise.
    return {parser.handler().st.release(), {}, std::move(parser.handler().duplicates)};
}

// -32022 with the versions this server speaks.
rejection unsupported_version(std::string_view requested)
{
    json::array supported;
    for (auto v : supported_versions)
        supported.emplace_back(v);
    return {{error_code::unsupported_protocol_version, "unsupported protocol version " + pricing::quote(limited(requested)),
             json::object{{"requested", limited(requested)}, {"supported", std::move(supported)}}},
            400};
}

// The request as the dispatcher sees it once the envelope is valid.
struct request {
    json::value const& id;
    std::string_view method;
    json::object const* params;  // null when absent
    bool modern;
    std::string_view legacy_version;  // the version a legacy request is served in
    transport via;
};

}

std::optional<std::string> decode_header_value(std::string_view value)
{
    constexpr std::string_view prefix = "=?base64?", suffix = "?=";
    if (value.size() < prefix.size() + suffix.size() || !value.starts_with(prefix) || !value.ends_with(suffix))
        return std::string(value);
    auto const encoded = value.substr(prefix.size(), value.size() - prefix.size() - suffix.size());
    std::string out;
    unsigned buffer = 0;
    int bits = 0;
    std::size_t i = 0;
    for (; i < encoded.size() && encoded[i] != '='; ++i) {
        unsigned const v = base64_value(encoded[i]);
        if (v == 64)
            return std::nullopt;
        buffer = (buffer << 6) | v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out += static_cast<char>((buffer >> bits) & 0xff);
        }
    }
    for (; i < encoded.size(); ++i)
        if (encoded[i] != '=')
            return std::nullopt;
    if (encoded.size() % 4 != 0)
        return std::nullopt;
    return out;
}

json::object server_capabilities(bool modern, transport via)
{
    // Only stdio is a session that can carry notifications: there a new sheet is announced.
    bool const announces = via == transport::stdio;
    json::object c{{"tools", {{"listChanged", false}}},
                   {"resources", {{"subscribe", announces}, {"listChanged", announces}}},
                   {"prompts", {{"listChanged", false}}},
                   {"completions", json::object{}}};
    if (!modern)
        c["logging"] = json::object{};
    return c;
}

struct server::impl {
    std::shared_ptr<const data_view> data;
    implementation info;
    json::object server_info;
    // Answers that depend only on the data, serialized once: the tool list and the default prices
    // (the most common call), in each era.
    std::string tools_legacy, tools_modern;
    std::string prices_legacy, prices_modern;

    impl(std::shared_ptr<const data_view> d, implementation i) : data(std::move(d)), info(std::move(i))
    {
        server_info = {{"name", info.name}, {"title", info.title}, {"version", info.version}};
        json::object tools{{"tools", tool_definitions()}};
        tools_legacy = json::serialize(tools);
        tools_modern = json::serialize(decorate(std::move(tools), true));
        json::object result = *call_tool("get_prices", nullptr, *data);
        prices_legacy = json::serialize(result);
        prices_modern = json::serialize(decorate(std::move(result), false));
    }

    // A modern result carries resultType and serverInfo; lists and reads also say how long to cache.
    json::object decorate(json::object result, bool cacheable) const
    {
        result["resultType"] = "complete";
        if (cacheable) {
            result["ttlMs"] = cache_ttl_ms;
            result["cacheScope"] = "public";
        }
        result["_meta"] = json::object{{server_info_key, server_info}};
        return result;
    }


    reply answer(request const& r, json::object result, bool cacheable) const
    {
        if (r.modern)
            result = decorate(std::move(result), cacheable);
        return {200, result_body(r.id, json::serialize(result))};
    }

    reply fail(request const& r, failure f) const { return error_reply(r.id, f, r.modern); }

    reply handle(std::string_view message, message_context const& context, json::value& id_out) const;
    reply handle_batch(json::array const& batch, std::vector<duplicate_key> const& duplicates,
                       message_context const& context) const;
    reply handle_one(json::value const& message, duplicate_key const* duplicate, message_context const& context,
                     json::value& id_out, bool in_batch) const;
    std::optional<rejection> check_version(std::string_view method, json::object const* params,
                                           message_context const& context, bool& modern,
                                           std::string_view& legacy_version) const;
    reply run(request const& r) const;
    reply call_tool_method(request const& r) const;
};

std::optional<rejection> server::impl::check_version(std::string_view method, json::object const* params,
                                                     message_context const& context, bool& modern,
                                                     std::string_view& legacy_version) const
{
    bool const http = context.via == transport::http;
    auto const unsupported = unsupported_version;
    auto mismatch = [](std::string message) {
        return rejection{{error_code::header_mismatch, std::move(message)}, 400};
    };

    json::object const* meta = nullptr;
    if (auto const* m = params ? params->if_contains("_meta") : nullptr) {
        if (!m->is_object())
            return rejection{invalid_params("params._meta must be an object"), 200};
        meta = &m->get_object();
    }
    std::optional<std::string_view> body_version;
    if (meta) {
        if (auto const* v = meta->if_contains(version_key)) {
            if (!v->is_string())
                return rejection{invalid_params("_meta " + std::string(version_key) + " must be a string"), 200};
            body_version = v->get_string();
        }
    }
    auto const header = http ? context.protocol_version_header : std::nullopt;
    if (header && !is_known(*header))
        return unsupported(*header);
    if (body_version && !is_known(*body_version))
        return unsupported(*body_version);
    if (header && body_version && *header != *body_version)
        return mismatch("header mismatch: MCP-Protocol-Version " + pricing::quote(limited(*header)) +
                        " does not match params._meta " + std::string(version_key) + " " +
                        pricing::quote(limited(*body_version)));
    modern = (body_version && *body_version == modern_version) || (header && *header == modern_version);
    if (!modern) {
        legacy_version = header ? *header : (body_version ? *body_version : legacy_versions.back());
        return std::nullopt;
    }
    if (http) {
        if (!header)
            return mismatch("header mismatch: the MCP-Protocol-Version header is required");
        if (!body_version)
            return mismatch("header mismatch: MCP-Protocol-Version is " + std::string(modern_version) +
                            " but params._meta lacks " + std::string(version_key));
        if (!context.method_header)
            return mismatch("header mismatch: the Mcp-Method header is required");
        if (*context.method_header != method)
            return mismatch("header mismatch: Mcp-Method " + pricing::quote(limited(*context.method_header)) +
                            " does not match the body's method " + pricing::quote(limited(method)));
        std::string_view const name_field = method == "resources/read" ? "uri" : "name";
        if (method == "tools/call" || method == "prompts/get" || method == "resources/read") {
            if (!context.name_header)
                return mismatch("header mismatch: the Mcp-Name header is required for " + std::string(method));
            auto const decoded = decode_header_value(*context.name_header);
            if (!decoded)
                return mismatch("header mismatch: Mcp-Name holds invalid Base64");
            auto const* body_name = params ? params->if_contains(name_field) : nullptr;
            if (body_name && body_name->is_string() && *decoded != std::string_view(body_name->get_string()))
                return mismatch("header mismatch: Mcp-Name " + pricing::quote(limited(*decoded)) +
                                " does not match params." + std::string(name_field) + " " +
                                pricing::quote(limited(body_name->get_string())));
        }
    }
    if (!body_version)
        return rejection{invalid_params("modern requests carry params._meta " + std::string(version_key)), 200};
    auto const* caps = meta->if_contains(capabilities_key);
    if (!caps || !caps->is_object())
        return rejection{invalid_params("params._meta " + std::string(capabilities_key) + " is required (an object)"),
                         200};
    return std::nullopt;
}

reply server::impl::handle(std::string_view message, message_context const& context, json::value& id_out) const
{
    json::value const null_id = nullptr;
    if (message.size() > max_message_bytes)
        return {413, error_body(null_id, {error_code::invalid_request, "the message is larger than 1 MiB"})};

    // The message and everything parsed from it live in this buffer (and, past it, in blocks from the
    // heap bounded by the message size); the parser stops at the nesting limit.
    unsigned char buffer[8192];
    json::monotonic_resource resource(buffer, sizeof buffer);
    auto const parsed = parse_message(message, &resource);
    if (parsed.error == json::error::too_deep)
        return {400, error_body(null_id, {error_code::invalid_request, "the message nests deeper than 64 levels"})};
    if (parsed.error)
        return {400, error_body(null_id, {error_code::parse_error, "parse error: the message is not valid JSON"})};
    if (parsed.value.is_array())
        return handle_batch(parsed.value.get_array(), parsed.duplicates, context);
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
        return reply{400, error_body(null_id, {error_code::invalid_request, std::move(why)})};
    };
    if (context.via == transport::http && context.protocol_version_header) {
        auto const version = *context.protocol_version_header;
        if (!is_known(version)) {
            auto const rejected = unsupported_version(version);
            return {rejected.http_status, error_body(null_id, rejected.error)};
        }
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
        return {status_of(error_code::rate_limited, false),
                error_body(null_id, {error_code::rate_limited, "rate limited: a batch counts one request per "
                                                                    "message; retry later"})};

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
        if (i > 0 && (thread_cpu_time() - started >= context.batch_cpu || body.size() >= batch_reply_budget)) {
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
        if (answer.body.empty())
            continue;
        if (body.size() > 1)
            body += ',';
        body += answer.body;
    }
    if (body.size() == 1) {
        merged.http_status = 202;  // notifications only: nothing to answer
        return merged;
    }
    body += ']';
    merged.body = std::move(body);
    return merged;
}

reply server::impl::handle_one(json::value const& message, duplicate_key const* duplicate,
                               message_context const& context, json::value& id_out, bool in_batch) const
{
    json::value const null_id = nullptr;
    if (!message.is_object())
        return {400, error_body(null_id, {error_code::invalid_request, "a message is a JSON object"})};
    auto const& object = message.get_object();

    // The id first, so that every later error can echo it.
    auto const* id = object.if_contains("id");
    if (id) {
        if (!id->is_string() && !id->is_int64() && !id->is_uint64())
            return {400, error_body(null_id, {error_code::invalid_request,
                                              "invalid request: id must be a string or an integer (a notification "
                                              "has no id)"})};
        id_out = json::value(*id, json::storage_ptr());
    }
    json::value const& rid = id ? id_out : null_id;
    auto invalid = [&](std::string why) {
        return reply{400, error_body(rid, {error_code::invalid_request, std::move(why)})};
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
            return {400, error_body(null_id, {error_code::invalid_request, std::move(why)})};
        return invalid(std::move(why));
    }
    auto const* jsonrpc = object.if_contains("jsonrpc");
    if (!jsonrpc || !jsonrpc->is_string() || jsonrpc->get_string() != "2.0")
        return invalid("invalid request: jsonrpc must be \"2.0\"");
    auto const* method_value = object.if_contains("method");
    if (!method_value || !method_value->is_string()) {
        if (object.contains("result") || object.contains("error"))
            return invalid("invalid request: this server sends no requests, so it takes no responses");
        return invalid("invalid request: method must be a string");
    }
    std::string_view const method = method_value->get_string();
    json::object const* params = nullptr;
    if (auto const* p = object.if_contains("params")) {
        if (p->is_array())
            return {200, error_body(rid, invalid_params("params must be an object"))};
        if (!p->is_object())
            return invalid("invalid request: params must be an object");
        params = &p->get_object();
    }

    if (!id)
        return {202, {}};  // a notification: accepted, never answered
    if (method.starts_with("notifications/"))
        return invalid("invalid request: " + limited(method) + " is a notification and takes no id");
    // 2025-03-26: "The initialize request MUST NOT be part of a JSON-RPC batch".
    if (in_batch && method == "initialize")
        return invalid("invalid request: initialize must be sent alone, not in a batch");

    bool modern = false;
    std::string_view legacy_version;
    if (auto const rejected = check_version(method, params, context, modern, legacy_version))
        return {rejected->http_status, error_body(rid, rejected->error)};
    if (in_batch && modern)
        return invalid("invalid request: batches are not part of MCP " + std::string(modern_version) +
                       "; send this request alone");
    return run({rid, method, params, modern, legacy_version, context.via});
}

reply server::impl::call_tool_method(request const& r) const
{
    auto const* name = r.params ? r.params->if_contains("name") : nullptr;
    if (!name || !name->is_string())
        return fail(r, invalid_params("tools/call needs params.name, the name of a tool (tools/list names them)"));
    json::object const* arguments = nullptr;
    if (auto const* a = r.params->if_contains("arguments"); a && !a->is_null()) {
        if (!a->is_object())
            return fail(r, invalid_params("tools/call params.arguments must be an object"));
        arguments = &a->get_object();
    }
    std::string_view const tool = name->get_string();
    if (tool == "get_prices" && (!arguments || arguments->empty()))
        return {200, result_body(r.id, r.modern ? prices_modern : prices_legacy), {{"get_prices", "ok"}}};
    auto result = call_tool(tool, arguments, *data);
    if (!result) {
        auto refused = fail(r, invalid_params("unknown tool " + pricing::quote(limited(tool)) + "; tools/list names them"));
        refused.tool_calls.push_back({"(unknown)", "rpc_error"});
        return refused;
    }
    bool const is_error = result->contains("isError") && result->at("isError") == true;
    auto answered = answer(r, std::move(*result), false);
    answered.tool_calls.push_back({std::string(tool), is_error ? "tool_error" : "ok"});
    return answered;
}

reply server::impl::run(request const& r) const
{
    auto const& m = r.method;
    auto no_cursor = [&]() -> std::optional<reply> {
        if (r.params && r.params->contains("cursor") && !r.params->at("cursor").is_null())
            return fail(r, invalid_params("unknown cursor: every list fits in one page"));
        return std::nullopt;
    };
    auto string_param = [&](std::string_view key) -> std::optional<std::string_view> {
        auto const* v = r.params ? r.params->if_contains(key) : nullptr;
        if (!v || !v->is_string())
            return std::nullopt;
        return std::string_view(v->get_string());
    };

    if (m == "tools/list") {
        if (auto bad = no_cursor())
            return std::move(*bad);
        return {200, result_body(r.id, r.modern ? tools_modern : tools_legacy)};
    }
    if (m == "tools/call")
        return call_tool_method(r);
    if (m == "resources/list") {
        auto const* cursor = r.params ? r.params->if_contains("cursor") : nullptr;
        if (cursor && !cursor->is_null() && !cursor->is_string())
            return fail(r, invalid_params("resources/list params.cursor must be a string, a previous page's nextCursor"));
        auto page = resources_page(*data, cursor && cursor->is_string() ? std::optional<std::string_view>(cursor->get_string())
                                                                        : std::nullopt);
        if (auto const* f = std::get_if<failure>(&page))
            return fail(r, *f);
        return answer(r, std::move(std::get<json::object>(page)), true);
    }
    if (m == "resources/templates/list") {
        if (auto bad = no_cursor())
            return std::move(*bad);
        return answer(r, {{"resourceTemplates", resource_templates()}}, true);
    }
    if (m == "resources/read") {
        auto const uri = string_param("uri");
        if (!uri)
            return fail(r, invalid_params("resources/read needs params.uri, a lowcostgpu:// URI"));
        auto contents = read_resource(*uri, *data, r.modern);
        if (auto const* f = std::get_if<failure>(&contents))
            return fail(r, *f);
        return answer(r, {{"contents", std::move(std::get<0>(contents))}}, true);
    }
    // Subscriptions live in the stdio session (mcp/stdio.cpp), which sends the updates; here a URI
    // is checked, so a subscription names something that can be read.
    if ((m == "resources/subscribe" || m == "resources/unsubscribe") && r.via == transport::stdio) {
        auto const uri = string_param("uri");
        if (!uri)
            return fail(r, invalid_params(std::string(m) + " needs params.uri, a lowcostgpu:// URI"));
        bool const subscribe = m == "resources/subscribe";
        if (subscribe)
            if (auto contents = read_resource(*uri, *data, r.modern); auto const* f = std::get_if<failure>(&contents))
                return fail(r, *f);
        // Leaving a resource that no longer resolves (a model dropped from the catalog) goes by its
        // spelling, which is the key it was kept under if it was canonical then.
        auto canonical = canonical_uri(*uri, *data).value_or(std::string(*uri));
        auto done = answer(r, {}, false);
        done.subscriptions.push_back({std::move(canonical), std::string(*uri), subscribe});
        return done;
    }
    if (m == "prompts/list") {
        if (auto bad = no_cursor())
            return std::move(*bad);
        return answer(r, {{"prompts", prompt_list()}}, true);
    }
    if (m == "prompts/get") {
        auto const name = string_param("name");
        if (!name)
            return fail(r, invalid_params("prompts/get needs params.name, the name of a prompt"));
        json::object const* arguments = nullptr;
        if (auto const* a = r.params->if_contains("arguments"); a && !a->is_null()) {
            if (!a->is_object())
                return fail(r, invalid_params("prompts/get params.arguments must be an object of strings"));
            arguments = &a->get_object();
        }
        auto result = get_prompt(*name, arguments, *data);
        if (auto const* f = std::get_if<failure>(&result))
            return fail(r, *f);
        return answer(r, std::move(std::get<0>(result)), false);
    }
    if (m == "completion/complete") {
        if (!r.params)
            return fail(r, invalid_params("completion/complete needs params.ref and params.argument"));
        auto result = complete(*r.params, *data);
        if (auto const* f = std::get_if<failure>(&result))
            return fail(r, *f);
        return answer(r, {{"completion", std::move(std::get<0>(result))}}, false);
    }
    if (m == "server/discover") {
        json::array versions;
        for (auto v : supported_versions)
            versions.emplace_back(v);
        json::object result{{"supportedVersions", std::move(versions)},
                            {"capabilities", server_capabilities(true, r.via)},
                            {"instructions", instructions}};
        result = decorate(std::move(result), true);
        return {200, result_body(r.id, json::serialize(result))};
    }
    if (!r.modern) {
        if (m == "initialize") {
            auto const version = string_param("protocolVersion");
            if (!version)
                return fail(r, invalid_params("initialize needs params.protocolVersion (a string)"));
            auto const* caps = r.params->if_contains("capabilities");
            auto const* client = r.params->if_contains("clientInfo");
            if (!caps || !caps->is_object() || !client || !client->is_object())
                return fail(r, invalid_params("initialize needs params.capabilities and params.clientInfo (objects)"));
            std::string_view const chosen = is_legacy(*version) ? *version : latest_legacy;
            return answer(r,
                          {{"protocolVersion", chosen},
                           {"capabilities", server_capabilities(false, r.via)},
                           {"serverInfo", server_info},
                           {"instructions", instructions}},
                          false);
        }
        if (m == "ping")
            return answer(r, {}, false);
        if (m == "logging/setLevel") {
            auto const level = string_param("level");
            if (!level || std::find(log_levels.begin(), log_levels.end(), *level) == log_levels.end())
                return fail(r, invalid_params("logging/setLevel needs params.level: debug, info, notice, warning, "
                                              "error, critical, alert or emergency"));
            // Stateless: every message is answered on its own and this server sends no log messages.
            return answer(r, {}, false);
        }
    }
    return fail(r, {error_code::method_not_found, "method not found: " + pricing::quote(limited(m))});
}

server::server(std::shared_ptr<const data_view> data, implementation info)
    : impl_(std::make_unique<impl>(std::move(data), std::move(info)))
{
}

server::~server() = default;

data_view const& server::data() const { return *impl_->data; }

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
