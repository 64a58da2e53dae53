#pragma once

#include <string_view>

namespace lcg::pricing {

// The line `rest` begins with, without its '\n' (all of `rest` when it holds none), with `rest`
// moved past it: what every reader of a line-oriented text (a CSV, a signed note, signed bytes)
// takes its lines with. A last line ending in '\n' leaves `rest` empty, not holding an empty line.
inline std::string_view take_line(std::string_view& rest)
{
    auto const end = rest.find('\n');
    auto const line = rest.substr(0, end);
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
    return line;
}

}
