#pragma once

#include <string>
#include <string_view>

namespace lcg::snapshot {

// `data` as a gzip member (RFC 1952), compressed at the best level: documents are compressed once,
// when the snapshot is built, and sent many times. Throws std::runtime_error if zlib fails.
std::string gzip(std::string_view data);

}
