#include "server/mcp_bridge/snapshot_view.hpp"

#include "server/tlog/note.hpp"

namespace lcg::mcp_bridge {

glossary::document const* snapshot_view::glossary(locale::language lang) const
{
    return snap_->glossary ? &snap_->glossary->in(lang) : nullptr;
}

std::optional<api::document_ref> snapshot_view::document(std::string_view path) const
{
    auto const doc = snap_->find_document(path);
    if (!doc)
        return std::nullopt;
    // The snapshot owns the document, and the view owns the snapshot or borrows it for a request.
    std::string_view const type = doc->content_type;
    return api::document_ref{type.substr(0, type.find(';')), doc->body};
}

mcp::implementation server_identity() { return {"lowcostgpu", "LowCostGPU pricing", LCG_VERSION}; }

mcp::card_identity registry_identity()
{
    return {"io.github.lowcostgpu/pricing",
            "Weekly GPU-hour prices, job cost estimates, model sizing and GPU comparisons from LowCostGPU"};
}

std::shared_ptr<const mcp::server> make_server(std::shared_ptr<const snapshot::snapshot> snap)
{
    return std::make_shared<const mcp::server>(std::make_shared<const snapshot_view>(std::move(snap)),
                                               server_identity());
}

std::shared_ptr<const mcp::server> server_cache::get(std::shared_ptr<const snapshot::snapshot> const& snap)
{
    auto const cached = current_.load(std::memory_order_acquire);
    if (cached && cached->key == snap.get())
        return cached->server;
    // Two threads may build for the same new snapshot at once; either result serves.
    auto fresh = std::make_shared<entry>();
    fresh->key = snap.get();
    fresh->server = make_server(snap);
    current_.store(fresh, std::memory_order_release);
    return fresh->server;
}

std::shared_ptr<const snapshot::deflated> server_cache::deflated(std::shared_ptr<const mcp::server> const& server,
                                                                  std::string_view lasting_end)
{
    constexpr std::size_t most = 8;  // twice what a server keeps
    auto const cached = current_.load(std::memory_order_acquire);
    if (!cached || cached->server != server || lasting_end.empty())
        return nullptr;
    auto const find = [&]() -> std::shared_ptr<const snapshot::deflated> {
        for (auto const& [text, made] : cached->deflated_ends)
            if (text == lasting_end.data() && made->size == lasting_end.size())
                return made;
        return nullptr;
    };
    {
        std::lock_guard const lock(cached->mutex);
        if (auto found = find())
            return found;
        if (cached->deflated_ends.size() >= most)
            return nullptr;
    }
    // Compressed outside the lock, so that other loops' replies are not held behind it; two
    // requests may compress the same text at once, and the first stored is the one kept.
    auto made = std::make_shared<const snapshot::deflated>(snapshot::deflate_once(lasting_end));
    std::lock_guard const lock(cached->mutex);
    if (auto found = find())
        return found;
    if (cached->deflated_ends.size() >= most)
        return nullptr;
    cached->deflated_ends.emplace_back(lasting_end.data(), made);
    return made;
}

namespace {

std::string base64_of(tlog::hash const& h)
{
    return tlog::base64_encode(std::string_view(reinterpret_cast<char const*>(h.data()), h.size()));
}

std::vector<std::string> base64_all(std::vector<tlog::hash> const& hashes)
{
    std::vector<std::string> out;
    for (auto const& h : hashes)
        out.push_back(base64_of(h));
    return out;
}

}

std::uint64_t snapshot_view::tree_view::size() const { return snap_->log->tree.size(); }

std::string snapshot_view::tree_view::origin() const
{
    return std::string(tlog::origin_of(snap_->log->checkpoint));
}

std::string snapshot_view::tree_view::entry(std::uint64_t index) const { return snap_->log->entries.at(index).entry; }

std::string snapshot_view::tree_view::leaf_hash(std::uint64_t index) const
{
    return base64_of(snap_->log->tree.level(0)[index]);
}

std::string snapshot_view::tree_view::root_hash(std::uint64_t size) const { return base64_of(snap_->log->tree.root(size)); }

std::vector<std::string> snapshot_view::tree_view::inclusion_proof(std::uint64_t index, std::uint64_t size) const
{
    return base64_all(snap_->log->tree.inclusion_proof(index, size));
}

std::vector<std::string> snapshot_view::tree_view::consistency_proof(std::uint64_t old_size, std::uint64_t size) const
{
    return base64_all(snap_->log->tree.consistency_proof(old_size, size));
}

}
