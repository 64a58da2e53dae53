#pragma once

#include "pricing/outcome.hpp"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <istream>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

// A file read whole, the one way every command and state file reads one: a piece at a time, so that
// a file past its bound (or /dev/zero) is refused once the bound is passed, not once it has filled
// memory. Why there are no bytes is a pricing::error: not_found when the file cannot be opened,
// invalid_argument when it is larger than the bound, unavailable when reading it failed.
namespace lcg::ops {

inline constexpr std::uint64_t no_bound = std::numeric_limits<std::uint64_t>::max();

// The stream's bytes handed to `take` a piece at a time (1 MiB at most), to its end or until `take`
// says false; the error when reading failed. `name` is how it names the stream ("standard input", a path).
std::optional<pricing::error> read_pieces(std::istream& in, std::string const& name,
                                          std::function<bool(std::string_view)> const& take);

// The stream's bytes to its end, whole.
pricing::outcome<std::string> read_bytes(std::istream& in, std::string const& name, std::uint64_t max_bytes);

pricing::outcome<std::string> read_file(std::filesystem::path const& path, std::uint64_t max_bytes = no_bound);

}
