#include "mcp/resources.hpp"

#include "render/format.hpp"
#include "render/resources.hpp"

#include "pricing/estimate.hpp"
#include "pricing/rules.hpp"

#include "locale/language.hpp"

#include <boost/json/parse.hpp>

#include <algorithm>
#include <iterator>
#include <optional>
#include <stdexcept>
#include <string>

namespace lcg::mcp {

namespace {

namespace json = boost::json;

constexpr std::string_view scheme = "lowcostgpu://";

using render::resource;

// The resource URI of a published document: its HTTP path after /v1/, under our scheme
// (/v1/gpus/h100-sxm is lowcostgpu://gpus/h100-sxm).
std::string uri_of(resource kind, std::string_view name = {})
{
    return std::string(scheme) + render::path_of(kind, name).substr(std::string_view("/v1/").size());
}

json::object content(std::string_view uri, std::string_view mime_type, std::string_view text)
{
    return {{"uri", uri}, {"mimeType", mime_type}, {"text", text}};
}

failure not_found(std::string_view uri, std::string message, bool modern)
{
    return {modern ? error_code::invalid_params : error_code::resource_not_found, std::move(message),
            json::object{{"uri", uri.substr(0, 200)}}};
}

// "lowcostgpu://glossary/gpu-hour?lang=fr" → path "glossary/gpu-hour", language fr. Every resource
// takes ?lang=.
struct parsed_uri {
    std::string_view path;
    std::optional<locale::language> lang;
    bool bad_query = false;
};

parsed_uri split(std::string_view rest)
{
    parsed_uri out;
    auto const q = rest.find('?');
    out.path = rest.substr(0, q);
    if (q != std::string_view::npos) {
        auto const query = rest.substr(q + 1);
        if (query.starts_with("lang="))
            out.lang = locale::parse_language(query.substr(5));
        if (!out.lang)
            out.bad_query = true;
    }
    return out;
}

}

namespace {

// The resources listed by resources/list, each a published document without a name.
struct listed_document {
    resource kind;
    std::string_view name;
    std::string_view title;
    std::string_view description;  // then how it is read: "Markdown, then the JSON of GET <path>."
};

constexpr listed_document listed_documents[] = {
    {resource::prices, "prices", "Price sheet in effect",
     "This week's per-GPU hourly rates of every priced model (on-demand, spot, reserved). Add ?lang=fr for French."},
    {resource::gpus, "gpus", "GPU catalog",
     "Every GPU model with its memory, bandwidth, PowerScore and on-demand rate. Add ?lang=fr for French."},
    {resource::methodology, "methodology", "Pricing methodology",
     "How prices are set, rounded and audited. Add ?lang=fr for French."},
    {resource::sources, "sources", "Market sources",
     "The marketplaces and GPU clouds whose listings the methodology counts (name, kind, homepage, format), with the "
     "rules version that counts them; kind synthetic marks the sample data's made-up sources. Add ?lang=fr for French."},
    {resource::glossary, "glossary", "Glossary",
     "The 86 terms and 3 questions with this week's figures; add ?lang=fr for French."},
};

}

json::array const& resource_list()
{
    static json::array const list = [] {
        json::array out;
        for (auto const& d : listed_documents)
            out.push_back(json::object{{"uri", uri_of(d.kind)},
                                       {"name", d.name},
                                       {"title", d.title},
                                       {"description", std::string(d.description) + " Markdown, then the JSON of GET " +
                                                           render::path_of(d.kind) + "."},
                                       {"mimeType", "text/markdown"}});
        return out;
    }();
    return list;
}

json::array const& resource_templates()
{
    static json::array const list = json::parse(R"json([
{"uriTemplate":"lowcostgpu://gpus/{id}","name":"gpu","title":"One GPU model","description":"A catalog model by id (h100-sxm): specs, limits, regions and price. Add ?lang=fr for French. Markdown, then the JSON of GET /v1/gpus/{gpu}.","mimeType":"text/markdown"},
{"uriTemplate":"lowcostgpu://glossary/{slug}","name":"glossary-term","title":"One glossary entry","description":"A term or question by slug; add ?lang=fr for French. Markdown, then the JSON of GET /v1/glossary/{term}.","mimeType":"text/markdown"},
{"uriTemplate":"lowcostgpu://sheets/{week}","name":"sheet","title":"One weekly sheet","description":"A published sheet by ISO week (2026-W49) with medians and rates. Add ?lang=fr for French. Markdown, then the JSON of GET /v1/sheets/{week}.","mimeType":"text/markdown"},
{"uriTemplate":"lowcostgpu://prices/{id}/history","name":"price-history","title":"Price history of a GPU model","description":"Every published week of a model by id (h100-sxm): median, rates and the change from the week before. Add ?lang=fr for French. Markdown, then the JSON of GET /v1/prices/{gpu}/history.","mimeType":"text/markdown"}
])json").as_array();
    return list;
}

