#pragma once

#include "server/audit/catalog.hpp"
#include "server/tlog/entry.hpp"

#include "pricing/signing.hpp"

#include <map>
#include <optional>
#include <ostream>
#include <string>

namespace lcg::audit {

// What audit_log found: ok, and the checkpoint it verified (to keep for the next audit).
struct log_audit {
    bool ok = false;
    std::string checkpoint;
    bool read = false;  // the log's entries could be read and parsed, whether or not they pass
    std::map<std::string, tlog::log_entry> newest;  // per week: the entry logged last
};

// Whether a service's publication log (DESIGN §10) holds, from its public documents alone:
//  - /v1/log/checkpoint is a signed note by one of `keys` under the log's origin;
//  - each entry bundle holds exactly its width in entries, each well formed, and they hash (RFC 6962)
//    to its root; every tile served is the tree's own;
//  - each week's sheet as served (/v1/sheets/{week}/signed.txt) is the version its newest entry logs,
//    whose week, published_at and inputs_sha256 are those its signed bytes give;
//  - given `previous`, a checkpoint accepted before, the log extends it: same origin, no smaller,
//    and the same root at its size (no entry dropped or rewritten, no fork).
// Each entry is reported, a late publication with how late it was (pricing::publication_delay).
log_audit audit_log(fetcher const& fetch, pricing::key_ring const& keys, std::optional<std::string> const& previous,
                    std::ostream& report);

}
