#include "server/archive/archive.hpp"

#include "server/archive/impl.hpp"

namespace lcg::archive {

archive::archive(options o, source_factory make_source) : impl_(std::make_unique<impl>(o, make_source)) {}

archive::~archive() { stop(); }

void archive::stop() { impl_->stop(); }

std::shared_ptr<const snapshot::document> archive::impl::cached_document(std::string const& key)
{
    std::lock_guard lock(mutex_);
    auto page = std::static_pointer_cast<const snapshot::document>(cache_.recall(key));
    ++(page ? figures_.hits : figures_.misses);
    return page;
}

void archive::impl::fetch_document(std::string const& key, request const& what, completion done,
                                   std::string const& reader)
{
    obtain(key, what, [done = std::move(done)](value_result r) {
        if (!r)
            return done(r.err());
        done(std::static_pointer_cast<const snapshot::document>(*r));
    }, std::nullopt, reader);
}

std::shared_ptr<const snapshot::document> archive::cached(pricing::price_sheet const& sheet, render::format f,
                                                         locale::language l)
{
    return impl_->cached_document(page_key(sheet, f, l));
}

std::shared_ptr<const snapshot::document> archive::cached_raw_inputs(pricing::price_sheet const& sheet,
                                                                    render::format f, locale::language l)
{
    return impl_->cached_document(raw_page_key(sheet, f, l));
}

std::shared_ptr<const snapshot::document> archive::cached_raw_file(pricing::price_sheet const& sheet,
                                                                  std::string const& sha256)
{
    return impl_->cached_document(raw_file_key(sheet, sha256));
}

void archive::fetch(pricing::price_sheet const& sheet, render::format f, locale::language l, completion done,
                    std::string const& reader)
{
    impl_->fetch_document(page_key(sheet, f, l), {impl::task::page, sheet, f, l}, std::move(done), reader);
}

void archive::fetch_raw_inputs(pricing::price_sheet const& sheet, render::format f, locale::language l,
                               completion done, std::string const& reader)
{
    impl_->fetch_document(raw_page_key(sheet, f, l), {impl::task::raw_page, sheet, f, l}, std::move(done), reader);
}

void archive::fetch_raw_file(pricing::price_sheet const& sheet, std::string const& sha256, completion done,
                             std::string const& reader)
{
    impl::request what{impl::task::raw_file, sheet};
    what.sha256 = sha256;
    impl_->fetch_document(raw_file_key(sheet, sha256), what, std::move(done), reader);
}

archive::figures archive::measure() const
{
    std::lock_guard lock(impl_->mutex_);
    figures f = impl_->figures_;
    f.cached_bytes = impl_->cache_.bytes();
    f.cached_items = impl_->cache_.items();
    f.streamed_bytes = impl_->streamed_->load(std::memory_order_relaxed);
    return f;
}

}
