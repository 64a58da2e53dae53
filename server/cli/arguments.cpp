#include "server/cli/arguments.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>

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

std::string database_url(arguments const& args)
{
    auto url = setting(args, "database-url", "DATABASE_URL");
    if (url.empty())
        throw usage_error("no database: set DATABASE_URL or pass --database-url");
    return url;
}

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

std::string read_input(std::string const& path)
{
    if (path != "-")
        return read_whole_file(path);
    return {std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>()};
}

}