namespace {

json::object listed(std::string uri, std::string name, std::string title)
{
    return {{"uri", std::move(uri)}, {"name", std::move(name)}, {"title", std::move(title)}, {"mimeType", "text/markdown"}};
}

json::array every_resource(api::data_view const& data)
{
    json::array out = resource_list();
    if (auto const* doc = data.glossary(locale::language::en)) {
        for (auto const& t : doc->terms())
            out.push_back(listed(uri_of(resource::glossary_entry, t.term->slug), "glossary-" + t.term->slug, t.term->name));
        for (auto const& q : doc->questions)
            out.push_back(listed(uri_of(resource::glossary_entry, q.slug), "glossary-" + q.slug, q.name));
    }
    for (auto const& m : data.catalog().gpus)
        out.push_back(listed(uri_of(resource::price_history, m.id), "price-history-" + m.id,
                             "Price history of the " + m.name));
    for (auto const& week : published_weeks(data))
        out.push_back(listed(uri_of(resource::sheet, week), "sheet-" + week, "Price sheet of " + week));
    return out;
}

// A page's cursor names the offset of its first resource; "r1." says which form it has.
constexpr std::string_view cursor_prefix = "r1.";

std::optional<std::size_t> offset_of(std::string_view cursor, std::size_t size)
{
    if (!cursor.starts_with(cursor_prefix) || cursor.size() > cursor_prefix.size() + 9)
        return std::nullopt;
    std::size_t offset = 0;
    for (char const c : cursor.substr(cursor_prefix.size())) {
        if (c < '0' || c > '9')
            return std::nullopt;
        offset = offset * 10 + static_cast<std::size_t>(c - '0');
    }
    if (offset == 0 || offset >= size)
        return std::nullopt;
    return offset;
}

}

result_or_failure<json::object> resources_page(api::data_view const& data, std::optional<std::string_view> cursor)
{
    json::array all = every_resource(data);
    std::size_t from = 0;
    if (cursor) {
        auto const offset = offset_of(*cursor, all.size());
        if (!offset)
            return invalid_params("unknown cursor: give the nextCursor of a previous resources/list page, or none");
        from = *offset;
    }
    std::size_t const to = std::min(all.size(), from + pricing::rules::mcp_page_size);
    json::array page(std::make_move_iterator(all.begin() + static_cast<std::ptrdiff_t>(from)),
                     std::make_move_iterator(all.begin() + static_cast<std::ptrdiff_t>(to)));
    json::object out{{"resources", std::move(page)}};
    if (to < all.size())
        out["nextCursor"] = std::string(cursor_prefix) + std::to_string(to);
    return out;
}

std::vector<std::string> published_weeks(api::data_view const& data)
{
    std::vector<std::string> weeks;
    auto const sheets = data.sheets();
    for (auto it = sheets.rbegin(); it != sheets.rend(); ++it)
        weeks.push_back(pricing::to_string(it->week));
    return weeks;
}

