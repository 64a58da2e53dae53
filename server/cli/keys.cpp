#include "server/cli/keys.hpp"

#include "server/cli/files.hpp"

#include "render/json.hpp"

#include "pricing/calendar.hpp"

#include <chrono>
#include <cstdlib>

namespace lcg::cli {

pricing::instant now() { return std::chrono::time_point_cast<std::chrono::seconds>(std::chrono::system_clock::now()); }

trust::signing_key signing_key_from_pem(std::string const& pem, std::string const& from)
{
    auto key = trust::signing_key::from_pem(pem);
    if (!key)
        throw usage_error(from + ": " + key.err().message);
    return std::move(key).value();
}

std::optional<trust::signing_key> configured_signing_key(arguments const& args)
{
    if (auto const file = setting(args, "signing-key", "LCG_SIGNING_KEY_FILE"); !file.empty())
        return signing_key_from_pem(read_whole_file(file), "signing key " + file);
    if (char const* text = std::getenv("LCG_SIGNING_KEY"); text && *text)
        return signing_key_from_pem(text, "LCG_SIGNING_KEY");
    return std::nullopt;
}

pricing::key_ring read_key_ring(std::string const& path)
{
    auto ring = trust::parse_key_ring(read_whole_file(path));
    if (!ring)
        throw usage_error(path + ": " + ring.err().message);
    return std::move(ring).value();
}

// The signing key publish and sign use must be one the published keys document lists as valid at
// `at`: a key it has retired signs nothing new, and one it does not list would sign what nobody
// can verify. Without a keys document (a development set-up) there is nothing to check against.
void check_key_in_use(arguments const& args, trust::signing_key const& key, pricing::instant at)
{
    auto const path = setting(args, "public-keys", "LCG_PUBLIC_KEYS_FILE");
    if (path.empty())
        return;
    auto const ring = read_key_ring(path);
    auto const* listed = ring.find(key.key_id());
    if (!listed)
        throw usage_error("the signing key " + key.key_id() + " is not in the public keys " + path +
                          ": nobody could verify what it signs (add it with lowcostgpu public-key --keys)");
    if (!listed->covers(at))
        throw usage_error("the signing key " + key.key_id() + " is not valid at " + pricing::to_rfc3339(at) +
                          " (valid from " + pricing::to_rfc3339(listed->valid_from) +
                          (listed->valid_until ? " until " + pricing::to_rfc3339(*listed->valid_until) : "") +
                          " in " + path + "): a retired key signs nothing new");
}

tlog::note_signer note_signer_of(std::string name, trust::signing_key const& key)
{
    return {std::move(name), tlog::raw_public_key(key.public_key_pem()).value(),
            [key](std::string_view bytes) { return *tlog::base64_decode(key.sign(bytes)); }};
}

// "" as the origin keeps the log's own: only the first signed publication sets it.
store::log_signing log_signing_of(arguments const& args, std::optional<trust::signing_key> const& key,
                                  std::string reason)
{
    store::log_signing out{std::nullopt, std::move(reason)};
    if (key)
        out.checkpoint = note_signer_of(setting(args, "log-origin", "LCG_LOG_ORIGIN"), *key);
    return out;
}

store::sheet_signer signer_of(trust::signing_key const& key)
{
    return [key](pricing::price_sheet& sheet) { key.sign(sheet); };
}

store::catalog_signer catalog_signer_of(trust::signing_key const& key, pricing::instant at)
{
    return [key, at](pricing::catalog const& catalog, std::vector<pricing::indexed_sheet> index) {
        auto out = trust::catalog_to_sign(render::catalog_document(catalog), std::move(index), at);
        key.sign(out.signature);
        return out;
    };
}

}
