#include "server/snapshot/snapshot.hpp"

#include "server/snapshot/builder.hpp"
#include "server/snapshot/gzip.hpp"

#include "server/digest/digest.hpp"

#include "render/json.hpp"
#include "render/methodology.hpp"

#include <optional>

namespace lcg::snapshot {

namespace {

// Bodies this small gain nothing worth a Content-Encoding header.
constexpr std::size_t min_gzip_size = 256;

}

std::shared_ptr<const document> make_document(std::string content_type, std::string body, bool immutable,
                                              pricing::instant last_modified, bool translated)
{
    // 32 hex digits of SHA-256 are plenty to tell two bodies apart.
    std::string const tag = digest::sha256_hex(body).substr(0, 32);
    std::string zipped = body.size() >= min_gzip_size ? gzip(body) : std::string();
    if (zipped.size() >= body.size())
        zipped.clear();
    return std::make_shared<const document>(document{std::move(content_type), std::move(body), "\"" + tag + "\"",
                                                     immutable, last_modified, std::move(zipped),
                                                     "\"" + tag + "-gz\"", translated});
}

std::string document_key(std::string_view path, render::format f, std::string_view query)
{
    return render::url_in(path, f, query);
}

std::shared_ptr<const document> snapshot::find_document(std::string_view path) const
{
    auto it = documents.find(path);
    return it == documents.end() ? nullptr : it->second;
}

std::shared_ptr<const document> snapshot::find_document(std::string_view path, render::format f,
                                                        std::string_view query) const
{
    return find_document(document_key(path, f, query));
}

std::shared_ptr<const publication_log> make_log(std::vector<tlog::logged_version> entries, std::string checkpoint)
{
    auto log = std::make_shared<publication_log>();
    for (auto const& e : entries) {
        log->tree.append(tlog::leaf_hash(e.entry));
        auto parsed = tlog::parse_entry(e.entry);
        log->parsed.push_back(parsed ? std::optional<tlog::log_entry>(*parsed) : std::nullopt);
    }
    log->entries = std::move(entries);
    log->checkpoint = std::move(checkpoint);
    return log;
}

pricing::publication_record const* snapshot::find_publication(pricing::iso_week week) const
{
    auto const it = publications.find(week);
    return it == publications.end() ? nullptr : &it->second;
}

pricing::price_sheet const* snapshot::find_sheet(pricing::iso_week week) const
{
    for (auto const& s : sheets)
        if (s.week == week)
            return &s;
    return nullptr;
}

std::shared_ptr<const snapshot> build(pricing::catalog catalog, std::vector<pricing::price_sheet> sheets,
                                      snapshot const* previous,
                                      pricing::instant now, instance_facts self,
                                      std::optional<pricing::signed_catalog> signed_catalog,
                                      std::shared_ptr<const publication_log> log)
{
    auto s = std::make_shared<snapshot>();
    s->log = log ? std::move(log) : make_log({}, "");
    s->publications = publications_of(*s->log);
    s->keys = std::move(self.keys);
    s->public_url = std::move(self.public_url);
    s->signed_catalog = std::move(signed_catalog);
    s->catalog = std::move(catalog);
    s->sheets = std::move(sheets);
    s->built_at = now;
    for (auto const& sheet : s->sheets)
        if (sheet.effective_from <= now)
            s->current = &sheet;
    // What shows the current sheet changed when it was published or took effect, whichever came last.
    std::optional<pricing::instant> current_since;
    if (s->current)
        current_since = std::max(s->current->published_at, s->current->effective_from);

    builder b(*s, previous, now);
    b.add_in_every_language("/v1/gpus", "", [&](locale::language l) { return render::catalog_json(s->catalog, s->current, l); },
                            render::catalog_view, render::table_formats, false, current_since);
    for (auto const& m : s->catalog.gpus)
        b.add_in_every_language(
            "/v1/gpus/" + m.id, "",
            [&](locale::language l) { return render::gpu_json(m, s->current, l); },
            render::gpu_view, render::document_formats, false, current_since);
    if (s->current) {
        b.add_in_every_language("/v1/prices", "", [&](locale::language l) {
                                    return render::sheet_json(*s->current, s->catalog, l, s->find_publication(s->current->week));
                                },
                                render::sheet_view, render::table_formats, false, current_since);
        for (auto const& row : s->current->rows)
            b.add_in_every_language(
                "/v1/prices/" + row.gpu, "",
                [&](locale::language) { return render::price_json(*s->current, row, s->catalog.find(row.gpu)); },
                render::price_view, render::document_formats, false, current_since);
    }
    std::optional<pricing::instant> last_published;
    for (auto const& sheet : s->sheets)
        last_published = std::max(last_published.value_or(sheet.published_at), sheet.published_at);
    b.add_in_every_language("/v1/sheets", "", [&](locale::language) { return render::sheet_index_json(s->sheets, s->current, &s->publications); },
                            render::sheet_index_view, render::table_formats, false, last_published);
    for (auto const& sheet : s->sheets) {
        bool const past = sheet.effective_until <= now;
        b.add_in_every_language("/v1/sheets/" + pricing::to_string(sheet.week), "",
                                [&](locale::language l) {
                                    return render::sheet_json(sheet, s->catalog, l, s->find_publication(sheet.week));
                                },
                                render::sheet_view,
                                render::table_formats, past, sheet.published_at);
        add_signature(b, sheet, past);
        add_descriptions(*s, b, sheet, past);
        add_other_signatures(b, sheet, past, s->keys, log_origin(*s->log));
    }
    add_history(*s, b, last_published);
    b.add_in_every_language("/v1/methodology", "", [&](locale::language l) { return render::methodology_json(s->keys, s->catalog.sources, l); },
                            render::methodology_view, render::document_formats);
    add_keys(b, s->keys);
    if (s->signed_catalog)
        add_signed_catalog(b, *s->signed_catalog);
    b.add_in_every_language("/v1/regions", "", [&](locale::language l) { return render::regions_json(s->catalog, l); },
                            render::regions_view, render::table_formats);
    b.add_in_every_language("/v1/sources", "", [&](locale::language l) { return render::sources_json(s->catalog, l); },
                            render::sources_view, render::table_formats);
    b.add_in_every_language("/v1/inventory", "", [&](locale::language l) { return render::inventory_json(s->catalog, {}, l); },
                            render::inventory_view, render::table_formats);
    add_log(b, *s->log, s->keys);
    add_glossary(*s, b, current_since);
    add_site(*s, b);
    return s;
}

}
