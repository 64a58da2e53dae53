#pragma once

#include <span>
#include <string_view>

namespace lcg {

// A text file compiled into the binary (see cmake/embed.cmake).
struct embedded_file {
    std::string_view name;
    std::string_view content;
};

}
