#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace lcg::pricing {

// A sheet's canonical observations CSV is stored in chunks of whole lines (migration 011), so a
// week can be sent as it is read, one chunk at a time. A chunk ends at the first line end at or
// after its `target`th byte; the last chunk takes what is left. Chunk 0 begins with the header line,
// and holds at least one row whenever a chunk follows it (its line end is sought after the
// header's, which for a target of 1 MiB changes nothing). The chunks in order are the CSV.
inline constexpr std::size_t input_chunk_bytes = 1024 * 1024;
std::vector<std::string_view> input_chunks(std::string_view csv, std::size_t target = input_chunk_bytes);

// What a read of a week's inputs needs before its first chunk: the size of each chunk, in order
// (their sum is the CSV's size), and the header line, without its line end, which says the columns
// of every chunk's rows.
struct input_layout {
    std::vector<std::size_t> chunk_sizes;  // empty: nothing is stored for that publication
    std::string header;

    std::size_t total_bytes() const;
};

// The layout of a CSV held whole.
input_layout layout_of(std::string_view csv, std::size_t target = input_chunk_bytes);

// The layout of a CSV read as it arrives (a mirror's, spooled from its upstream): the chunks
// input_chunks would cut, found without holding the CSV. A header line longer than
// max_header_bytes (a canonical one is under a hundred) is refused (std::length_error).
class input_chunker {
public:
    static constexpr std::size_t max_header_bytes = 64 * 1024;

    explicit input_chunker(std::size_t target = input_chunk_bytes);
    // The next bytes, split anywhere.
    void read(std::string_view bytes);
    // Call once, after the last bytes.
    input_layout finish();

private:
    void read_header(std::string_view& bytes);

    std::size_t target_;
    input_layout layout_;
    bool header_read_ = false;
    std::size_t in_chunk_ = 0;  // bytes of the chunk being cut, so far
    std::size_t ends_from_ = 0;  // the chunk ends at its first line end at or after this index
};

}
