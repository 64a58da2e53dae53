#include "server/store/inputs.hpp"

#include <algorithm>
#include <numeric>

namespace lcg::store {

std::vector<std::string_view> input_chunks(std::string_view csv, std::size_t target)
{
    std::vector<std::string_view> out;
    // Chunk 0 never ends at the header line, whatever the target: it holds a row when more follow.
    std::size_t const header_end = csv.find('\n');
    std::size_t from = std::max(target, std::size_t{1}) - 1;
    if (header_end != std::string_view::npos)
        from = std::max(from, header_end + 1);
    while (!csv.empty()) {
        std::size_t const end = from >= csv.size() ? std::string_view::npos : csv.find('\n', from);
        from = std::max(target, std::size_t{1}) - 1;
        std::size_t const size = end == std::string_view::npos ? csv.size() : end + 1;
        out.push_back(csv.substr(0, size));
        csv.remove_prefix(size);
    }
    return out;
}

std::size_t input_layout::total_bytes() const
{
    return std::accumulate(chunk_sizes.begin(), chunk_sizes.end(), std::size_t{0});
}

input_layout layout_of(std::string_view csv, std::size_t target)
{
    input_layout out;
    for (auto const chunk : input_chunks(csv, target))
        out.chunk_sizes.push_back(chunk.size());
    out.header = std::string(csv.substr(0, csv.find('\n')));
    return out;
}

}
