#pragma once

// How lean_load (tests/bench/lean_load.cpp) reads the answers of one keep-alive connection: in
// pieces of any size, as the kernel hands them over. Only what a load generator needs: the status,
// and where the body ends by its Content-Length. An answer framed otherwise (chunked, or up to the
// end of the connection) or followed by bytes nobody asked for leaves the connection unusable.

#include <algorithm>
#include <charconv>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace lcg::bench {

enum class reading {
    incomplete,  // the answer goes on in the next bytes
    answered,    // an answer ended exactly with these bytes: status() is its status
    broken,      // the connection cannot carry another request
};

class answer_reader {
public:
    // A head larger than this is taken as a server gone wrong.
    static constexpr std::size_t head_limit = 16 * 1024;

    reading take(std::string_view bytes)
    {
        if (body_left_ == 0) {
            auto const before = head_.size();
            // Up to the blank line when these bytes hold it: the body is counted, never copied.
            auto const room = bytes.substr(0, head_limit - before);
            auto const blank = room.find("\r\n\r\n");
            head_.append(room.substr(0, blank == std::string_view::npos ? room.size() : blank + 4));
            // The blank line may have begun in the bytes before.
            auto const end = head_.find("\r\n\r\n", before >= 3 ? before - 3 : 0);
            if (end == std::string::npos)
                return head_.size() >= head_limit ? reading::broken : reading::incomplete;
            auto const head = std::string_view(head_).substr(0, end + 2);
            auto const status = status_of(head);
            auto const length = content_length(head);
            if (!status || !length)
                return reading::broken;
            status_ = *status;
            body_left_ = *length;
            bytes.remove_prefix(end + 4 - before);
            head_.clear();
        }
        auto const used = std::min(bytes.size(), body_left_);
        body_left_ -= used;
        bytes.remove_prefix(used);
        if (body_left_ > 0)
            return reading::incomplete;
        return bytes.empty() ? reading::answered : reading::broken;
    }

    int status() const { return status_; }

private:
    // "HTTP/1.1 200 OK": the three digits after the version.
    static std::optional<int> status_of(std::string_view head)
    {
        constexpr std::string_view version = "HTTP/1.";
        if (head.size() < 12 || !head.starts_with(version) || head[8] != ' ')
            return std::nullopt;
        int code = 0;
        auto const digits = head.substr(9, 3);
        if (std::from_chars(digits.data(), digits.data() + digits.size(), code).ptr != digits.data() + digits.size())
            return std::nullopt;
        return code;
    }

    // The value of the Content-Length line, whatever the case of its name.
    static std::optional<std::size_t> content_length(std::string_view head)
    {
        constexpr std::string_view name = "content-length:";
        auto const lower = [](char a, char b) { return a == (b | 0x20); };
        for (auto at = head.find("\r\n"); at != std::string_view::npos; at = head.find("\r\n", at + 2)) {
            auto const line = head.substr(at + 2, head.find("\r\n", at + 2) - at - 2);
            if (line.size() <= name.size() || !std::equal(name.begin(), name.end(), line.begin(), lower))
                continue;
            auto value = line.substr(name.size());
            value.remove_prefix(std::min(value.find_first_not_of(" \t"), value.size()));
            value.remove_suffix(value.size() - std::min(value.find_last_not_of(" \t") + 1, value.size()));
            std::size_t n = 0;
            auto const [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
            if (ec != std::errc{} || end != value.data() + value.size())
                return std::nullopt;
            return n;
        }
        return std::nullopt;
    }

    std::string head_;         // the answer's head so far, until its blank line
    std::size_t body_left_ = 0;  // bytes of the body still to come
    int status_ = 0;
};

}
