#include "server/cli/files.hpp"

#include "server/cli/arguments.hpp"
#include "server/ops/file_bytes.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <stdexcept>

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
    auto const failed = ops::read_pieces(open_input(path, file), path, [&](std::string_view piece) {
        sink(piece);
        return true;
    });
    if (failed)
        throw std::runtime_error(failed->message);
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
