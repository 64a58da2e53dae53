#include "mcp/stdio.hpp"

#include <boost/json/serialize.hpp>

#include <istream>
#include <ostream>
#include <string>

namespace lcg::mcp {

void serve_stdio(std::function<std::shared_ptr<const server>()> const& current, std::istream& in, std::ostream& out,
                 std::ostream* log)
{
    std::streambuf* const source = in.rdbuf();
    std::string line;
    bool too_long = false;
    bool done = false;
    while (!done && out) {
        int const c = source->sbumpc();
        if (c != std::char_traits<char>::eof() && c != '\n') {
            if (line.size() < max_message_bytes)
                line += static_cast<char>(c);
            else
                too_long = true;
            continue;
        }
        done = c == std::char_traits<char>::eof();
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        std::string_view message = line;
        while (!message.empty() && (message.front() == ' ' || message.front() == '\t'))
            message.remove_prefix(1);
        if (too_long) {
            out << R"({"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"the message is larger than 1 MiB"}})"
                << '\n'
                << std::flush;
        } else if (!message.empty()) {
            auto const answer = current()->handle(message, {});
            if (!answer.body.empty())
                out << answer.body << '\n' << std::flush;
            for (auto const& failure : answer.failures)
                if (log)
                    *log << boost::json::serialize(boost::json::object{
                                {"event", "caught_exception"}, {"where", "mcp"}, {"detail", failure}})
                         << std::endl;
        }
        line.clear();
        too_long = false;
    }
}

}
