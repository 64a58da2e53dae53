#pragma once

#include "pricing/outcome.hpp"
#include "pricing/signing.hpp"
#include "server/tlog/merkle.hpp"
#include "server/tlog/note.hpp"

#include <functional>
#include <optional>
#include <string>
#include <vector>

// Reading another instance's publication log from its public documents and checking it, as an
// auditor and a mirror (a witness) do.
namespace lcg::tlog {

// GET a path of the instance ("/v1/log/checkpoint"): the body, or an exception.
using log_fetcher = std::function<std::string(std::string const& path)>;

struct verified_log {
    std::string note;  // the checkpoint as served
    checkpoint signed_checkpoint;
    std::vector<std::string> entries;
    merkle_tree tree;
};

// A checkpoint signed under its origin by one of `keys` (Ed25519 public keys), or why not.
pricing::outcome<checkpoint> verified_checkpoint(std::string const& note, pricing::key_ring const& keys);

// The checkpoint with only the signature lines that verify under its origin with one of `keys`:
// what a mirror re-serves, since a line it cannot verify (another witness's cosignature, anything
// an upstream adds) is not its to pass on.
std::string origin_signed_note(checkpoint const& c, pricing::key_ring const& keys);

// The log at its checkpoint: signed by one of `keys`; its entry bundles hold exactly its size in
// entries and hash to its root; each tile served is the tree's own. The error says what failed.
pricing::outcome<verified_log> read_log(log_fetcher const& fetch, pricing::key_ring const& keys);

// Why `log` does not extend `previous`, a checkpoint accepted before (another origin, fewer
// entries: the log shrank; another root at that size: it forked or an entry was rewritten), or
// nothing when it does.
std::optional<std::string> extension_problem(verified_log const& log, checkpoint const& previous);

}
