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
    // Held as long as the snapshot: without the room its writer grew into (and gzip's buffer, which
    // is about the body's size whatever the compressed one).
    body.shrink_to_fit();
    // 32 hex digits of SHA-256 are plenty to tell two bodies apart.
    std::string const tag = digest::sha256_hex(body).substr(0, 32);
    std::string zipped = body.size() >= min_gzip_size ? gzip(body) : std::string();
    if (zipped.size() >= body.size())
        zipped = std::string();
    zipped.shrink_to_fit();
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

void add_catalog(draft& d)
{
    auto const& s = d.s;
    d.b.add_in_every_language(render::resource::gpus, "", "", [&](locale::language l) {
        return render::catalog_json(s.catalog, s.current, l);
    }, false, d.current_since);
    for (auto const& m : s.catalog.gpus)
        d.b.add_in_every_language(render::resource::gpu, m.id, "", [&](locale::language l) {
            return render::gpu_json(m, s.current, l);
        }, false, d.current_since);
}

void add_current_prices(draft& d)
{
    auto const& s = d.s;
    if (!s.current)
        return;
    auto const& sheet = *s.current;
    d.b.add_in_every_language(render::resource::prices, "", "", [&](locale::language l) {
        return render::sheet_json(sheet, s.catalog, l, s.find_publication(sheet.week));
    }, false, d.current_since);
    for (auto const& row : sheet.rows)
        d.b.add_in_every_language(render::resource::price, row.gpu, "", [&](locale::language) {
            return render::price_json(sheet, row, s.catalog.find(row.gpu));
        }, false, d.current_since);
}

void add_sheet_index(draft& d)
{
    auto const& s = d.s;
    d.b.add_in_every_language(render::resource::sheets, "", "", [&](locale::language) {
        return render::sheet_index_json(s.sheets, s.current, &s.publications);
    }, false, d.last_published);
}

// Each week's sheet, then what describes and signs it (the descriptions read the sheet's CSV).
void add_weeks(draft& d)
{
    auto const& s = d.s;
    for (auto const& sheet : s.sheets) {
        d.b.add_in_every_language(render::resource::sheet, pricing::to_string(sheet.week), "", [&](locale::language l) {
            return render::sheet_json(sheet, s.catalog, l, s.find_publication(sheet.week));
        }, d.closed(sheet), sheet.published_at);
        add_signatures(d, sheet);
        add_descriptions(d, sheet);
    }
}

void add_methodology(draft& d)
{
    auto const& s = d.s;
    d.b.add_in_every_language(render::resource::methodology, "", "", [&](locale::language l) {
        return render::methodology_json(s.keys, s.catalog.sources, l);
    });
}

void add_tables(draft& d)
{
    auto const& s = d.s;
    d.b.add_in_every_language(render::resource::regions, "", "", [&](locale::language l) { return render::regions_json(s.catalog, l); });
    d.b.add_in_every_language(render::resource::sources, "", "", [&](locale::language l) { return render::sources_json(s.catalog, l); });
    d.b.add_in_every_language(render::resource::inventory, "", "",
                              [&](locale::language l) { return render::inventory_json(s.catalog, {}, l); });
}

std::span<const publisher> publishers()
{
    using enum render::resource;
    static std::vector<publisher> const list{
        {add_catalog, {gpus, gpu}},
        {add_current_prices, {prices, price}},
        {add_sheet_index, {sheets}},
        {add_weeks, {sheet, signed_bytes, signature, signify_signature, signed_note, datapackage, csv_metadata}},
        {add_history, {price_history, history_chart, sparkline, history, sheets_feed}},
        {add_methodology, {methodology}},
        {add_keys, {keys, key_file}},
        {add_signed_catalog, {catalog, catalog_signature}},
        {add_tables, {regions, sources, inventory}},
        {add_log, {log, log_checkpoint, log_signed_bytes, log_signature, log_tile}},
        {add_glossary, {glossary, glossary_entry}},
        {add_site, {index, llms_txt, llms_full_txt, api_catalog, openapi}},
    };
    return list;
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

    builder b(*s, previous, now);
    draft d{*s, b, now, std::nullopt, std::nullopt};
    if (s->current)
        d.current_since = std::max(s->current->published_at, s->current->effective_from);
    for (auto const& sheet : s->sheets)
        d.last_published = std::max(d.last_published.value_or(sheet.published_at), sheet.published_at);
    for (auto const& p : publishers())
        p.publish(d);
    return s;
}

}
