#include "server/cli/listings.hpp"

#include "pricing/calendar.hpp"

namespace lcg::cli {

decltype(store::listings_file::read) offers_reader(market::offer_format format, std::string_view bytes)
{
    return [format, bytes](std::string_view convention) -> pricing::outcome<std::vector<pricing::market_offer>> {
        auto const memory = market::parse_memory_convention(convention);
        if (!memory)
            return memory.err();
        return market::read_offers(format, bytes, *memory, pricing::rules::offer_reader_revision);
    };
}

std::string counts_text(store::listing_import_summary const& s)
{
    std::string out = std::to_string(s.rows) + " rows:";
    char const* separator = " ";
    for (auto outcome : pricing::all_listing_outcomes) {
        out += separator + std::to_string(s.count(outcome)) + ' ' + std::string(pricing::to_string(outcome));
        separator = ", ";
    }
    return out;
}

boost::json::object summary_json(store::listings_file const& file, store::listing_import_summary const& s)
{
    boost::json::object o;
    o["source"] = file.source;
    o["format"] = file.format;
    o["observed_at"] = pricing::to_rfc3339(file.observed_at);
    o["sha256"] = s.sha256;
    o["raw_file_new"] = s.raw_file_new;
    o["rows"] = s.rows;
    for (auto outcome : pricing::all_listing_outcomes)
        o[pricing::to_string(outcome)] = s.count(outcome);
    boost::json::array reasons;
    for (auto const& r : s.reasons)
        reasons.push_back({{"outcome", pricing::to_string(r.outcome)}, {"reason", r.text}, {"rows", r.rows}});
    o["reasons"] = std::move(reasons);
    return o;
}

}
