#pragma once

#include "render/format.hpp"
#include "render/language.hpp"

#include <boost/json/object.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

// The answer of get_log_proof (/v1/log/proof), as JSON and as Markdown: a proof, in RFC 6962's
// hashing, that an entry is in the publication log or that a later log extends an earlier one.
namespace lcg::render {

// What the proof is of: one entry (inclusion) or an earlier size (consistency).
struct log_proof {
    std::string origin;
    std::uint64_t size = 0;
    std::string root_hash;  // base64, of the tree of `size`
    std::optional<std::uint64_t> index;  // inclusion: the entry, its text and leaf hash
    std::string entry;
    std::string leaf_hash;
    std::optional<std::uint64_t> from;  // consistency: the earlier size and its root
    std::string from_root_hash;
    std::vector<std::string> proof;  // base64 hashes, in RFC 6962's order
};

// {"origin", "size", "root_hash", "checkpoint": "/v1/log/checkpoint", "kind": "inclusion" or
//  "consistency", then "index", "entry", "leaf_hash" or "from", "from_root_hash", and "proof": [...],
//  "note", "lang"}.
boost::json::object log_proof_json(log_proof const& p, language lang);
std::string log_proof_markdown(boost::json::object const& proof, links const& to);

}
