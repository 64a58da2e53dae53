#pragma once

#include "pricing/listing_mapping.hpp"

#include <doctest/doctest.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

// What the reader tests share: reading a document that must be read or refused, one offer as one
// line to compare, rules built in the test, and the outcomes of a classification.
namespace lcg::market::test {

using reader = pricing::outcome<std::vector<pricing::market_offer>> (*)(std::string_view);

inline std::vector<pricing::market_offer> read(reader r, std::string_view file)
{
    auto offers = r(file);
    REQUIRE_MESSAGE(offers, offers.err().message);
    return std::move(offers).value();
}

inline std::string refusal(reader r, std::string_view file)
{
    auto const offers = r(file);
    REQUIRE_FALSE(offers);
    return offers.err().message;
}

// "listing id / accelerator / count / price / memory MiB or - / text"
inline std::string line(pricing::market_offer const& o)
{
    return o.listing_id + " / " + o.accelerator + " / " + o.gpu_count + " / " + o.price + " / " +
           (o.memory_mib ? std::to_string(*o.memory_mib) : "-") + " / " + o.text;
}

inline pricing::alias_rule rule(std::string name, std::string hint, std::optional<int> lo, std::optional<int> hi,
                                std::string gpu,
                                pricing::listing_outcome outcome = pricing::listing_outcome::imported)
{
    return {std::move(name), std::move(hint), lo, hi, outcome, std::move(gpu),
            outcome == pricing::listing_outcome::imported ? "" : "why"};
}

// "imported h100-sxm 2.235000", "no_price", … one per listing: outcome, then the catalog id and
// per-GPU price of an imported one.
inline std::vector<std::string> outcomes(std::vector<pricing::classified_listing> const& listings)
{
    std::vector<std::string> out;
    for (auto const& l : listings)
        out.push_back(std::string(to_string(l.outcome)) +
                      (l.outcome == pricing::listing_outcome::imported ? " " + l.gpu + " " + to_decimal(l.price, 6) : ""));
    return out;
}

}
