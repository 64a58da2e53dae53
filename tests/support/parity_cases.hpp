#pragma once

// The parity cases, generated from the operation registry: for each operation, its example as an
// HTTP target and as MCP tool arguments typed as its input schema says. The same question asked of
// both faces must give the same document.
#include "api/operation.hpp"

#include <boost/json/parse.hpp>

#include <string>
#include <vector>

namespace lcg::testing {

struct parity_case {
    std::string tool;
    std::string http_target;         // "/v1/cheapest?params_b=70&precision=fp8&hours=10"
    boost::json::object arguments;   // {"params_b": 70, "precision": "fp8", "hours": 10}
};

inline boost::json::value typed_argument(api::parameter const& p, std::string const& text)
{
    switch (p.type) {
    case api::value_type::integer:
    case api::value_type::number: return boost::json::parse(text);
    case api::value_type::boolean: return text == "true";
    case api::value_type::string_list: {
        boost::json::array items;
        for (std::size_t start = 0; start <= text.size();) {
            auto const comma = std::min(text.find(',', start), text.size());
            items.emplace_back(text.substr(start, comma - start));
            start = comma + 1;
        }
        return items;
    }
    case api::value_type::string: break;
    }
    return boost::json::string(text);
}

inline parity_case parity_case_of(api::operation const& op)
{
    auto const target = api::example_target(op);
    parity_case c{std::string(op.tool), target.path + target.query, {}};
    for (auto const& [name, value] : api::example_arguments(op))
        for (auto const& p : op.parameters())
            if (p.name == name)
                c.arguments[p.name] = typed_argument(p, std::string(value));
    return c;
}

inline std::vector<parity_case> parity_cases()
{
    std::vector<parity_case> out;
    for (auto const& op : api::operations())
        out.push_back(parity_case_of(op));
    return out;
}

}
