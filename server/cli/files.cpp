#include "server/cli/files.hpp"

#include "server/cli/arguments.hpp"
#include "server/ops/file_bytes.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <vector>

namespace lcg::cli {

namespace {

// A file's bytes, or the refusal as a command reports it: a file it cannot open or that is too
// large is a mistake on the command line; a failed read is not.
std::string bytes_or_throw(pricing::outcome<std::string> bytes)
{
    if (!bytes && bytes.err().code == pricing::errc::unavailable)
        throw std::runtime_error(bytes.err().message);
    if (!bytes)
        throw usage_error(bytes.err().message);
    return std::move(bytes).value();
}

}

std::string read_whole_file(std::string const& path)
{
    return read_input(path, ops::no_bound);
}

void read_file_in_pieces(std::string const& path, std::function<void(std::string_view)> const& sink)
{
    std::ifstream file;
    std::istream& in = open_input(path, file);
    std::vector<char> piece(1024 * 1024);
    while (in.read(piece.data(), static_cast<std::streamsize>(piece.size())) || in.gcount() > 0)
        sink(std::string_view(piece.data(), static_cast<std::size_t>(in.gcount())));
    if (int const error = errno; in.bad())
        throw std::runtime_error("cannot read " + path + ": " + std::strerror(error));
}

std::istream& open_input(std::string const& path, std::ifstream& file)
{
    if (path == "-")
        return std::cin;
    file.open(path, std::ios::binary);
    if (int const error = errno; !file)
        throw usage_error("cannot open " + path + ": " + std::strerror(error));
    return file;
}

std::string read_input(std::string const& path, std::uint64_t max_bytes)
{
    std::ifstream file;
    return bytes_or_throw(ops::read_bytes(open_input(path, file), path == "-" ? "standard input" : path, max_bytes));
}

}
