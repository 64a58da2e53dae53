#include "server/snapshot/builder.hpp"

#include "render/json.hpp"

#include <stdexcept>

namespace lcg::snapshot {

using render::format;

void builder::add(render::resource r, std::string_view name, std::string const& query, boost::json::object const& doc,
                  bool closed, std::optional<pricing::instant> data_time, std::optional<locale::language> lang)
{
    auto const& kind = render::kind_of(r);
    if (!kind.has_view())
        throw std::logic_error(std::string(kind.path_template) + " is written whole: add_body publishes it");
    std::string const path = render::path_of(r, name);
    auto const formats = kind.formats();
    bool const fixed = immutable(kind, closed);
    std::string json_text = render::to_text(doc);
    auto const before = previous(document_key(path, format::json, query));
    if (before && before->body == json_text && before->immutable == fixed && reuse(path, query, formats))
        return;
    auto const modified = modified_at(before != nullptr, data_time);
    render::page const where{path, query, formats, lang.value_or(locale::language::en)};
    formats.for_each([&](format f) {
        auto const key = document_key(path, f, query);
        if (auto const english = same_in_english(path, f, query, json_text))
            return put(key, english);
        std::string body = f == format::json ? json_text : render::write(f, *kind.written_by, doc, where);
        put(key, make_document(std::string(render::content_type(f)), std::move(body), fixed, modified,
                               lang.has_value()));
    });
}

void builder::add_body(render::resource r, std::string_view name, std::string const& query, std::string body,
                       bool closed, std::optional<pricing::instant> data_time)
{
    auto const& kind = render::kind_of(r);
    if (kind.has_view())
        throw std::logic_error(std::string(kind.path_template) + " has a view: add publishes it");
    std::string const key = render::path_of(r, name) + query;
    bool const fixed = immutable(kind, closed);
    bool const translated = kind.written_in != render::languages::one;
    auto const before = previous(key);
    if (before && before->body == body && before->immutable == fixed && before->translated == translated)
        return put(key, before);
    put(key, make_document(std::string(kind.media_type), std::move(body), fixed,
                           modified_at(before != nullptr, data_time), translated));
}

bool builder::immutable(render::resource_kind const& k, bool closed)
{
    return k.kept == render::lifetime::fixed || (k.kept == render::lifetime::fixed_once_closed && closed);
}

bool builder::reuse(std::string const& path, std::string const& query, render::format_set formats)
{
    bool all = true;
    formats.for_each([&](format f) { all = all && previous(document_key(path, f, query)) != nullptr; });
    if (all)
        formats.for_each([&](format f) {
            auto const key = document_key(path, f, query);
            put(key, previous(key));
        });
    return all;
}

std::shared_ptr<const document> builder::previous(std::string const& key) const
{
    return previous_ ? previous_->find_document(key) : nullptr;
}

pricing::instant builder::modified_at(bool changed, std::optional<pricing::instant> data_time) const
{
    return changed || !data_time ? now_ : *data_time;
}

void builder::put(std::string const& key, std::shared_ptr<const document> doc)
{
    s_.documents.insert_or_assign(key, std::move(doc));
}

std::shared_ptr<const document> builder::same_in_english(std::string const& path, format f, std::string const& query,
                                                         std::string const& json_text) const
{
    std::string const english = render::without_language(query);
    if (english == query || (f != format::json && f != format::csv))
        return nullptr;
    auto doc = s_.find_document(document_key(path, f, english));
    return doc && (f == format::csv || doc->body == json_text) ? doc : nullptr;
}

}
