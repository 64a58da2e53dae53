#include "server/mcp_bridge/snapshot_view.hpp"

namespace lcg::mcp_bridge {

glossary::document const* snapshot_view::glossary(glossary::language lang) const
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
    auto fresh = std::make_shared<const entry>(entry{snap.get(), make_server(snap)});
    current_.store(fresh, std::memory_order_release);
    return fresh->server;
}

}
