#include "server/ops/file_bytes.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <vector>

namespace lcg::ops {

std::optional<pricing::error> read_pieces(std::istream& in, std::string const& name,
                                          std::function<bool(std::string_view)> const& take)
{
    std::vector<char> piece(1024 * 1024);
    while (in.read(piece.data(), static_cast<std::streamsize>(piece.size())) || in.gcount() > 0)
        if (!take(std::string_view(piece.data(), static_cast<std::size_t>(in.gcount()))))
            return std::nullopt;
    if (int const error = errno; in.bad())
        return pricing::error{pricing::errc::unavailable, "cannot read " + name + ": " + std::strerror(error)};
    return std::nullopt;
}

pricing::outcome<std::string> read_bytes(std::istream& in, std::string const& name, std::uint64_t max_bytes)
{
    std::string out;
    auto const failed = read_pieces(in, name, [&](std::string_view piece) {
        out.append(piece);
        return out.size() <= max_bytes;
    });
    if (failed)
        return *failed;
    if (out.size() > max_bytes)
        return pricing::invalid(name + " is larger than " + std::to_string(max_bytes) + " bytes; nothing was read from it");
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
