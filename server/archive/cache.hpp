#pragma once

// The archive's cache (private to server/archive/): what was read or rendered, kept within a byte
// budget, least recently used first out, under keys that name the publication.
#include "render/format.hpp"

#include "pricing/sheet.hpp"

#include <cstddef>
#include <list>
#include <memory>
#include <string>
#include <unordered_map>

namespace lcg::archive {

// Keyed by the publication (week, inputs_sha256, published_at), so a republished week is read again.
std::string layout_key(pricing::price_sheet const& sheet);
std::string part_key(pricing::price_sheet const& sheet, render::format f, std::size_t seq);
std::string page_key(pricing::price_sheet const& sheet, render::format f, locale::language l);
std::string raw_list_key(pricing::price_sheet const& sheet);
std::string raw_page_key(pricing::price_sheet const& sheet, render::format f, locale::language l);
std::string raw_file_key(pricing::price_sheet const& sheet, std::string const& sha256);

// Not thread-safe: the archive holds its mutex around every call.
class cache {
public:
    using value = std::shared_ptr<const void>;  // a layout, a chunk or part (string), or a page (document)

    explicit cache(std::size_t budget) : budget_(budget) {}

    // The value under `key`, now the most recently used; null when it is not kept.
    value recall(std::string const& key);
    // Keeps `item`, counted as `bytes`, letting the least recently used go to make room; an item
    // over the whole budget is not kept.
    void remember(std::string const& key, value const& item, std::size_t bytes);
    std::size_t bytes() const { return cached_bytes_; }
    std::size_t items() const { return cache_.size(); }

private:
    struct entry {
        value item;
        std::size_t bytes = 0;
        std::list<std::string>::iterator in_order;
    };

    std::size_t budget_;
    std::unordered_map<std::string, entry> cache_;
    std::list<std::string> order_;  // most recently used first
    std::size_t cached_bytes_ = 0;
};

}
