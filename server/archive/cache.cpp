#include "server/archive/cache.hpp"

#include "server/archive/impl.hpp"

#include "locale/language.hpp"

#include "pricing/calendar.hpp"

namespace lcg::archive {

namespace {

// What is cached is keyed by the publication, so a republished week is read again.
std::string publication_key(pricing::price_sheet const& sheet)
{
    return pricing::to_string(sheet.week) + '|' + sheet.inputs_sha256 + '|' +
           std::to_string(sheet.published_at.time_since_epoch().count());
}

}

std::string layout_key(pricing::price_sheet const& sheet) { return publication_key(sheet) + "|layout"; }

std::string part_key(pricing::price_sheet const& sheet, render::format f, std::size_t seq)
{
    return publication_key(sheet) + '|' + std::string(render::media_type(f)) + '|' + std::to_string(seq);
}

std::string page_key(pricing::price_sheet const& sheet, render::format f, locale::language l)
{
    return publication_key(sheet) + '|' + std::string(render::media_type(f)) + '|' + std::string(locale::to_string(l));
}

std::string raw_list_key(pricing::price_sheet const& sheet) { return publication_key(sheet) + "|sources"; }

std::string raw_page_key(pricing::price_sheet const& sheet, render::format f, locale::language l)
{
    return raw_list_key(sheet) + '|' + std::string(render::media_type(f)) + '|' + std::string(locale::to_string(l));
}

std::string raw_file_key(pricing::price_sheet const& sheet, std::string const& sha256)
{
    return raw_list_key(sheet) + "|file|" + sha256;
}

cache::value cache::recall(std::string const& key)
{
    auto it = cache_.find(key);
    if (it == cache_.end())
        return nullptr;
    order_.splice(order_.begin(), order_, it->second.in_order);
    return it->second.item;
}

void cache::remember(std::string const& key, value const& item, std::size_t bytes)
{
    if (bytes > budget_ || cache_.contains(key))
        return;  // served once and let go: it would push everything else out
    while (cached_bytes_ + bytes > budget_ && !order_.empty()) {
        auto const oldest = cache_.find(order_.back());
        cached_bytes_ -= oldest->second.bytes;
        cache_.erase(oldest);
        order_.pop_back();
    }
    order_.push_front(key);
    cache_.emplace(key, entry{item, bytes, order_.begin()});
    cached_bytes_ += bytes;
}

// A week whose CSV is larger than the whole budget is sent and let go, as any item over it: kept
// chunk by chunk it would push everything else out, and be read again all the same next time.
bool archive::impl::worth_keeping(request const& what) const
{
    return what.what != task::chunk_part || what.layout->total_bytes() <= options_.cache_bytes;
}

// The bytes an item holds, as the cache's budget counts them.
std::size_t archive::impl::size_of(task what, value const& item)
{
    switch (what) {
    case task::layout: {
        auto const& layout = *std::static_pointer_cast<const pricing::input_layout>(item);
        return sizeof layout + layout.header.size() + layout.chunk_sizes.size() * sizeof(std::size_t);
    }
    case task::chunk_part: return std::static_pointer_cast<const std::string>(item)->size();
    case task::page:
    case task::raw_page:
    case task::raw_file: {
        auto const& page = *std::static_pointer_cast<const snapshot::document>(item);
        return page.body.size() + page.gzip_body.size();
    }
    case task::raw_list: {
        std::size_t bytes = 0;
        for (auto const& f : *std::static_pointer_cast<const std::vector<pricing::raw_input>>(item))
            bytes += sizeof f + f.source.size() + f.format.size() + f.memory_convention.size() + f.sha256.size() +
                     f.mapping_sha256.size();
        return bytes;
    }
    }
    return 0;
}

}
