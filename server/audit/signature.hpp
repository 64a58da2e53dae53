#pragma once

#include "pricing/signing.hpp"

#include <boost/json/object.hpp>

#include <ostream>

namespace lcg::audit {

// The signed items of a published sheet, read from its JSON document (the strings as published).
// Throws std::runtime_error naming a missing or malformed member.
pricing::signed_content signed_content_from_json(boost::json::object const& sheet);

// Checks a published sheet's Ed25519 signature: rebuilds its signed bytes from the JSON, and
// verifies its `signature` with the key its `key_id` names in `keys`, valid at its published_at.
// Writes one report line saying what passed or what failed; true if the signature verifies.
bool check_signature(boost::json::object const& sheet, pricing::key_ring const& keys, std::ostream& report);

}
