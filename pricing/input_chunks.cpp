#include "pricing/input_chunks.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

namespace lcg::pricing {

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
    input_chunker chunker(target);
    chunker.read(csv);
    return chunker.finish();
}

input_chunker::input_chunker(std::size_t target) : target_(std::max(target, std::size_t{1}) - 1) {}

void input_chunker::read_header(std::string_view& bytes)
{
    std::size_t const end = bytes.find('\n');
    std::size_t const taken = end == std::string_view::npos ? bytes.size() : end;
    if (layout_.header.size() + taken > max_header_bytes)
        throw std::length_error("the CSV's header line is longer than " + std::to_string(max_header_bytes) + " bytes");
    layout_.header.append(bytes.substr(0, taken));
    in_chunk_ += taken;
    bytes.remove_prefix(taken);
    if (end == std::string_view::npos)
        return;
    // Chunk 0 goes on past its header to a row's end, whatever the target.
    header_read_ = true;
    in_chunk_ += 1;
    bytes.remove_prefix(1);
    ends_from_ = std::max(target_, in_chunk_);
}

void input_chunker::read(std::string_view bytes)
{
    if (!header_read_)
        read_header(bytes);
    while (!bytes.empty()) {
        if (in_chunk_ < ends_from_) {
            std::size_t const skipped = std::min(ends_from_ - in_chunk_, bytes.size());
            in_chunk_ += skipped;
            bytes.remove_prefix(skipped);
            continue;
        }
        std::size_t const end = bytes.find('\n');
        if (end == std::string_view::npos) {
            in_chunk_ += bytes.size();
            return;
        }
        layout_.chunk_sizes.push_back(in_chunk_ + end + 1);
        bytes.remove_prefix(end + 1);
        in_chunk_ = 0;
        ends_from_ = target_;
    }
}

input_layout input_chunker::finish()
{
    if (in_chunk_ > 0)
        layout_.chunk_sizes.push_back(in_chunk_);
    in_chunk_ = 0;
    return std::move(layout_);
}

}
