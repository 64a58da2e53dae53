#include "server/snapshot/gzip.hpp"

#include <zlib.h>

#include <stdexcept>

namespace lcg::snapshot {

namespace {

// `data` compressed at the best level; `window_bits` chooses the wrapping (zlib's convention: 15 + 16
// for a gzip header and trailer, -15 for a raw stream).
std::string compress(std::string_view data, int window_bits)
{
    z_stream zs{};
    if (deflateInit2(&zs, Z_BEST_COMPRESSION, Z_DEFLATED, window_bits, 9, Z_DEFAULT_STRATEGY) != Z_OK)
        throw std::runtime_error("zlib: deflateInit2 failed");
    std::string out(deflateBound(&zs, static_cast<uLong>(data.size())) + 32, '\0');
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
    zs.avail_in = static_cast<uInt>(data.size());
    zs.next_out = reinterpret_cast<Bytef*>(out.data());
    zs.avail_out = static_cast<uInt>(out.size());
    int const rc = deflate(&zs, Z_FINISH);
    auto const written = zs.total_out;
    deflateEnd(&zs);
    if (rc != Z_STREAM_END)
        throw std::runtime_error("zlib: deflate did not finish");
    out.resize(written);
    return out;
}

std::uint32_t crc_of(std::string_view data)
{
    return static_cast<std::uint32_t>(
        crc32_z(crc32_z(0, nullptr, 0), reinterpret_cast<Bytef const*>(data.data()), data.size()));
}

void append_le(std::string& out, std::uint32_t value, int bytes)
{
    for (int i = 0; i < bytes; ++i)
        out += static_cast<char>((value >> (8 * i)) & 0xFFU);
}

}

std::string gzip(std::string_view data) { return compress(data, 15 + 16); }

deflated deflate_once(std::string_view text)
{
    return {compress(text, -15), crc_of(text), text.size(),
            static_cast<std::uint32_t>(crc32_combine_gen(static_cast<z_off_t>(text.size())))};
}

std::string gzip_joined(std::string_view head, deflated const& tail)
{
    constexpr std::size_t max_stored = 65'535;  // a stored block's LEN is 16 bits
    std::string out;
    out.reserve(10 + head.size() + 5 * (head.size() / max_stored + 1) + tail.stream.size() + 8);
    // ID1 ID2, CM deflate, no flags, no modification time, no extra flags, OS Unix.
    out.append("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03", 10);
    // Each stored block: BFINAL 0 and BTYPE 00 padded to a byte, LEN, its ones' complement, bytes.
    // Every block ends on a byte, so tail's stream, which starts on one, follows as it is.
    for (std::size_t at = 0; at < head.size(); at += max_stored) {
        auto const piece = head.substr(at, max_stored);
        auto const len = static_cast<std::uint32_t>(piece.size());
        out += '\0';
        append_le(out, len, 2);
        append_le(out, ~len & 0xFFFFU, 2);
        out.append(piece);
    }
    out.append(tail.stream);
    auto const crc = crc32_combine_op(crc_of(head), tail.crc, tail.combine);
    append_le(out, static_cast<std::uint32_t>(crc), 4);
    append_le(out, static_cast<std::uint32_t>((head.size() + tail.size) & 0xFFFF'FFFFU), 4);  // ISIZE: modulo 2^32
    return out;
}

}
