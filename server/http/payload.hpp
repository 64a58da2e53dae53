#pragma once

#include "mcp/tool_call.hpp"

#include <boost/asio/buffer.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/core/detail/string_view.hpp>
#include <boost/optional.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

namespace lcg::http {

// One part of a body sent as it is read: bytes kept alive by `owner`. Empty bytes end the body;
// `failed` says it cannot be completed, and the connection then closes (the client sees a body
// shorter than announced, never a complete-looking one).
struct body_part {
    std::shared_ptr<const void> owner;
    std::string_view bytes;
    bool failed = false;
};

// A body that arrives in parts (a week's inputs, read a chunk at a time). The connection asks for
// the next part once the one before is written, so it holds one part at a time and a slow client
// holds nothing else. `done` is called once, from any thread.
class body_source {
public:
    virtual ~body_source() = default;
    virtual void next(std::function<void(body_part)> done) = 0;
};

// A response body: text made for this request, bytes of a pre-rendered document that stay owned
// by it (serving a document shares its bytes instead of copying them per request), or a source of
// parts (view() is then empty; Content-Length is the response's, or the connection frames it).
class payload {
public:
    payload() = default;
    payload(std::string text) : text_(std::move(text)) {}
    payload(std::shared_ptr<const void> owner, std::string_view bytes) : owner_(std::move(owner)), shared_(bytes) {}
    payload(std::shared_ptr<body_source> source) : source_(std::move(source)) {}

    payload& operator=(std::string text)
    {
        text_ = std::move(text);
        owner_.reset();
        shared_ = {};
        source_.reset();
        replay_ = replay::never;
        counted_ = {};
        end_ = {};
        return *this;
    }

    std::shared_ptr<body_source> const& source() const { return source_; }

    // Whether the bytes are the same for every request that asks with the same target and negotiation
    // headers on the same snapshot, so that the connection may store the answer and replay it
    // (stored_answers): a published document's (document_at), owned by the document, or an
    // operation's computed answer (operation_handler.cpp), owned by this response alone, so that
    // whoever stores the answer keeps its bytes. A message's answer (POST /mcp) is text, the same
    // for the same message and headers (stored_answers keys a POST on them): the store copies it,
    // and only once it is asked a second time, so that distinct messages cost no copy.
    enum class replay { never, published, computed, message };
    void mark_published() { replay_ = owner_ ? replay::published : replay::never; }
    void mark_computed() { replay_ = owner_ ? replay::computed : replay::never; }
    // `call`: the MCP tool the message called and its outcome, counted again in the metrics when
    // the answer is replayed (an empty tool for a message that called none).
    void mark_message_answer(mcp::tool_call call)
    {
        if (owner_ || source_)
            return;
        replay_ = replay::message;
        counted_ = std::move(call);
    }
    replay replayable() const { return replay_; }
    mcp::tool_call const& counted_call() const { return counted_; }
    // What keeps the bytes alive; null for text.
    std::shared_ptr<const void> const& owner() const { return owner_; }

    // Ends the text with `lasting`, text that `owner` keeps unchanged at that address while it
    // lives (mcp::reply::lasting_end), without copying it: a connection may keep a file of it once
    // and send the body's end from there, after lead(). Only for a body of text.
    void end_with(std::shared_ptr<const void> owner, std::string_view lasting)
    {
        if (owner_ || source_ || lasting.empty())
            return;
        end_ = {std::move(owner), lasting};
    }
    std::shared_ptr<const void> const& lasting_owner() const { return end_.owner; }
    std::string_view lasting_end() const { return end_.bytes; }
    // The body before lasting_end(); no longer valid once view() joined the two.
    std::string_view lead() const
    {
        if (owner_)
            return shared_;
        return std::string_view(text_).substr(0, text_.size() - (end_.joined ? end_.bytes.size() : 0));
    }

    // The whole body in one piece. One that ends with lasting text is joined on the first call (a
    // connection that sends the end from a file never asks: connection_writing.hpp), so a payload
    // belongs to one thread at a time, as the response that holds it does.
    std::string_view view() const
    {
        if (owner_)
            return shared_;
        if (!end_.bytes.empty() && !end_.joined) {
            text_ += end_.bytes;
            end_.joined = true;
        }
        return text_;
    }
    operator std::string_view() const { return view(); }
    operator boost::core::string_view() const { return view(); }  // what Boost.JSON's parse takes
    std::string str() const { return std::string(view()); }

    char const* data() const { return view().data(); }
    std::size_t size() const
    {
        if (owner_)
            return shared_.size();
        return text_.size() + (end_.joined ? 0 : end_.bytes.size());
    }
    bool empty() const { return size() == 0; }
    void clear() { *this = std::string(); }

    template <class T>
    std::size_t find(T const& what, std::size_t from = 0) const
    {
        return view().find(what, from);
    }
    template <class T>
    bool starts_with(T const& what) const
    {
        return view().starts_with(what);
    }
    friend bool operator==(payload const& a, payload const& b) { return a.view() == b.view(); }
    friend bool operator==(payload const& a, std::string_view b) { return a.view() == b; }
    friend bool operator==(payload const& a, std::string const& b) { return a.view() == b; }
    friend bool operator==(payload const& a, char const* b) { return a.view() == b; }

private:
    // The text's end that another keeps (end_with), and whether text_ holds a copy of it by now. A
    // payload moved from keeps none of it: its size and view are then of its own text alone.
    struct kept_end {
        std::shared_ptr<const void> owner;
        std::string_view bytes;
        bool joined = false;

        kept_end() = default;
        kept_end(std::shared_ptr<const void> o, std::string_view b) : owner(std::move(o)), bytes(b) {}
        kept_end(kept_end const&) = default;
        kept_end& operator=(kept_end const&) = default;
        kept_end(kept_end&& other) noexcept { *this = std::move(other); }
        kept_end& operator=(kept_end&& other) noexcept
        {
            owner = std::move(other.owner);
            bytes = std::exchange(other.bytes, {});
            joined = std::exchange(other.joined, false);
            return *this;
        }
    };

    mutable std::string text_;  // with end_'s bytes once joined (view)
    mutable kept_end end_;
    std::shared_ptr<const void> owner_;  // keeps `shared_` alive; null for text
    std::string_view shared_;
    std::shared_ptr<body_source> source_;
    replay replay_ = replay::never;
    mcp::tool_call counted_;
};

// The Beast body type over a payload. Responses are never serialized by Beast (wire.hpp
// write_head and the connection write them), so it has no writer: only the value and its size.
struct payload_body {
    using value_type = payload;

    static std::uint64_t size(value_type const& body) { return body.size(); }
};

}
