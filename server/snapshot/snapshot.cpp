#include "server/snapshot/snapshot.hpp"

#include "server/render/json.hpp"
#include "server/store/digest.hpp"

namespace lcg::snapshot {

namespace {

constexpr char const* json_type = "application/json";

document make_document(std::string content_type, std::string body)
{
    // 32 hex digits of SHA-256 are plenty to tell two bodies apart.
    std::string etag = "\"" + store::sha256_hex(body).substr(0, 32) + "\"";
    return {std::move(content_type), std::move(body), std::move(etag)};
}

void add_json(snapshot& s, std::string path, boost::json::value const& v)
{
    s.documents.emplace(std::move(path), make_document(json_type, render::to_text(v)));
}

}

document const* snapshot::find_document(std::string_view path) const
{
    auto it = documents.find(path);
    return it == documents.end() ? nullptr : &it->second;
}

pricing::price_sheet const* snapshot::find_sheet(pricing::iso_week week) const
{
    for (auto const& s : sheets)
        if (s.week == week)
            return &s;
    return nullptr;
}

std::shared_ptr<const snapshot> build(pricing::catalog catalog, std::vector<pricing::price_sheet> sheets,
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
    return s;
}

}
