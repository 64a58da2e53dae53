#pragma once

#include "pricing/calendar.hpp"
#include "pricing/catalog.hpp"
#include "pricing/sheet.hpp"

#include <atomic>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace lcg::snapshot {

// A response body rendered once, when the snapshot is built, with its strong validator.
struct document {
    std::string content_type;
    std::string body;
    std::string etag;  // quoted, strong
};

// Everything the server answers from: immutable once built, shared by every request. A new one
// replaces it whole, so a reader sees either the old state or the new one, never a mix.
struct snapshot {
    pricing::catalog catalog;
    std::vector<pricing::price_sheet> sheets;  // oldest first
    pricing::price_sheet const* current = nullptr;  // the newest sheet already in effect
    pricing::instant built_at;
    std::map<std::string, document, std::less<>> documents;  // by request path

    document const* find_document(std::string_view path) const;
    pricing::price_sheet const* find_sheet(pricing::iso_week week) const;
};

// Builds a snapshot and pre-renders its documents. `now` picks the current sheet.
std::shared_ptr<const snapshot> build(pricing::catalog catalog, std::vector<pricing::price_sheet> sheets,
                                      pricing::instant now);

// The one mutable cell: request handlers load, the refresher stores.
class holder {
public:
    std::shared_ptr<const snapshot> get() const { return current_.load(std::memory_order_acquire); }
    void set(std::shared_ptr<const snapshot> next) { current_.store(std::move(next), std::memory_order_release); }

private:
    std::atomic<std::shared_ptr<const snapshot>> current_;
};

}
