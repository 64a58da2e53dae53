#pragma once

#include "server/archive/archive.hpp"
#include "server/client/http_client.hpp"
#include "server/mirror/witness.hpp"
#include "server/snapshot/snapshot.hpp"

#include "pricing/calendar.hpp"
#include "pricing/catalog.hpp"
#include "pricing/sheet.hpp"
#include "pricing/signing.hpp"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace lcg::mirror {

struct upstream_options {
    client::base_url origin;
    pricing::key_ring pinned_keys;  // the keys the operator pinned (--upstream-keys): every sheet must verify with them
    client::limits limits;
    std::string public_url;  // the mirror's own (--public-url), for its pages' client configurations
    witness_options witness;  // how it witnesses the upstream's publication log
};

struct signed_lengths;

// One step of following the upstream.
struct refresh_result {
    std::shared_ptr<const snapshot::snapshot> snapshot;
    bool changed = false;  // false: the upstream offered the state accepted last, rebuilt for `now`
};

// Builds snapshots from another instance's public documents instead of PostgreSQL: the catalog
// from /v1/gpus, /v1/regions, /v1/inventory and /v1/sources, the sheets listed by /v1/sheets from
// /v1/sheets/{week}, each checked by check_sheet against its canonical CSV before it is accepted.
// Asks with If-None-Match whether the Atom feed of new sheets (where the upstream has one) and those
// five documents changed (/v1/sheets only when the feed did or is absent); when one did, re-reads every
// sheet and checks again each one whose body differs from the body accepted before. The inputs are
// streamed to check a sheet, never held: the mirror serves them through its archive (inputs_sources).
// Not thread-safe: the follower's thread owns it.
class upstream {
public:
    explicit upstream(upstream_options options);

    // The next snapshot, or an exception (client::fetch_error when the upstream cannot be read,
    // std::runtime_error naming what was refused) with everything kept as accepted last.
    refresh_result refresh(snapshot::snapshot const* previous, pricing::instant now);

    std::string url() const { return options_.origin.to_string(); }

    // Sources of the accepted sheets' inputs, for a mirror's archive: a week's canonical CSV is
    // fetched again on demand, no longer than the signed index accepted last says, spooled to a
    // temporary file (spool) while it is hashed and cut into chunks, and served from there in the
    // chunks it is stored in upstream, only once it hashed to the sheet's inputs_sha256: a mirror
    // never sends a byte its hash has not vouched for. The sources hold the last week they fetched
    // until its last chunk is taken. Safe to call from any thread, and to use after a refresh.
    archive::source_factory inputs_sources() const;

private:
    struct document {
        std::string etag;
        std::string body;
    };
    struct accepted_state {
        std::map<std::string, document, std::less<>> documents;  // the watched documents, by path
        std::map<pricing::iso_week, std::string> sheet_digests;  // the SHA-256 of each sheet's JSON as checked
        pricing::signed_catalog signed_catalog;  // as verified
        pricing::catalog catalog;                // read from it
        std::vector<pricing::price_sheet> sheets;  // oldest first
    };

    std::map<std::string, document, std::less<>> poll(bool& changed) const;
    accepted_state fetch_whole(std::map<std::string, document, std::less<>> documents) const;

    upstream_options options_;
    log_witness witness_;
    std::optional<accepted_state> accepted_;
    std::shared_ptr<signed_lengths> lengths_;  // the accepted index's inputs_bytes, for inputs_sources
};

}
