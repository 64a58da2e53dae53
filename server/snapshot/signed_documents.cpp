// What lets a client check what it is served: each sheet's signed bytes and signature (also as a
// signify file and a signed note), the keys, the signed catalog, and the publication log with its
// tiles.
#include "server/snapshot/builder.hpp"

#include "server/tlog/note.hpp"
#include "server/tlog/signify.hpp"
#include "server/tlog/tiles.hpp"

#include "render/json.hpp"

#include <boost/json/array.hpp>

#include <algorithm>

namespace lcg::snapshot {

namespace {

namespace json = boost::json;

// The raw Ed25519 key of `key_id` among `keys`, if published.
std::optional<std::string> raw_key(pricing::key_ring const& keys, std::string_view key_id)
{
    auto const* k = keys.find(key_id);
    if (!k)
        return std::nullopt;
    auto raw = tlog::raw_public_key(k->public_key_pem);
    return raw ? std::optional<std::string>(*raw) : std::nullopt;
}

// /v1/log: where the log is, the note verifier key of each published key under the log's origin
// (what Go's sumdb/note takes), and every entry with the version of the sheet it logged.
json::object log_index(publication_log const& log, pricing::key_ring const& keys)
{
    std::string const origin = log_origin(log);
    json::array verifier_keys, entries;
    for (auto const& k : keys.keys)
        if (auto raw = raw_key(keys, k.key_id); raw && !origin.empty())
            verifier_keys.emplace_back(tlog::verifier_key(origin, *raw));
    for (std::size_t i = 0; i < log.entries.size(); ++i) {
        auto const& e = log.parsed[i];
        if (!e)
            continue;  // the tiles still publish it as stored; audit names it
        entries.push_back(json::object{{"index", i},
                                       {"week", pricing::to_string(e->week)},
                                       {"kind", std::string(tlog::to_string(e->kind))},
                                       {"published_at", pricing::to_rfc3339(e->published_at)},
                                       {"logged_at", pricing::to_rfc3339(e->logged_at)},
                                       {"signed_sha256", e->signed_sha256},
                                       {"inputs_sha256", e->inputs_sha256},
                                       {"key_id", e->key_id.empty() ? json::value(nullptr) : json::value(e->key_id)},
                                       {"reason", e->reason.empty() ? json::value(nullptr) : json::value(e->reason)},
                                       {"signed_bytes", render::path_of(render::resource::log_signed_bytes, std::to_string(i))}});
    }
    auto const size = log.tree.size();
    std::string root;
    if (size > 0) {
        auto const r = log.tree.root(size);
        root = tlog::base64_encode(std::string_view(reinterpret_cast<char const*>(r.data()), r.size()));
    }
    return {{"origin", origin.empty() ? json::value(nullptr) : json::value(origin)},
            {"size", size},
            {"root_hash", root.empty() ? json::value(nullptr) : json::value(root)},
            {"checkpoint", render::path_of(render::resource::log_checkpoint)},
            {"tiles", render::folder_of(render::resource::log_tile)},
            {"verifier_keys", std::move(verifier_keys)},
            {"entries", std::move(entries)}};
}

}

// The signed catalog document, byte for byte as signed, and its signature.
void add_signed_catalog(draft& d)
{
    if (!d.s.signed_catalog)
        return;
    auto const& sig = d.s.signed_catalog->signature;
    d.b.add_body(render::resource::catalog, "", "", d.s.signed_catalog->document, false, sig.signed_at);
    d.b.add_body(render::resource::catalog_signature, "", "", render::to_text(render::catalog_signature_json(sig)),
                 false, sig.signed_at);
}

// The keys document and each key's PEM, and its signify form when it has one.
void add_keys(draft& d)
{
    auto const& keys = d.s.keys;
    d.b.add_body(render::resource::keys, "", "", render::to_text(render::keys_json(keys)));
    for (auto const& k : keys.keys) {
        d.b.add_body(render::resource::key_file, k.key_id + ".pem", "", k.public_key_pem);
        if (auto raw = tlog::raw_public_key(k.public_key_pem))
            if (auto pub = tlog::signify_public_key(k.key_id, *raw))
                d.b.add_body(render::resource::key_file, k.key_id + ".pub", "", *pub);
    }
}

// Each week's versions as the log holds them, and how late the first one was.
std::map<pricing::iso_week, pricing::publication_record> publications_of(publication_log const& log)
{
    std::map<pricing::iso_week, pricing::publication_record> out;
    for (std::size_t i = 0; i < log.entries.size(); ++i) {
        auto const& e = log.parsed[i];
        if (!e)
            continue;  // the tiles still publish it as stored; audit names it
        auto& record = out[e->week];
        if (record.versions.empty())
            record.late_by = pricing::publication_delay(e->week, e->published_at);
        record.versions.push_back({i, std::string(tlog::to_string(e->kind)), e->published_at, e->logged_at, e->reason});
    }
    return out;
}

// The log's origin: its checkpoint's first line ("" before the first signed checkpoint).
std::string log_origin(publication_log const& log) { return std::string(tlog::origin_of(log.checkpoint)); }

// The partial tiles of the size the served checkpoint signs, when entries were logged after it
// (publish --unsigned): tlog-tiles asks a log to serve partial tiles for every size it signed a
// checkpoint at, and a verifier reads the checkpoint's, which the current size's tiles replaced.
// Full tiles are the same at both sizes.
void add_signed_size_tiles(draft& d, std::vector<std::string> const& entries)
{
    auto const& log = *d.s.log;
    auto const signed_size = log.checkpoint.empty() ? std::nullopt : std::optional(tlog::parse_checkpoint(log.checkpoint));
    if (!signed_size || !*signed_size || (*signed_size)->size >= entries.size())
        return;
    std::uint64_t const size = (*signed_size)->size;
    auto add_partial = [&](tlog::tile_address a, std::uint64_t count, auto const& data) {
        if (count % tlog::tile_width == 0)
            return;
        a.index = count / tlog::tile_width;
        a.width = static_cast<unsigned>(count % tlog::tile_width);
        d.b.add_body(render::resource::log_tile, tlog::tile_path(a), "", *data(a), false);
    };
    add_partial({true}, size, [&](tlog::tile_address const& a) { return tlog::entry_bundle(entries, a); });
    for (unsigned level = 0; (size >> (level * tlog::tile_height)) > 0; ++level)
        add_partial({false, level}, size >> (level * tlog::tile_height),
                    [&](tlog::tile_address const& a) { return tlog::tile_data(log.tree, a); });
}

// The publication log as C2SP tlog-tiles lays it out under /v1/log/: the checkpoint, then for each
// level every full tile (fixed) and the partial one of the current size, and the entry bundles;
// its index, and each entry's version of its sheet (fixed: an entry never changes).
void add_log(draft& d)
{
    auto const& log = *d.s.log;
    d.b.add_body(render::resource::log, "", "", render::to_text(log_index(log, d.s.keys)));
    if (!log.checkpoint.empty())
        d.b.add_body(render::resource::log_checkpoint, "", "", log.checkpoint);
    std::vector<std::string> entries;
    for (std::size_t i = 0; i < log.entries.size(); ++i) {
        auto const& e = log.entries[i];
        entries.push_back(e.entry);
        std::string const index = std::to_string(i);
        d.b.add_body(render::resource::log_signed_bytes, index, "", e.signed_bytes);
        if (!e.signature.empty())
            d.b.add_body(render::resource::log_signature, index, "", e.signature + "\n");
    }
    auto add_tiles = [&](tlog::tile_address a, std::uint64_t count, auto const& data) {
        for (a.index = 0; a.index * tlog::tile_width < count; ++a.index) {
            a.width = static_cast<unsigned>(std::min<std::uint64_t>(tlog::tile_width, count - a.index * tlog::tile_width));
            d.b.add_body(render::resource::log_tile, tlog::tile_path(a), "", *data(a), a.width == tlog::tile_width);
        }
    };
    add_tiles({true}, entries.size(), [&](tlog::tile_address const& a) { return tlog::entry_bundle(entries, a); });
    for (unsigned level = 0; !log.tree.level(level * tlog::tile_height).empty(); ++level)
        add_tiles({false, level}, log.tree.level(level * tlog::tile_height).size(),
                  [&](tlog::tile_address const& a) { return tlog::tile_data(log.tree, a); });
    add_signed_size_tiles(d, entries);
}

// What a week's signature covers and the signature itself, as text for stock tools (openssl,
// base64), read from the sheet, never computed here; and for stock verifiers besides openssl, a
// signify file and the signed bytes as a signed note under the log's origin (Go's sumdb/note),
// when its key is published.
void add_signatures(draft& d, pricing::price_sheet const& sheet)
{
    std::string const week = pricing::to_string(sheet.week);
    bool const closed = d.closed(sheet);
    d.b.add_body(render::resource::signed_bytes, week, "", pricing::signed_bytes(sheet), closed, sheet.published_at);
    if (sheet.signature.empty())
        return;
    d.b.add_body(render::resource::signature, week, "", sheet.signature + "\n", closed, sheet.published_at);
    auto const raw = raw_key(d.s.keys, sheet.key_id);
    auto const signature = tlog::base64_decode(sheet.signature);
    if (!raw || !signature)
        return;
    if (auto sig = tlog::signify_signature(sheet.key_id, sheet.signature))
        d.b.add_body(render::resource::signify_signature, week, "", *sig, closed, sheet.published_at);
    if (auto const origin = log_origin(*d.s.log); !origin.empty()) {
        tlog::note_signer const already{origin, *raw, [&](std::string_view) { return *signature; }};
        d.b.add_body(render::resource::signed_note, week, "", tlog::sign_note(pricing::signed_bytes(sheet), already),
                     closed, sheet.published_at);
    }
}

}
