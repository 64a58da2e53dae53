#include "server/tlog/merkle.hpp"

#include <openssl/sha.h>

#include <bit>
#include <stdexcept>

namespace lcg::tlog {

namespace {

hash sha256(std::span<const unsigned char> bytes)
{
    hash out{};
    SHA256(bytes.data(), bytes.size(), out.data());
    return out;
}

// The largest power of two below n (n ≥ 2): where RFC 6962 splits a tree of n leaves.
std::uint64_t split_of(std::uint64_t n) { return std::bit_floor(n - 1); }

// RFC 9162's step of both verifiers: climb past the levels where the node is a left child with no
// sibling (right-shift fn and sn until fn is odd or 0).
void skip_left_edges(std::uint64_t& fn, std::uint64_t& sn)
{
    while ((fn & 1) == 0 && fn != 0) {
        fn >>= 1;
        sn >>= 1;
    }
}

}

hash leaf_hash(std::string_view entry)
{
    std::vector<unsigned char> bytes(entry.size() + 1, 0x00);
    std::copy(entry.begin(), entry.end(), bytes.begin() + 1);
    return sha256(bytes);
}

hash node_hash(hash const& left, hash const& right)
{
    std::array<unsigned char, 65> bytes{0x01};
    std::copy(left.begin(), left.end(), bytes.begin() + 1);
    std::copy(right.begin(), right.end(), bytes.begin() + 33);
    return sha256(bytes);
}

merkle_tree::merkle_tree(std::span<const hash> leaves)
{
    for (auto const& leaf : leaves)
        append(leaf);
}

void merkle_tree::append(hash const& leaf)
{
    if (levels_.empty())
        levels_.emplace_back();
    levels_[0].push_back(leaf);
    // Each level gains a complete subtree whenever the one below completes a pair.
    for (std::size_t k = 0; levels_[k].size() % 2 == 0; ++k) {
        if (levels_.size() == k + 1)
            levels_.emplace_back();
        auto const& below = levels_[k];
        levels_[k + 1].push_back(node_hash(below[below.size() - 2], below.back()));
    }
}

std::span<const hash> merkle_tree::level(std::size_t k) const
{
    return k < levels_.size() ? std::span<const hash>(levels_[k]) : std::span<const hash>();
}

// MTH(D[from:to]); `from` is always a multiple of the largest power of two ≤ to - from, so every
// complete run is a stored subtree.
hash merkle_tree::range(std::uint64_t from, std::uint64_t to) const
{
    std::uint64_t const n = to - from;
    if (n == 0)
        return sha256({});
    if (std::has_single_bit(n)) {
        auto const k = static_cast<std::size_t>(std::countr_zero(n));
        return levels_[k][from >> k];
    }
    std::uint64_t const k = split_of(n);
    return node_hash(range(from, from + k), range(from + k, to));
}

hash merkle_tree::root(std::uint64_t size) const
{
    if (size > this->size())
        throw std::out_of_range("a root past the log's size");
    return range(0, size);
}

void merkle_tree::path(std::uint64_t index, std::uint64_t from, std::uint64_t to, std::vector<hash>& out) const
{
    if (to - from <= 1)
        return;
    std::uint64_t const k = split_of(to - from);
    if (index < from + k) {
        path(index, from, from + k, out);
        out.push_back(range(from + k, to));
    } else {
        path(index, from + k, to, out);
        out.push_back(range(from, from + k));
    }
}

std::vector<hash> merkle_tree::inclusion_proof(std::uint64_t index, std::uint64_t size) const
{
    if (index >= size || size > this->size())
        throw std::out_of_range("an inclusion proof outside the log");
    std::vector<hash> out;
    path(index, 0, size, out);
    return out;
}

void merkle_tree::subproof(std::uint64_t m, std::uint64_t from, std::uint64_t to, bool whole,
                           std::vector<hash>& out) const
{
    std::uint64_t const n = to - from;
    if (m == n) {
        if (!whole)
            out.push_back(range(from, to));
        return;
    }
    std::uint64_t const k = split_of(n);
    if (m <= k) {
        subproof(m, from, from + k, whole, out);
        out.push_back(range(from + k, to));
    } else {
        subproof(m - k, from + k, to, false, out);
        out.push_back(range(from, from + k));
    }
}

std::vector<hash> merkle_tree::consistency_proof(std::uint64_t old_size, std::uint64_t new_size) const
{
    if (old_size == 0 || old_size > new_size || new_size > size())
        throw std::out_of_range("a consistency proof outside the log");
    std::vector<hash> out;
    subproof(old_size, 0, new_size, true, out);
    return out;
}

bool verify_inclusion(hash const& leaf, std::uint64_t index, std::uint64_t size, std::span<const hash> proof,
                      hash const& root)
{
    if (index >= size)
        return false;
    std::uint64_t fn = index, sn = size - 1;
    hash r = leaf;
    for (auto const& p : proof) {
        if (sn == 0)
            return false;
        if ((fn & 1) != 0 || fn == sn) {
            r = node_hash(p, r);
            skip_left_edges(fn, sn);
        } else {
            r = node_hash(r, p);
        }
        fn >>= 1;
        sn >>= 1;
    }
    return sn == 0 && r == root;
}

bool verify_consistency(std::uint64_t old_size, std::uint64_t new_size, hash const& old_root, hash const& new_root,
                        std::span<const hash> proof)
{
    if (old_size == 0 || old_size > new_size)
        return false;
    if (old_size == new_size)
        return proof.empty() && old_root == new_root;
    std::vector<hash> path;
    // A power-of-two old tree is itself a node of the new one, which the proof leaves out.
    if (std::has_single_bit(old_size))
        path.push_back(old_root);
    path.insert(path.end(), proof.begin(), proof.end());
    if (path.empty())
        return false;
    std::uint64_t fn = old_size - 1, sn = new_size - 1;
    while ((fn & 1) != 0) {
        fn >>= 1;
        sn >>= 1;
    }
    hash fr = path.front(), sr = path.front();
    for (std::size_t i = 1; i < path.size(); ++i) {
        auto const& c = path[i];
        if (sn == 0)
            return false;
        if ((fn & 1) != 0 || fn == sn) {
            fr = node_hash(c, fr);
            sr = node_hash(c, sr);
            skip_left_edges(fn, sn);
        } else {
            sr = node_hash(sr, c);
        }
        fn >>= 1;
        sn >>= 1;
    }
    return fr == old_root && sr == new_root && sn == 0;
}

}
