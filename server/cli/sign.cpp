// lowcostgpu sign --all: every published sheet without a signature signed, and the catalog and the
// sheet index if they changed, each signing logged.
#include "server/cli/commands.hpp"
#include "server/cli/keys.hpp"
#include "server/store/database.hpp"

#include "pricing/calendar.hpp"

#include <iostream>

namespace lcg::cli {

int run_sign(arguments const& args)
{
    allow_only(args, {"database-url", "all", "resign", "signing-key", "public-keys", "log-origin"}, 0);
    if (!args.flag("all"))
        throw usage_error("sign takes --all: it signs every published sheet that has no signature yet, and the "
                          "catalog and the sheet index if they changed since they were last signed");
    auto const key = configured_signing_key(args);
    if (!key)
        throw usage_error("no signing key: pass --signing-key FILE or set LCG_SIGNING_KEY_FILE");
    auto const at = now();
    check_key_in_use(args, *key, at);
    store::database db(database_url(args));
    // --resign: every sheet another key signed is signed again (a rotation after a compromise: the
    // new key valid from before the first sheet, the old one closed).
    auto const done = db.sign_unsigned(signer_of(*key), catalog_signer_of(*key, at), at, log_signing_of(args, key),
                                       args.flag("resign") ? key->key_id() : std::string());
    for (auto const& w : done.weeks)
        std::cout << "signed " << pricing::to_string(w) << "\n";
    if (done.catalog)
        std::cout << "signed the catalog and the sheet index\n";
    std::cout << done.weeks.size() << " sheet(s) signed with key " << key->key_id() << "; the publication log holds "
              << done.log_size << " entries\n";
    return 0;
}

}
