#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace lcg::snapshot {

// `data` as a gzip member (RFC 1952), compressed at the best level: documents are compressed once,
// when the snapshot is built, and sent many times. Throws std::runtime_error if zlib fails.
std::string gzip(std::string_view data);

// Text compressed once, as a raw deflate stream (RFC 1951) whose last block is final, with what a
// gzip trailer needs of it: so that a body made of bytes that change per request followed by this
// text is a gzip member without compressing the text again (gzip_joined).
struct deflated {
    std::string stream;
    std::uint32_t crc = 0;  // CRC-32 of the text
    std::size_t size = 0;   // the text's length
    std::uint32_t combine = 0;  // zlib's operator that appends a CRC-32 of that many bytes (crc32_combine_op)
};
deflated deflate_once(std::string_view text);

// A gzip member of `head` followed by the text `tail` was made from: `head` goes as stored (not
// compressed) blocks, then tail's stream as it is, then the trailer of both. Any gzip reader reads
// it as the two texts joined.
std::string gzip_joined(std::string_view head, deflated const& tail);

}
