#pragma once

#include "server/client/http_client.hpp"
#include "server/snapshot/snapshot.hpp"
#include "server/tlog/note.hpp"

#include "pricing/sheet.hpp"
#include "pricing/signing.hpp"

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace lcg::mirror {

// What makes a mirror a witness of its upstream's publication log (DESIGN §10).
struct witness_options {
    // Where the checkpoint accepted last is kept across restarts (--witness-checkpoint); none: in
    // memory only, for the process's life.
    std::optional<std::filesystem::path> checkpoint_file;
    // The mirror's own key and name (--witness-key, --witness-name): with it, the checkpoint the
    // mirror serves carries its C2SP cosignature beside the origin's signature.
    std::optional<tlog::note_signer> cosigner;
};

// Follows the upstream's log: reads it whenever its checkpoint changes, checks it with the pinned
// keys (tlog::read_log), refuses a checkpoint that does not extend the one accepted last (a log
// that forked, shrank or rewrote an entry), fetches each new entry's version of its sheet and
// checks it against the entry, and serves the log with its own cosignature. Not thread-safe: the
// follower's thread owns it, through the upstream.
class log_witness {
public:
    explicit log_witness(witness_options options);

    // The log to serve, or the one accepted last when the checkpoint did not change. Throws
    // std::runtime_error naming a refusal; an upstream that never had a log serves none.
    std::shared_ptr<const snapshot::publication_log> follow(client::base_url const& origin, client::limits const& limits,
                                                            pricing::key_ring const& keys, pricing::instant now);
    // Throws unless every sheet is the version the log's newest entry of its week names.
    void check_sheets(std::vector<pricing::price_sheet> const& sheets) const;

private:
    witness_options options_;
    std::optional<tlog::checkpoint> accepted_;  // the largest consistent checkpoint seen
    std::string accepted_note_;
    std::shared_ptr<const snapshot::publication_log> served_;
};

}
