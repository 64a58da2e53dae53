#include "server/snapshot/gzip.hpp"

#include <zlib.h>

#include <stdexcept>

namespace lcg::snapshot {

std::string gzip(std::string_view data)
{
    z_stream zs{};
    // 15 window bits + 16: a gzip header and trailer rather than zlib's.
    if (deflateInit2(&zs, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY) != Z_OK)
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

}
