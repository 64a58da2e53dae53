#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

// The Merkle tree of the transparency log of publications (DESIGN §10), hashed as RFC 6962 §2.1
// says, so that stock verifiers (Go's golang.org/x/mod/sumdb/tlog among them) check its proofs.
namespace lcg::tlog {

using hash = std::array<unsigned char, 32>;

// SHA-256(0x00 || entry): the hash of a leaf, from the entry's exact bytes.
hash leaf_hash(std::string_view entry);
// SHA-256(0x01 || left || right): the hash of an interior node.
hash node_hash(hash const& left, hash const& right);

// A log's leaves and the hashes of all its complete subtrees, level by level: level k holds the
// hash of every aligned run of 2^k leaves. Those are the hashes tiles publish, and with them any
// root or proof of any earlier size takes O(log n) hashes, never a pass over the leaves.
class merkle_tree {
public:
    merkle_tree() = default;
    explicit merkle_tree(std::span<const hash> leaves);

    void append(hash const& leaf);
    std::uint64_t size() const { return levels_.empty() ? 0 : levels_.front().size(); }

    // The complete subtrees of a level, in order (level 0: the leaf hashes).
    std::span<const hash> level(std::size_t k) const;

    // The root of the tree of the first `size` leaves (≤ size()); SHA-256 of nothing when 0.
    hash root(std::uint64_t size) const;
    // RFC 6962 §2.1.1 audit path of leaf `index` in the tree of `size` leaves (index < size ≤ size()).
    std::vector<hash> inclusion_proof(std::uint64_t index, std::uint64_t size) const;
    // RFC 6962 §2.1.2 proof that the tree of `old_size` leaves is a prefix of that of `new_size`
    // (0 < old_size ≤ new_size ≤ size()).
    std::vector<hash> consistency_proof(std::uint64_t old_size, std::uint64_t new_size) const;

private:
    hash range(std::uint64_t from, std::uint64_t to) const;
    void path(std::uint64_t index, std::uint64_t from, std::uint64_t to, std::vector<hash>& out) const;
    void subproof(std::uint64_t m, std::uint64_t from, std::uint64_t to, bool whole, std::vector<hash>& out) const;

    std::vector<std::vector<hash>> levels_;
};

// RFC 9162 §2.1.3.2: does `proof` show leaf `index` with hash `leaf` in the tree of `size` and `root`?
bool verify_inclusion(hash const& leaf, std::uint64_t index, std::uint64_t size, std::span<const hash> proof,
                      hash const& root);
// RFC 9162 §2.1.4.2: does `proof` show the tree (old_size, old_root) a prefix of (new_size, new_root)?
bool verify_consistency(std::uint64_t old_size, std::uint64_t new_size, hash const& old_root, hash const& new_root,
                        std::span<const hash> proof);

}
