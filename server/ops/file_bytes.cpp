#include "server/ops/file_bytes.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <vector>

namespace lcg::ops {

pricing::outcome<std::string> read_bytes(std::istream& in, std::string const& name, std::uint64_t max_bytes)
{
    std::string out;
    std::vector<char> piece(1024 * 1024);
    while (in.read(piece.data(), static_cast<std::streamsize>(piece.size())) || in.gcount() > 0) {
        out.append(piece.data(), static_cast<std::size_t>(in.gcount()));
        if (out.size() > max_bytes)
            return pricing::invalid(name + " is larger than " + std::to_string(max_bytes) + " bytes; nothing was read from it");
    }
    if (int const error = errno; in.bad())
        return pricing::error{pricing::errc::unavailable, "cannot read " + name + ": " + std::strerror(error)};
    return out;
}

pricing::outcome<std::string> read_file(std::filesystem::path const& path, std::uint64_t max_bytes)
{
    std::ifstream in(path, std::ios::binary);
    if (int const error = errno; !in)
        return pricing::error{pricing::errc::not_found, "cannot open " + path.string() + ": " + std::strerror(error)};
    return read_bytes(in, path.string(), max_bytes);
}

}
