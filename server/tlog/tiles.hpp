#pragma once

#include "server/tlog/merkle.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// The log as C2SP tlog-tiles publishes it (https://c2sp.org/tlog-tiles): tiles of hashes and
// bundles of entries at fixed paths, each immutable once full, so any web cache serves them and any
// verifier reads the tree without asking the server to compute a proof.
namespace lcg::tlog {

inline constexpr unsigned tile_height = 8;      // the spec fixes it
inline constexpr unsigned tile_width = 1u << tile_height;  // hashes (or entries) in a full tile
inline constexpr std::size_t max_entry_bytes = 0xffff;     // an entry bundle's length prefix

// A tile or an entry bundle, as its path names it: "<L>/<N>[.p/<W>]" or "entries/<N>[.p/<W>]".
struct tile_address {
    bool entries = false;
    unsigned level = 0;      // of tiles: the tile level, holding tree level level * tile_height
    std::uint64_t index = 0;
    unsigned width = tile_width;  // < tile_width: a partial tile
    bool operator==(tile_address const&) const = default;
};

// The address of a path below ".../tile/", or nothing unless it is exactly the canonical spelling
// (three-digit groups, "x" on all but the last, no leading zeros in L or W, 0 < W < 256).
std::optional<tile_address> parse_tile_path(std::string_view path);
std::string tile_path(tile_address const& a);

// The tile's bytes (width hashes of 32 bytes), or nothing when the log is too small to have it.
std::optional<std::string> tile_data(merkle_tree const& tree, tile_address const& a);
// The entry bundle's bytes (each entry after its big-endian uint16 length), or nothing when the
// log is too small to have it.
std::optional<std::string> entry_bundle(std::vector<std::string> const& entries, tile_address const& a);

}
