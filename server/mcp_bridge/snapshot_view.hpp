#pragma once

#include "server/snapshot/gzip.hpp"
#include "server/snapshot/snapshot.hpp"

#include "api/data_view.hpp"
#include "mcp/server.hpp"
#include "mcp/server_card.hpp"

#include <atomic>
#include <memory>
#include <mutex>
#include <string_view>
#include <utility>
#include <vector>

// The MCP core over the server's snapshot: the data view it reads, and one mcp::server per snapshot.
namespace lcg::mcp_bridge {

// A data_view over one snapshot, which it keeps alive (or, for one request, borrows). JSON documents are the snapshot's own, so an
// MCP resource and the HTTP endpoint of the same path serve the same bytes.
class snapshot_view final : public api::data_view {
public:
    explicit snapshot_view(std::shared_ptr<const snapshot::snapshot> snap) : owner_(std::move(snap)), snap_(owner_.get()) {}
    // A view that does not keep `snap` alive: for one HTTP request, whose context already does.
    explicit snapshot_view(snapshot::snapshot const& snap) : snap_(&snap) {}
    explicit snapshot_view(snapshot::snapshot const&&) = delete;  // a temporary would dangle

    pricing::catalog const& catalog() const override { return snap_->catalog; }
    pricing::price_sheet const* current_sheet() const override { return snap_->current; }
    std::span<const pricing::price_sheet> sheets() const override { return snap_->sheets; }
    glossary::document const* glossary(locale::language lang) const override;
    std::string_view glossary_problem() const override { return snap_->glossary_problem; }
    std::optional<api::document_ref> document(std::string_view path) const override;
    api::log_view const* log() const override { return &log_; }
    pricing::publication_record const* publication(pricing::iso_week week) const override
    {
        return snap_->find_publication(week);
    }

private:
    // The snapshot's publication log for the proofs.
    class tree_view final : public api::log_view {
    public:
        explicit tree_view(snapshot::snapshot const* snap) : snap_(snap) {}
        std::uint64_t size() const override;
        std::string origin() const override;
        std::string entry(std::uint64_t index) const override;
        std::string leaf_hash(std::uint64_t index) const override;
        std::string root_hash(std::uint64_t size) const override;
        std::vector<std::string> inclusion_proof(std::uint64_t index, std::uint64_t size) const override;
        std::vector<std::string> consistency_proof(std::uint64_t old_size, std::uint64_t size) const override;

    private:
        snapshot::snapshot const* snap_;
    };

    std::shared_ptr<const snapshot::snapshot> owner_;  // empty for a request's view
    snapshot::snapshot const* snap_;
    tree_view log_{snap_};
};

// Who this server says it is (serverInfo).
mcp::implementation server_identity();

// What its server card adds: the name and description under which deploy/server.json lists it in
// the MCP registry (a test holds the two files to the same values).
mcp::card_identity registry_identity();

// An mcp::server for `snap` (which must not be null).
std::shared_ptr<const mcp::server> make_server(std::shared_ptr<const snapshot::snapshot> snap);

// The mcp::server of the snapshot in force, built once per snapshot and shared by every request on
// it (it pre-renders what does not depend on the request). Safe from any thread.
class server_cache {
public:
    std::shared_ptr<const mcp::server> get(std::shared_ptr<const snapshot::snapshot> const& snap);

    // The text a reply of `server` ends with (mcp::reply::lasting_end), deflated for a gzip body:
    // once per text and snapshot, by the first request that asks. Null unless `server` is the one
    // get() gives now (a request begun on the snapshot before is then sent without gzip).
    std::shared_ptr<const snapshot::deflated> deflated(std::shared_ptr<const mcp::server> const& server,
                                                       std::string_view lasting_end);

private:
    struct entry {
        snapshot::snapshot const* key = nullptr;
        std::shared_ptr<const mcp::server> server;
        // The server keeps four such texts (the tool list and the default get_prices result, in
        // each era), so a short list searched under a lock serves.
        std::mutex mutex;
        std::vector<std::pair<char const*, std::shared_ptr<const snapshot::deflated>>> deflated_ends;
    };
    std::atomic<std::shared_ptr<entry>> current_;
};

}
