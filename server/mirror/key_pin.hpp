#pragma once

#include "server/client/http_client.hpp"

#include "pricing/signing.hpp"

#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace lcg::mirror {

// Trust on first use of an upstream, for a mirror started without --upstream-keys: the first time,
// the origin's /.well-known/lowcostgpu-keys.json is fetched, checked (each key's id is its key's
// hash) and written to `pin_file`; every later start reads the keys from there and never asks the
// origin for them again, so an origin (or whoever sits in between) that changes its keys afterwards
// is refused, sheet by sheet, by the signatures. The first fetch is the moment of trust: it is
// said on `notice`, with the key ids, so that they can be compared with ids got another way.
struct key_pin {
    std::filesystem::path pin_file;
    // Ids given out of band (--upstream-key-id): only those keys are pinned, and each must be among
    // the origin's (or among those pinned before); empty: every key the origin lists.
    std::vector<std::string> expected_ids;
};

// Where a pin for `origin` is kept: under `state_dir` (XDG_STATE_HOME, else ~/.local/state), in
// lowcostgpu/upstream-keys/, one file per origin named by its scheme, host, port and prefix.
std::filesystem::path pin_file_for(client::base_url const& origin, std::filesystem::path const& state_dir);

// The pinned keys: from the pin file when it exists, else fetched from the origin and pinned.
// Throws std::runtime_error naming what was refused (an expected id not among the keys, an
// unreadable keys document or pin file).
pricing::key_ring pinned_keys(client::base_url const& origin, client::limits limits, key_pin const& pin,
                              std::ostream& notice);

}
