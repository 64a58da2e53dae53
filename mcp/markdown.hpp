#pragma once

#include "pricing/money.hpp"

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

// Small Markdown pieces for the text content of tool results and the Markdown of resources: short
// enough for an assistant's context, every figure as the structured content states it.
namespace lcg::mcp::markdown {

// "$1.680": a rate with its mills (3 decimals at least).
std::string rate(pricing::money amount);
// "$16.80": an amount to the cent, rounded half-up (the exact figure is in the structured content).
std::string cents(pricing::money amount);

// A GitHub-flavoured table; cells have '|' and line breaks escaped.
class table {
public:
    explicit table(std::initializer_list<std::string_view> headers);
    void add(std::vector<std::string> cells);
    std::string str() const;
    bool empty() const { return rows_.empty(); }

private:
    std::vector<std::string> headers_;
    std::vector<std::vector<std::string>> rows_;
};

std::string escape_cell(std::string_view text);

}
