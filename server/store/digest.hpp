#pragma once

#include <string>
#include <string_view>

namespace lcg::store {

// Lower-case hex SHA-256 of `bytes`: the fingerprint a sheet publishes of its canonical inputs.
std::string sha256_hex(std::string_view bytes);

}
