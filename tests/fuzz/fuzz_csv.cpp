// The observations CSV reader over arbitrary bytes: never crashes, never keeps more than 20
// problems, and the canonical CSV of what it accepted reads back identically.
#include "pricing/observation.hpp"

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace {

std::vector<lcg::pricing::observation> read_all(std::string_view text, long& bad)
{
    lcg::pricing::observation_csv_reader reader([](std::string_view id) { return id == "h100-sxm" || id == "l4"; });
    std::vector<lcg::pricing::observation> out;
    std::size_t start = 0;
    while (start <= text.size()) {
        auto const end = text.find('\n', start);
        auto const line = text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
        if (auto o = reader.read_line(line))
            out.push_back(std::move(*o));
        if (end == std::string_view::npos)
            break;
        start = end + 1;
    }
    reader.finish();
    if (reader.problems().size() > lcg::pricing::observation_csv_reader::problems_kept)
        std::abort();
    bad = reader.bad_lines();
    return out;
}

}

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size)
{
    std::string_view const text(reinterpret_cast<char const*>(data), size);
    long bad = 0;
    auto const accepted = read_all(text, bad);
    if (bad == 0) {
        std::string const canonical = lcg::pricing::canonical_observations_csv(accepted);
        long bad_again = 0;
        auto const again = read_all(canonical, bad_again);
        if (bad_again != 0 || lcg::pricing::canonical_observations_csv(again) != canonical)
            std::abort();
    }
    return 0;
}
