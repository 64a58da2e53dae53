// lowcostgpu publish: a weekly sheet computed, signed and published, with the catalog and the sheet
// index, and appended to the publication log.
#include "server/cli/commands.hpp"
#include "server/cli/keys.hpp"
#include "server/cli/publication.hpp"
#include "server/store/database.hpp"
#include "server/tlog/entry.hpp"

#include "pricing/calendar.hpp"

#include <iostream>

namespace lcg::cli {

int run_publish(arguments const& args)
{
    allow_only(args, {"database-url", "week", "replace", "reason", "signing-key", "unsigned", "public-keys", "log-origin"},
               0);
    pricing::iso_week week = pricing::week_containing(now());
    if (auto w = args.flag("week")) {
        auto parsed = pricing::parse_week(*w);
        if (!parsed)
            throw usage_error("--week: " + parsed.err().message);
        week = *parsed;
    }
    auto const key = configured_signing_key(args);
    bool const unsigned_wanted = args.flag("unsigned").has_value();
    if (key && unsigned_wanted)
        throw usage_error("--unsigned and a signing key exclude each other");
    if (!key && !unsigned_wanted)
        throw usage_error("no signing key: pass --signing-key FILE or set LCG_SIGNING_KEY_FILE (an Ed25519 key: "
                          "openssl genpkey -algorithm ed25519 -out key.pem), or publish with --unsigned and sign "
                          "later with lowcostgpu sign --all");
    std::string reason;
    if (auto r = args.flag("reason")) {
        auto checked = tlog::checked_reason(*r);
        if (!checked || !args.flag("replace"))
            throw usage_error("--reason: " + (checked ? std::string("only with --replace") : checked.err().message));
        reason = *checked;
    }
    auto const at = now();
    if (key)
        check_key_in_use(args, *key, at);
    store::database db(database_url(args));
    auto const s = publish(db, week, args.flag("replace").has_value(), at, key ? signer_of(*key) : nullptr,
                           key ? catalog_signer_of(*key, at) : nullptr, log_signing_of(args, key, reason));
    std::cout << (s.replaced ? "republished " : "published ") << pricing::to_string(s.week) << ": " << s.priced_models
              << " of " << s.models << " models priced from " << s.observations
              << " observations; inputs sha256 " << s.inputs_sha256
              << (s.key_id.empty() ? "; NOT signed" : "; signed with key " + s.key_id)
              << (s.catalog_signed ? "; the catalog and the sheet index signed" : "") << "; the publication log holds "
              << s.log_size << " entries\n";
    for (auto const& r : s.refused)
        std::cout << "  not priced: " << r.gpu << ": " << r.reason << "\n";
    return 0;
}

}