namespace {

// What a resource URI names: the HTTP document behind it, and the URI as the lists spell it (the
// model's id, the week as 2026-W49, ?lang=fr only for French), which every spelling of it shares.
struct located {
    std::string path_of_document;
    std::string query;
    std::string canonical;
};

// The kind of a listed document by its name ("gpus").
resource listed_kind(std::string_view name)
{
    for (auto const& d : listed_documents)
        if (d.name == name)
            return d.kind;
    throw std::logic_error("no listed resource is named " + std::string(name));
}

result_or_failure<located> locate(std::string_view uri, api::data_view const& data, bool modern)
{
    if (!uri.starts_with(scheme))
        return not_found(uri, "no resource at that URI; resources/list and resources/templates/list name them", modern);
    auto const parsed = split(uri.substr(scheme.size()));
    auto const path = parsed.path;
    if (parsed.bad_query)
        return not_found(uri, "a resource URI takes one query, ?lang=en or ?lang=fr", modern);
    auto const lang = parsed.lang.value_or(locale::language::en);

    // The HTTP document this URI names (its kind and name); its Markdown and its JSON are served as stored.
    resource kind{};
    std::string name;
    if (path == "prices") {
        if (!data.current_sheet())
            return not_found(uri, "no price sheet is in effect yet", modern);
        kind = resource::prices;
    } else if (path == "gpus" || path == "methodology" || path == "sources") {
        kind = listed_kind(path);
    } else if (path == "glossary") {
        if (!data.glossary(lang))
            return not_found(uri, "the glossary is unavailable: " + std::string(data.glossary_problem()), modern);
        kind = resource::glossary;
    } else if (path.starts_with("gpus/")) {
        auto const model = pricing::find_gpu_parameter("id", path.substr(5), data.catalog());  // as get_gpu does
        if (!model)
            return not_found(uri, "no GPU model has that id; lowcostgpu://gpus lists them", modern);
        kind = resource::gpu;
        name = (*model)->id;
    } else if (path.starts_with("prices/") && path.ends_with("/history")) {
        auto const id = path.substr(7, path.size() - 7 - std::string_view("/history").size());
        auto const model = pricing::find_gpu_parameter("id", id, data.catalog());  // as get_price_history does
        if (!model)
            return not_found(uri, "no GPU model has that id; lowcostgpu://gpus lists them", modern);
        kind = resource::price_history;
        name = (*model)->id;
    } else if (path.starts_with("glossary/")) {
        auto const slug = path.substr(9);
        auto const* doc = data.glossary(lang);
        if (!doc)
            return not_found(uri, "the glossary is unavailable: " + std::string(data.glossary_problem()), modern);
        if (!doc->find_term(slug) && !doc->find_question(slug))
            return not_found(uri, "no glossary entry has that slug; lowcostgpu://glossary lists them", modern);
        kind = resource::glossary_entry;
        name = slug;
    } else if (path.starts_with("sheets/")) {
        auto const week = pricing::parse_week(path.substr(7));
        bool published = false;
        if (week)
            for (auto const& s : data.sheets())
                published = published || s.week == *week;
        if (!published)
            return not_found(uri, "no sheet was published for that week; completion lists the weeks", modern);
        kind = resource::sheet;
        name = pricing::to_string(*week);
    } else {
        return not_found(uri, "no resource at that URI; resources/list and resources/templates/list name them", modern);
    }
    // The glossary's documents name their language, English included; the others name French only.
    bool const named = render::kind_of(kind).written_in == render::languages::every_named;
    std::string query = render::language_query("", lang, named);
    std::string canonical = uri_of(kind, name);  // as the lists spell it
    if (lang == locale::language::fr)
        canonical += "?lang=fr";
    return located{render::path_of(kind, name), std::move(query), std::move(canonical)};
}

}

result_or_failure<json::array> read_resource(std::string_view uri, api::data_view const& data, bool modern)
{
    auto found = locate(uri, data, modern);
    if (!found)
        return found.err();
    auto const& where = *found;
    json::array contents;
    for (auto const f : {render::format::markdown, render::format::json})
        if (auto const doc = data.document(render::url_in(where.path_of_document, f, where.query)))
            contents.push_back(content(uri, doc->mime_type, doc->text));
    if (contents.empty())
        return not_found(uri, "nothing is published there yet", modern);
    return contents;
}

std::optional<std::string> canonical_uri(std::string_view uri, api::data_view const& data)
{
    auto found = locate(uri, data, false);
    if (!found)
        return std::nullopt;
    return std::move(found.value().canonical);
}

}
