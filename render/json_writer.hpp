#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lcg::render {

// Appends `text` as a JSON string. Bytes above 0x7f pass through (UTF-8, as Boost.JSON writes it)
// unless `ascii_only`: then each is written as \u00XX, so text from the network, not known to be
// UTF-8, still makes valid JSON.
void append_json_string(std::string& out, std::string_view text, bool ascii_only = false);

// Compact JSON written straight into a string, for documents rendered on every request, where
// building a Boost.JSON tree first cost more than everything else. It gives the bytes Boost.JSON's
// serializer gives for the same members in the same order (tests/unit checks this), so a
// document's format does not depend on which of the two wrote it.
class json_writer {
public:
    json_writer() { out_.resize(4096); }

    json_writer& begin_object();
    json_writer& end_object();
    json_writer& begin_array();
    json_writer& end_array();
    json_writer& key(std::string_view name);  // the next value is this member's

    json_writer& string(std::string_view text);
    json_writer& number(std::int64_t n);
    json_writer& boolean(bool b);
    json_writer& null();

    // A member in one call: key(name) then the value.
    json_writer& member(std::string_view name, std::string_view text) { return key(name).string(text); }
    json_writer& member(std::string_view name, char const* text) { return key(name).string(text); }
    json_writer& member_number(std::string_view name, std::int64_t n) { return key(name).number(n); }
    json_writer& member_boolean(std::string_view name, bool b) { return key(name).boolean(b); }

    std::string text() &&;  // the document, with the final newline every JSON body has

    // A document written in parts, each sent before the next is written (a week's inputs): a
    // part after the first resumes inside the `depth` containers the parts before it left open,
    // the innermost already holding a value, and a part before the last is taken with part().
    json_writer& resume(std::size_t depth);
    std::string part() &&;  // what was written, open containers and all

private:
    void before_value();
    char* room(std::size_t n);  // n bytes to write at the end
    void raw(std::string_view bytes);
    void quoted(std::string_view text, std::string_view after);

    // Written up to used_; the rest is room, so a write is a copy and no call into std::string.
    std::string out_;
    std::size_t used_ = 0;
    std::vector<char> has_members_;  // per open object or array (not vector<bool>: its bit access cost)
    bool after_key_ = false;
};

}
