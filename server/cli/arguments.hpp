#pragma once

// The command line's words, shared by every command of lowcostgpu (server/cli/): the one parser of
// flags, and the settings a flag gives, else an environment variable.
#include <map>
#include <optional>
#include <stdexcept>
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
// A whole number from the flag or the environment variable (else `fallback`), within [low, high];
// a usage_error naming both otherwise.
long number_setting(arguments const& args, std::string_view flag, char const* env, long fallback, long low, long high);
// --database-url, else DATABASE_URL; a usage_error when neither is set.
std::string database_url(arguments const& args);

}
