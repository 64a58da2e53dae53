#pragma once

#include <filesystem>
#include <string>
#include <string_view>

// A small file of state a process keeps between runs (a mirror's pinned keys, a witness's or an
// auditor's accepted checkpoint), read whole and written whole or not at all.
namespace lcg::ops {

// The file's bytes (at most rules::max_signed_document_bytes: a state file is a signed note or a key
// list); std::runtime_error naming it as `what` ("the pinned keys") when it cannot be read.
std::string read_state(std::filesystem::path const& file, std::string_view what);

// Written to a file of this process's beside it, on the disk before it is renamed over it (its
// folder made if need be): a crash, a power cut or a full disk leaves the previous state whole, and
// no temporary file behind. std::runtime_error naming `what` when it cannot be written.
void write_state(std::filesystem::path const& file, std::string const& bytes, std::string_view what);

}
