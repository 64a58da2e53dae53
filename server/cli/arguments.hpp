#pragma once

// The command line's words, shared by every command of lowcostgpu (server/main.cpp and server/cli/).
#include <map>
#include <optional>
#include <stdexcept>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace lcg::cli {

// Command-line words: positional arguments and --flag [value] pairs.
struct arguments {
    std::vector<std::string> positional;
    std::map<std::string, std::string, std::less<>> flags;

    std::optional<std::string> flag(std::string_view name) const
    {
        auto it = flags.find(name);
        return it == flags.end() ? std::nullopt : std::optional(it->second);
    }
};

// A mistake in the command line: the message is printed with the usage's exit code, 2.
class usage_error : public std::runtime_error {
    using std::runtime_error::runtime_error;
};

// argv[2…] as arguments; `switches` are the flags that take no value.
arguments parse_arguments(int argc, char** argv, std::vector<std::string_view> const& switches);
// Refuses a flag not in `known` and more than `max_positional` positional arguments.
void allow_only(arguments const& args, std::vector<std::string_view> const& known, std::size_t max_positional);
// The flag, else the environment variable, else `fallback`.
std::string setting(arguments const& args, std::string_view flag, char const* env, std::string fallback = {});
// --database-url, else DATABASE_URL; a usage_error when neither is set.
std::string database_url(arguments const& args);
std::string read_whole_file(std::string const& path);
// FILE's bytes handed to `sink` a piece at a time (1 MiB at most), never held whole.
void read_file_in_pieces(std::string const& path, std::function<void(std::string_view)> const& sink);
// FILE, or standard input for "-", whole.
std::string read_input(std::string const& path);

}
