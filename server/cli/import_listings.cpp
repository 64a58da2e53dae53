// lowcostgpu import-listings: one raw file of market offers, imported whole or not at all.
#include "server/cli/commands.hpp"
#include "server/cli/files.hpp"
#include "server/cli/listings.hpp"
#include "server/market/offers.hpp"
#include "server/store/database.hpp"

#include "pricing/calendar.hpp"
#include "pricing/rules.hpp"

#include <boost/json.hpp>

#include <iostream>

namespace lcg::cli {

namespace {

void print_text(store::listings_file const& file, store::listing_import_summary const& s)
{
    std::cout << file.source << " (" << file.format << ", observed " << pricing::to_rfc3339(file.observed_at)
              << "): " << counts_text(s) << "\n";
    for (auto const& r : s.reasons)
        std::cout << "  " << pricing::to_string(r.outcome) << " (" << r.rows << "): " << r.text << "\n";
    std::cout << "raw file sha256 " << s.sha256 << (s.raw_file_new ? " stored" : " already stored") << "\n";
}

std::string required(arguments const& args, std::string_view name)
{
    auto v = args.flag(name);
    if (!v || v->empty())
        throw usage_error("import-listings needs --" + std::string(name));
    return *v;
}

}

int run_import_listings(arguments const& args)
{
    allow_only(args, {"database-url", "format", "source", "observed-at", "json"}, 1);
    if (args.positional.size() != 1)
        throw usage_error("import-listings needs a FILE (or - for standard input)");
    auto const format = market::parse_offer_format(required(args, "format"));
    if (!format)
        throw usage_error(format.err().message);
    auto const observed_at = pricing::parse_utc_timestamp(required(args, "observed-at"));
    if (!observed_at)
        throw usage_error("--observed-at: " + observed_at.err().message);
    store::listings_file file{required(args, "source"), std::string(market::to_string(*format)), *observed_at,
                              read_input(args.positional[0], pricing::rules::max_listings_file_bytes), {}};
    file.read = offers_reader(*format, file.bytes);
    store::database db(database_url(args));
    auto const summary = db.import_listings(file);
    if (args.flag("json"))
        std::cout << boost::json::serialize(summary_json(file, summary)) << "\n";
    else
        print_text(file, summary);
    return 0;
}

}
