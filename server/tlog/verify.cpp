#include "server/tlog/verify.hpp"

#include "server/tlog/tiles.hpp"

#include <algorithm>

namespace lcg::tlog {

namespace {

// Every entry of a log of `size`, read from its entry bundles. Each bundle must hold exactly its
// width: entries shifted between bundles are not where a C2SP client looks for them, and a short
// bundle stops the reading there, so that a checkpoint claiming a huge size costs the reader one
// fetch, not one per bundle it claims.
pricing::outcome<std::vector<std::string>> read_entries(log_fetcher const& fetch, std::uint64_t size)
{
    std::vector<std::string> out;
    for (tile_address a{true}; a.index * tile_width < size; ++a.index) {
        a.width = static_cast<unsigned>(std::min<std::uint64_t>(tile_width, size - a.index * tile_width));
        std::string const bundle = fetch("/v1/log/tile/" + tile_path(a));
        std::string_view rest = bundle;
        unsigned held = 0;
        while (rest.size() >= 2 && held < a.width) {
            std::size_t const n = (static_cast<unsigned char>(rest[0]) << 8) | static_cast<unsigned char>(rest[1]);
            if (rest.size() < 2 + n)
                break;
            out.emplace_back(rest.substr(2, n));
            rest.remove_prefix(2 + n);
            ++held;
        }
        if (!rest.empty() || held != a.width)
            return pricing::invalid("the entry bundle " + tile_path(a) + " does not hold exactly its " +
                                    std::to_string(a.width) + " entries (truncated, too long or short)");
    }
    return out;
}

// The raw Ed25519 keys of the ring's keys (a key that is not one is left out).
std::vector<std::string> raw_keys_of(pricing::key_ring const& keys)
{
    std::vector<std::string> out;
    for (auto const& k : keys.keys)
        if (auto raw = raw_public_key(k.public_key_pem))
            out.push_back(std::move(raw).value());
    return out;
}

// The first tile served other than the tree's, if any.
std::optional<std::string> tile_mismatch(log_fetcher const& fetch, merkle_tree const& tree)
{
    for (unsigned level = 0; !tree.level(level * tile_height).empty(); ++level) {
        auto const count = tree.level(level * tile_height).size();
        for (tile_address a{false, level}; a.index * tile_width < count; ++a.index) {
            a.width = static_cast<unsigned>(std::min<std::uint64_t>(tile_width, count - a.index * tile_width));
            if (fetch("/v1/log/tile/" + tile_path(a)) != *tile_data(tree, a))
                return tile_path(a);
        }
    }
    return std::nullopt;
}

}

pricing::outcome<checkpoint> verified_checkpoint(std::string const& note, pricing::key_ring const& keys)
{
    auto c = parse_checkpoint(note);
    if (!c)
        return c;
    for (auto const& raw : raw_keys_of(keys))
        if (signed_by(*c, c->origin, raw))
            return c;
    return pricing::invalid("no published key signed the checkpoint under its origin " + c->origin);
}

std::string origin_signed_note(checkpoint const& c, pricing::key_ring const& keys)
{
    auto const raw_keys = raw_keys_of(keys);
    return note_with(c, [&](note_signature const& s) {
        return std::any_of(raw_keys.begin(), raw_keys.end(),
                           [&](std::string const& raw) { return signs(c, s, c.origin, raw); });
    });
}

pricing::outcome<verified_log> read_log(log_fetcher const& fetch, pricing::key_ring const& keys)
{
    verified_log log;
    log.note = fetch("/v1/log/checkpoint");
    auto c = verified_checkpoint(log.note, keys);
    if (!c)
        return c.err();
    log.signed_checkpoint = *c;
    auto entries = read_entries(fetch, c->size);
    if (!entries)
        return entries.err();
    log.entries = *entries;
    for (auto const& e : log.entries)
        log.tree.append(leaf_hash(e));
    if (log.tree.root(log.tree.size()) != c->root)
        return pricing::invalid("the " + std::to_string(log.entries.size()) +
                                " entries served do not hash to the checkpoint's root");
    if (auto const tile = tile_mismatch(fetch, log.tree))
        return pricing::invalid("the tile " + *tile + " served is not the tree's");
    return log;
}

std::optional<std::string> extension_problem(verified_log const& log, checkpoint const& previous)
{
    auto const& now = log.signed_checkpoint;
    if (previous.origin != now.origin)
        return "the log's origin changed: " + now.origin + ", after " + previous.origin;
    if (previous.size > now.size)
        return "the log shrank: " + std::to_string(now.size) + " entries, after " + std::to_string(previous.size);
    if (previous.size > 0 && log.tree.root(previous.size) != previous.root)
        return "the log forked: its first " + std::to_string(previous.size) +
               " entries are not those of the checkpoint accepted before";
    return std::nullopt;
}

}
