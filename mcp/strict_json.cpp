#include "mcp/strict_json.hpp"

#include "mcp/server.hpp"

#include <boost/json/basic_parser_impl.hpp>
#include <boost/json/value_stack.hpp>

#include <algorithm>
#include <forward_list>
#include <functional>
#include <optional>

namespace lcg::mcp {

namespace {

namespace json = boost::json;

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
        // A repeated "id" of the message object is the one to report, wherever else a key repeats:
        // which id to echo is then the question (server.cpp echoes none).
        bool const top_level = depth_ == (root_is_array_ ? 2u : 1u);
        bool const repeated_id = top_level && std::count(begin, end, std::string_view("id")) > 1;
        std::size_t const element = root_is_array_ ? element_ : 0;
        if (!duplicates.empty() && duplicates.back().element == element) {
            if (repeated_id)
                duplicates.back() = {element, true, "id"};
            return;
        }
        duplicates.push_back({element, top_level, repeated_id ? "id" : std::string(*found)});
    }
};

}

parsed_message parse_strict(std::string_view message, json::storage_ptr values)
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

}
