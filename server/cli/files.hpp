#pragma once

// The files a command reads: whole, in pieces, or standard input for "-". A file that cannot be
// opened is a cli::usage_error (the command line named it).
#include <cstdint>
#include <fstream>
#include <functional>
#include <istream>
#include <string>
#include <string_view>

namespace lcg::cli {

// FILE, or standard input for "-", whole, however large.
std::string read_whole_file(std::string const& path);
// FILE's bytes (standard input's for "-") handed to `sink` a piece at a time (1 MiB at most), never held whole.
void read_file_in_pieces(std::string const& path, std::function<void(std::string_view)> const& sink);
// FILE opened into `file`, or standard input for "-": what a command reads a piece or a line at a time.
std::istream& open_input(std::string const& path, std::ifstream& file);
// FILE, or standard input for "-", whole: a usage_error past `max_bytes`, read no further.
std::string read_input(std::string const& path, std::uint64_t max_bytes);

}
