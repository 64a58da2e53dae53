// The HTTP router over arbitrary targets, headers and bodies, on the synthetic snapshot of the
// HTTP tests: it must always answer, with a status a client can act on and never a 500.
// Input: first line the target, then "Name: value" header lines, an empty line, the body.
#include "../http/fixture.hpp"

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size)
{
    using namespace lcg;
    std::string_view text(reinterpret_cast<char const*>(data), size);
    auto next_line = [&] {
        auto const end = text.find('\n');
        auto const line = text.substr(0, end);
        text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
        return line;
    };
    std::string_view const target = next_line();
    if (target.empty())
        return 0;
    http::request req{size % 3 == 0 ? http::beast_http::verb::head : http::beast_http::verb::get,
                      std::string(target), 11};
    try {
        for (auto line = next_line(); !line.empty(); line = next_line()) {
            auto const colon = line.find(':');
            if (colon == std::string_view::npos || colon == 0)
                continue;
            req.set(line.substr(0, colon), line.substr(colon + 1));
        }
    } catch (std::exception const&) {
        return 0;  // Beast refuses header names or values no parser would have produced
    }
    req.body() = std::string(text);
    auto const res = http::handle(req, {testing::fixture_snapshot(), testing::fixture_now()});
    int const status = res.result_int();
    if (status >= 500 && status != 503)
        std::abort();
    return 0;
}
