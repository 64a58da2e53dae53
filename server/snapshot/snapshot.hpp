#pragma once

#include "render/format.hpp"
#include "server/tlog/entry.hpp"
#include "server/tlog/merkle.hpp"

#include "glossary/glossary.hpp"

#include "pricing/calendar.hpp"
#include "pricing/catalog.hpp"
#include "pricing/sheet.hpp"
#include "pricing/signing.hpp"

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace lcg::snapshot {

// A response body rendered once, when the snapshot is built, with its strong validator, the time
// its data last changed and a gzip copy.
struct document {
    std::string content_type;
    std::string body;
    std::string etag;  // quoted, strong
    bool immutable = false;  // a past sheet never changes
    pricing::instant last_modified{};
    std::string gzip_body;  // empty when compressing would not save bytes
    std::string gzip_etag;  // the etag with "-gz" inside the quotes
    // Written in every language: this document is one language's (the one its key names, English
    // without lang=), or is the same in all of them (JSON without prose, CSV). False for what is
    // written once (the audit inputs, signatures, keys, OpenAPI).
    bool translated = false;
};

// A document with its validators and its gzip copy.
std::shared_ptr<const document> make_document(std::string content_type, std::string body, bool immutable,
                                              pricing::instant last_modified, bool translated = false);

// The key of a resource's document in one format: the URL that names that format, so "/v1/prices"
// (JSON), "/v1/prices.md", "/v1/glossary.html?lang=fr", "/index.md", "/llms.txt".
std::string document_key(std::string_view path, render::format f, std::string_view query = {});

// The publication log as served (DESIGN §10, /v1/log/): each entry's text and the version of its
// sheet it logged (signed bytes, key, signature), the Merkle tree of the entries, and the newest
// signed checkpoint ("" when none was signed yet).
struct publication_log {
    std::vector<tlog::logged_version> entries;
    std::vector<std::optional<tlog::log_entry>> parsed;  // each entry read once; nothing when malformed
    tlog::merkle_tree tree;
    std::string checkpoint;
};
// The log of `entries`, its tree built.
std::shared_ptr<const publication_log> make_log(std::vector<tlog::logged_version> entries, std::string checkpoint);

// Everything the server answers from: immutable once built, shared by every request. A new one
// replaces it whole, so a reader sees either the old state or the new one, never a mix.
struct snapshot {
    pricing::catalog catalog;
    std::vector<pricing::price_sheet> sheets;  // oldest first
    pricing::price_sheet const* current = nullptr;  // the newest sheet already in effect
    pricing::instant built_at;
    pricing::key_ring keys;  // the public keys the server publishes (instance_facts)
    std::string public_url;  // where clients reach it (instance_facts); empty when not configured
    // The newest signed /v1/catalog document, as signed (it may describe an older catalog than
    // `catalog` when the catalog changed since it was last signed); empty when never signed.
    std::optional<pricing::signed_catalog> signed_catalog;
    std::shared_ptr<const publication_log> log;  // never null once built (empty when nothing was logged)
    // Each logged week's versions, from the log: a sheet's `publication` member.
    std::map<pricing::iso_week, pricing::publication_record> publications;
    // By document_key. Shared, so a rebuild reuses the documents that did not change (and their
    // rendering in every format): Last-Modified stays that of the first snapshot that had them.
    std::map<std::string, std::shared_ptr<const document>, std::less<>> documents;
    // The glossary with the figures of `current`, both languages; its unfiltered documents are under
    // "/v1/glossary?lang=en" and "/v1/glossary/{term}?lang=en" (and fr). Empty, with the reason in
    // glossary_problem, when it cannot be resolved (no sheet in effect, a quoted model unpriced).
    std::optional<glossary::content> glossary;
    std::string glossary_problem;

    std::shared_ptr<const document> find_document(std::string_view path) const;  // by key: JSON without suffix
    std::shared_ptr<const document> find_document(std::string_view path, render::format f,
                                                  std::string_view query = {}) const;
    pricing::price_sheet const* find_sheet(pricing::iso_week week) const;
    pricing::publication_record const* find_publication(pricing::iso_week week) const;
};

// What an instance says of itself in every snapshot it builds: the public keys its sheets verify
// with (serve --public-keys, or the keys a mirror pinned), published at
// /.well-known/lowcostgpu-keys.json and in the methodology, and the URL its clients reach it at
// (--public-url), which the home page and llms.txt put in their client configurations (a
// placeholder when empty).
struct instance_facts {
    pricing::key_ring keys;
    std::string public_url;
};

// Builds a snapshot and pre-renders its documents. `now` picks the current sheet. A sheet's inputs
// (its observations) are not in it: server/archive reads them on demand, so neither the snapshot's
// size nor its build time grows with the archive of past weeks. Signatures are only read here: they
// were computed when each sheet was published, and when the catalog was (`signed_catalog`).
std::shared_ptr<const snapshot> build(pricing::catalog catalog, std::vector<pricing::price_sheet> sheets,
                                      snapshot const* previous,
                                      pricing::instant now, instance_facts self = {},
                                      std::optional<pricing::signed_catalog> signed_catalog = std::nullopt,
                                      std::shared_ptr<const publication_log> log = nullptr);

// How a mirror (`serve --upstream`) is following its upstream: /readyz shows it. After a refusal
// the snapshot in force is the last good one, as old as accepted_at says.
struct upstream_status {
    std::string url;
    bool refused = false;             // the last state the upstream offered was refused
    std::string detail;               // why, when refused
    pricing::instant checked_at{};    // the last attempt
    std::optional<pricing::instant> accepted_at;  // the last state fetched and checked whole
};

// The mutable cells: request handlers load, the refresher (or a mirror's follower) stores, with the
// instant the database last answered it (what /readyz measures).
class holder {
public:
    std::shared_ptr<const snapshot> get() const { return current_.load(std::memory_order_acquire); }
    void set(std::shared_ptr<const snapshot> next) { current_.store(std::move(next), std::memory_order_release); }
    // Null unless the snapshot comes from an upstream.
    std::shared_ptr<const upstream_status> upstream() const { return upstream_.load(std::memory_order_acquire); }
    void set_upstream(std::shared_ptr<const upstream_status> s) { upstream_.store(std::move(s), std::memory_order_release); }

    void mark_checked(pricing::instant t) { checked_at_.store(t.time_since_epoch().count(), std::memory_order_release); }
    std::optional<pricing::instant> checked_at() const
    {
        auto const s = checked_at_.load(std::memory_order_acquire);
        return s < 0 ? std::nullopt : std::optional(pricing::instant(std::chrono::seconds(s)));
    }

private:
    std::atomic<std::shared_ptr<const snapshot>> current_;
    std::atomic<std::int64_t> checked_at_{-1};  // seconds since the epoch; -1: never
    std::atomic<std::shared_ptr<const upstream_status>> upstream_;
};

}
