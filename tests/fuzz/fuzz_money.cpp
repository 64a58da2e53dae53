// Money parsing: never crashes, and whatever parses prints back to the same amount.
#include "pricing/money.hpp"

#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size)
{
    std::string_view const text(reinterpret_cast<char const*>(data), size);
    if (auto const m = lcg::pricing::parse_money(text)) {
        auto const again = lcg::pricing::parse_money(lcg::pricing::to_decimal(*m, 6));
        if (!again || *again != *m)
            std::abort();
        (void)lcg::pricing::to_cents(*m);
    }
    for (int scale = 0; scale <= 8; ++scale)
        if (auto const units = lcg::pricing::parse_decimal_units(text, scale))
            if (*units < 0)
                std::abort();
    return 0;
}
