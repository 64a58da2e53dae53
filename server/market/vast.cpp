#include "vast.hpp"

#include "exact_json.hpp"

#include <string>

namespace lcg::market {

using pricing::invalid;
using pricing::market_offer;

namespace {

pricing::outcome<market_offer> vast_offer(member_reader& m, std::string const& where)
{
    market_offer o;
    o.listing_id = m.number("id");
    o.accelerator = m.text("gpu_name");
    o.gpu_count = m.number("num_gpus");
    o.price = m.number("dph_total");
    auto const per_gpu = whole_part(m.number("gpu_ram"));
    auto const total = whole_part(m.number("gpu_total_ram"));
    std::string const arch = m.text("gpu_arch");
    // An offer priced for bidding carries an interruptible price, which is never an on-demand one.
    if (m.flag("is_bid") == true)
        o.price.clear();
    if (o.listing_id.find_first_not_of("0123456789") != std::string::npos || o.listing_id.empty())
        return invalid(where + " has no integer id" + (o.listing_id.empty() ? "" : " (" + o.listing_id + ")"));
    if (per_gpu && *per_gpu > 0)
        o.memory_mib = per_gpu;
    else if (auto const gpus = pricing::gpu_count(o.gpu_count); total && gpus)
        o.memory_mib = *total / *gpus;
    o.text = o.accelerator + ' ' + arch;
    return o;
}

}

// Every offer is a listing whatever its verified, rentable or rented flags say: the search's query
// chooses which offers an answer holds (Vast's defaults keep verified, rentable, unrented ones), the
// raw file is the evidence, and an offer someone rents now is still the price its host asks.
pricing::outcome<std::vector<market_offer>> read_vast_bundles(std::string_view file)
{
    auto const document = parse_exact_json(file);
    if (!document)
        return document.err();
    json_node const* offers = document->member("offers");
    if (!offers)
        return invalid("not a Vast.ai offer search answer: the document is not an object with an \"offers\" array");
    return read_offer_array(*offers, "offers", vast_offer);
}

}
