#include "mcp/markdown.hpp"

namespace lcg::mcp::markdown {

std::string rate(pricing::money amount) { return "$" + pricing::to_decimal(amount); }

std::string cents(pricing::money amount) { return "$" + pricing::to_cents(amount); }

std::string escape_cell(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        if (c == '|')
            out += "\\|";
        else if (c == '\n' || c == '\r')
            out += ' ';
        else
            out += c;
    }
    return out;
}

table::table(std::initializer_list<std::string_view> headers)
{
    for (auto h : headers)
        headers_.emplace_back(h);
}

void table::add(std::vector<std::string> cells) { rows_.push_back(std::move(cells)); }

std::string table::str() const
{
    std::string out = "|";
    for (auto const& h : headers_)
        out += " " + h + " |";
    out += "\n|";
    for (std::size_t i = 0; i < headers_.size(); ++i)
        out += "---|";
    out += "\n";
    for (auto const& row : rows_) {
        out += "|";
        for (auto const& cell : row)
            out += " " + escape_cell(cell) + " |";
        out += "\n";
    }
    return out;
}

}
