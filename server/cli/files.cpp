#include "server/cli/files.hpp"

#include "server/cli/arguments.hpp"

#include <fstream>
#include <iostream>
#include <iterator>
#include <vector>

namespace lcg::cli {

std::string read_whole_file(std::string const& path)
{
    std::string out;
    read_file_in_pieces(path, [&](std::string_view piece) { out += piece; });
    return out;
}

void read_file_in_pieces(std::string const& path, std::function<void(std::string_view)> const& sink)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw usage_error("cannot open " + path);
    std::vector<char> piece(1024 * 1024);
    while (in.read(piece.data(), static_cast<std::streamsize>(piece.size())) || in.gcount() > 0)
        sink(std::string_view(piece.data(), static_cast<std::size_t>(in.gcount())));
    if (in.bad())
        throw std::runtime_error("cannot read " + path);
}

std::istream& open_input(std::string const& path, std::ifstream& file)
{
    if (path == "-")
        return std::cin;
    file.open(path, std::ios::binary);
    if (!file)
        throw usage_error("cannot open " + path);
    return file;
}

std::string read_input(std::string const& path, std::uint64_t max_bytes)
{
    std::ifstream file;
    std::istream& in = open_input(path, file);
    std::string out;
    std::vector<char> piece(1024 * 1024);
    // A piece at a time, so that a file past the bound (or /dev/zero) is refused after max_bytes,
    // not once it has filled memory.
    while (in.read(piece.data(), static_cast<std::streamsize>(piece.size())) || in.gcount() > 0) {
        out.append(piece.data(), static_cast<std::size_t>(in.gcount()));
        if (out.size() > max_bytes)
            throw usage_error((path == "-" ? std::string("standard input") : path) + " is larger than " +
                              std::to_string(max_bytes) + " bytes; nothing was read from it");
    }
    if (in.bad())
        throw std::runtime_error("cannot read " + path);
    return out;
}

}
