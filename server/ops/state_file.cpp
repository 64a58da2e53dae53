#include "server/ops/state_file.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace lcg::ops {

std::string read_state(std::filesystem::path const& file, std::string_view what)
{
    std::ifstream in(file, std::ios::binary);
    std::ostringstream bytes;
    if (!in || !(bytes << in.rdbuf()) || in.bad())
        throw std::runtime_error("cannot read " + std::string(what) + " from " + file.string());
    return bytes.str();
}

void write_state(std::filesystem::path const& file, std::string const& bytes, std::string_view what)
{
    if (file.has_parent_path())
        std::filesystem::create_directories(file.parent_path());
    auto const partial = std::filesystem::path(file.string() + ".partial");
    {
        std::ofstream out(partial, std::ios::binary | std::ios::trunc);
        out << bytes;
        if (!out.flush())
            throw std::runtime_error("cannot write " + std::string(what) + " to " + partial.string());
    }
    std::filesystem::rename(partial, file);
}

}
