#include "server/snapshot/snapshot.hpp"

#include "server/render/glossary_json.hpp"
#include "server/render/json.hpp"
#include "server/render/methodology.hpp"
#include "server/store/digest.hpp"

namespace lcg::snapshot {

namespace {

constexpr char const* json_type = "application/json";
constexpr char const* csv_type = "text/csv; charset=utf-8; header=present";

std::shared_ptr<const document> make_document(std::string content_type, std::string body, bool immutable = false)
{
    // 32 hex digits of SHA-256 are plenty to tell two bodies apart.
    std::string etag = "\"" + store::sha256_hex(body).substr(0, 32) + "\"";
    return std::make_shared<const document>(document{std::move(content_type), std::move(body), std::move(etag), immutable});
}

void add_json(snapshot& s, std::string path, boost::json::value const& v, bool immutable = false)
{
    s.documents.emplace(std::move(path), make_document(json_type, render::to_text(v), immutable));
}

bool same_publication(pricing::price_sheet const& a, pricing::price_sheet const& b)
{
    return a.week == b.week && a.inputs_sha256 == b.inputs_sha256 && a.published_at == b.published_at;
}

// The inputs of one sheet as CSV and JSON, reused from the previous snapshot when unchanged.
void add_inputs(snapshot& s, pricing::price_sheet const& sheet, bool immutable, inputs_loader const& load_inputs,
                snapshot const* previous)
{
    std::string const base = "/v1/sheets/" + pricing::to_string(sheet.week) + "/observations";
    if (previous) {
        auto const* before = previous->find_sheet(sheet.week);
        auto const csv = previous->documents.find(base + ".csv");
        auto const json = previous->documents.find(base);
        if (before && same_publication(*before, sheet) && csv != previous->documents.end() &&
            json != previous->documents.end() && csv->second->immutable == immutable) {
            s.documents.emplace(base + ".csv", csv->second);
            s.documents.emplace(base, json->second);
            return;
        }
    }
    std::string csv = load_inputs(sheet.week);
    pricing::observation_csv_reader reader([](std::string_view) { return true; });
    std::vector<pricing::observation> observations;
    std::size_t start = 0;
    while (start < csv.size()) {
        auto const end = csv.find('\n', start);
        if (auto o = reader.read_line(std::string_view(csv).substr(start, end - start)))
            observations.push_back(std::move(*o));
        start = end == std::string::npos ? csv.size() : end + 1;
    }
    add_json(s, base, render::observations_json(sheet, observations), immutable);
    s.documents.emplace(base + ".csv", make_document(csv_type, std::move(csv), immutable));
}

// The glossary resolved against the current sheet, and its unfiltered documents in each language.
void add_glossary(snapshot& s)
{
    auto const& text = glossary::embedded();
    if (!text) {
        s.glossary_problem = "the glossary content is invalid:\n" + text.err().message;
        return;
    }
    if (!s.current) {
        s.glossary_problem = "no price sheet is in effect yet, and the glossary quotes its figures";
        return;
    }
    auto resolved = glossary::resolve(*text, {*s.current, s.catalog});
    if (!resolved) {
        s.glossary_problem = "the glossary cannot quote the current sheet: " + resolved.err().message;
        return;
    }
    s.glossary = std::move(resolved).value();
    auto const week = s.current->week;
    for (auto const lang : glossary::all_languages) {
        auto const& doc = s.glossary->in(lang);
        std::string const suffix = "?lang=" + std::string(glossary::to_string(lang));
        add_json(s, "/v1/glossary" + suffix, render::glossary_json(doc, lang, doc.terms(), true, week));
        for (auto const& t : doc.terms())
            add_json(s, "/v1/glossary/" + t.term->slug + suffix,
                     render::glossary_entry_json(render::glossary_term_json(t), lang, week));
        for (auto const& q : doc.questions)
            add_json(s, "/v1/glossary/" + q.slug + suffix,
                     render::glossary_entry_json(render::glossary_question_json(q), lang, week));
    }
}

}

std::shared_ptr<const document> snapshot::find_document(std::string_view path) const
{
    auto it = documents.find(path);
    return it == documents.end() ? nullptr : it->second;
}

pricing::price_sheet const* snapshot::find_sheet(pricing::iso_week week) const
{
    for (auto const& s : sheets)
        if (s.week == week)
            return &s;
    return nullptr;
}

std::shared_ptr<const snapshot> build(pricing::catalog catalog, std::vector<pricing::price_sheet> sheets,
                                      inputs_loader const& load_inputs, snapshot const* previous,
                                      pricing::instant now)
{
    auto s = std::make_shared<snapshot>();
    s->catalog = std::move(catalog);
    s->sheets = std::move(sheets);
    s->built_at = now;
    for (auto const& sheet : s->sheets)
        if (sheet.effective_from <= now)
            s->current = &sheet;

    add_json(*s, "/v1/gpus", render::catalog_json(s->catalog, s->current));
    for (auto const& m : s->catalog.gpus)
        add_json(*s, "/v1/gpus/" + m.id, render::gpu_json(m, s->current ? s->current->find(m.id) : nullptr));
    if (s->current) {
        add_json(*s, "/v1/prices", render::sheet_json(*s->current, s->catalog));
        for (auto const& row : s->current->rows)
            add_json(*s, "/v1/prices/" + row.gpu, render::price_json(*s->current, row, s->catalog.find(row.gpu)));
    }
    add_json(*s, "/v1/sheets", render::sheet_index_json(s->sheets, s->current));
    for (auto const& sheet : s->sheets) {
        bool const past = sheet.effective_until <= now;
        add_json(*s, "/v1/sheets/" + pricing::to_string(sheet.week), render::sheet_json(sheet, s->catalog), past);
        add_inputs(*s, sheet, past, load_inputs, previous);
    }
    add_json(*s, "/v1/methodology", render::methodology_json());
    add_json(*s, "/v1/regions", render::regions_json(s->catalog));
    add_json(*s, "/v1/inventory", render::inventory_json(s->catalog));
    add_glossary(*s);
    return s;
}

}
