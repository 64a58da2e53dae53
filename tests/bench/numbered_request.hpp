#pragma once

// The request lean_load (tests/bench/lean_load.cpp) sends again and again. Where it holds `mark`,
// each request carries there the count of requests sent before it, in as many decimal digits: an
// MCP message then has a new id every time, a question the server has never answered.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

namespace lcg::bench {

class numbered_request {
public:
    static constexpr std::string_view mark = "#ID#####";

    explicit numbered_request(std::string bytes) : bytes_(std::move(bytes)), counter_(bytes_.find(mark)) {}
    std::size_t size() const { return bytes_.size(); }
    bool numbered() const { return counter_ != std::string::npos; }

    // The next request's bytes, valid until the next call. The count wraps past 8 digits.
    std::string_view next()
    {
        if (numbered()) {
            auto n = sent_;
            for (std::size_t i = mark.size(); i-- > 0; n /= 10)
                bytes_[counter_ + i] = static_cast<char>('0' + n % 10);
        }
        ++sent_;
        return bytes_;
    }

private:
    std::string bytes_;
    std::size_t counter_;
    std::uint64_t sent_ = 0;
};

}
