#include "server/cli/arguments.hpp"

#include <algorithm>
#include <cstdlib>

namespace lcg::cli {

arguments parse_arguments(int argc, char** argv, std::vector<std::string_view> const& switches)
{
    arguments args;
    for (int i = 2; i < argc; ++i) {
        std::string_view const word = argv[i];
        if (!word.starts_with("--") || word == "-") {
            args.positional.emplace_back(word);
            continue;
        }
        std::string name(word.substr(2));
        if (auto eq = name.find('='); eq != std::string::npos) {
            args.flags[name.substr(0, eq)] = name.substr(eq + 1);
        } else if (std::find(switches.begin(), switches.end(), name) != switches.end()) {
            args.flags[name] = "true";
        } else if (i + 1 < argc) {
            args.flags[name] = argv[++i];
        } else {
            throw usage_error("--" + name + " needs a value");
        }
    }
    return args;
}

void allow_only(arguments const& args, std::vector<std::string_view> const& known, std::size_t max_positional)
{
    for (auto const& [name, _] : args.flags)
        if (std::find(known.begin(), known.end(), name) == known.end())
            throw usage_error("unknown option --" + name);
    if (args.positional.size() > max_positional)
        throw usage_error("unexpected argument '" + args.positional[max_positional] + "'");
}

std::string setting(arguments const& args, std::string_view flag, char const* env, std::string fallback)
{
    if (auto v = args.flag(flag))
        return *v;
    if (char const* v = std::getenv(env); v && *v)
        return v;
    return fallback;
}

long number_setting(arguments const& args, std::string_view flag, char const* env, long fallback, long low, long high)
{
    std::string const text = setting(args, flag, env, std::to_string(fallback));
    std::size_t used = 0;
    long value = 0;
    try {
        value = std::stol(text, &used);
    } catch (std::logic_error const&) {
        used = 0;
    }
    if (used != text.size() || text.empty() || value < low || value > high)
        throw usage_error("--" + std::string(flag) + " (" + env + ") takes a whole number from " + std::to_string(low) +
                          " to " + std::to_string(high) + ", not '" + text + "'");
    return value;
}

std::string database_url(arguments const& args)
{
    auto url = setting(args, "database-url", "DATABASE_URL");
    if (url.empty())
        throw usage_error("no database: set DATABASE_URL or pass --database-url");
    return url;
}

}
