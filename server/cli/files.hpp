#pragma once

// The files a command reads: whole, in pieces, or standard input for "-". A file that cannot be
// opened is a cli::usage_error (the command line named it).
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace lcg::cli {

std::string read_whole_file(std::string const& path);
// FILE's bytes handed to `sink` a piece at a time (1 MiB at most), never held whole.
void read_file_in_pieces(std::string const& path, std::function<void(std::string_view)> const& sink);
// FILE, or standard input for "-", whole: a usage_error past `max_bytes`, read no further.
std::string read_input(std::string const& path, std::uint64_t max_bytes);

}
