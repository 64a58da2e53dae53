// lowcostgpu public-key: the public keys document with the signing key added.
#include "server/cli/commands.hpp"
#include "server/cli/keys.hpp"

#include "render/json.hpp"

#include "pricing/calendar.hpp"

#include <boost/json/serialize.hpp>

#include <iostream>

namespace lcg::cli {

// The keys document with the signing key added from --valid-from: a rotation closes the keys still
// open at that instant, so each publication time has one key.
int run_public_key(arguments const& args)
{
    allow_only(args, {"signing-key", "valid-from", "keys"}, 0);
    auto const key = configured_signing_key(args);
    if (!key)
        throw usage_error("public-key needs the signing key: --signing-key FILE or LCG_SIGNING_KEY_FILE");
    pricing::instant from = now();
    if (auto const text = args.flag("valid-from")) {
        auto const parsed = pricing::parse_utc_timestamp(*text);
        if (!parsed)
            throw usage_error("--valid-from: " + parsed.err().message);
        from = *parsed;
    }
    pricing::key_ring ring = args.flag("keys") ? read_key_ring(*args.flag("keys")) : pricing::key_ring{};
    if (ring.find(key->key_id()))
        throw usage_error("the key " + key->key_id() + " is already in " + *args.flag("keys"));
    for (auto& k : ring.keys) {
        if (!k.valid_until && k.valid_from >= from)
            throw usage_error("the key " + k.key_id + " is valid from " + pricing::to_rfc3339(k.valid_from) +
                              ": --valid-from must be later");
        if (!k.valid_until)
            k.valid_until = from;
    }
    ring.keys.push_back({key->key_id(), key->public_key_pem(), from, std::nullopt});
    std::cout << boost::json::serialize(render::keys_json(ring)) << "\n";
    return 0;
}

}
