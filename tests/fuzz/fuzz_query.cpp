// Query-string parsing over arbitrary bytes: never crashes; every value it yields is valid UTF-8.
#include "server/http/query.hpp"

#include "pricing/utf8.hpp"

#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size)
{
    std::string_view const text(reinterpret_cast<char const*>(data), size);
    auto params = lcg::http::query_params::parse(text);
    if (!params)
        return 0;
    for (char const* name : {"gpu", "hours", "q", "lang", "tier"})
        if (auto v = params.value().take(name); v && !lcg::pricing::utf8_length(*v))
            std::abort();
    (void)params.value().first_unknown();
    (void)lcg::http::percent_decode(text, false);
    return 0;
}
