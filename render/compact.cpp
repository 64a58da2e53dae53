#include "render/compact.hpp"

#include "render/csv.hpp"
#include "render/markdown_text.hpp"


namespace lcg::render {

namespace json = boost::json;

namespace {

// A figure {value, confirmed} counts as its value; any other object or array has no cell.
json::value const* cell_of(json::value const& v)
{
    if (v.is_object()) {
        auto const* value = v.get_object().if_contains("value");
        return value && !value->is_structured() ? value : nullptr;
    }
    return v.is_array() ? nullptr : &v;
}

std::string csv_field(json::value const& v)
{
    if (v.is_null())
        return "";
    if (v.is_bool())
        return v.get_bool() ? "true" : "false";
    return md::text(v);
}

}

void make_compact(json::object& doc, std::string_view list, std::string_view key, std::vector<std::string> const& fields)
{
    json::array columns{json::string(key)};
    for (auto const& f : fields)
        if (f != key)
            columns.emplace_back(f);
    json::array rows;
    for (auto const& item : md::array_at(doc, list)) {
        json::array row;
        for (auto const& c : columns) {
            auto const* v = item.as_object().if_contains(c.as_string());
            auto const* cell = v ? cell_of(*v) : nullptr;
            row.push_back(cell ? *cell : json::value(nullptr));
        }
        rows.push_back(std::move(row));
    }
    doc.erase(list);
    doc["columns"] = std::move(columns);
    doc["rows"] = std::move(rows);
}

bool is_compact(json::object const& doc) { return doc.contains("columns") && doc.contains("rows"); }

std::string compact_markdown(json::object const& doc)
{
    std::vector<std::string> header;
    for (auto const& c : md::array_at(doc, "columns"))
        header.emplace_back(c.as_string());
    md::table t(header);
    for (auto const& row : md::array_at(doc, "rows")) {
        std::vector<std::string> cells;
        for (auto const& v : row.as_array())
            cells.push_back(md::escape(md::text(v)));
        t.row(std::move(cells));
    }
    return t.str();
}

std::string compact_csv(json::object const& doc)
{
    std::vector<std::string> header;
    for (auto const& c : md::array_at(doc, "columns"))
        header.emplace_back(c.as_string());
    std::string out = csv_record(header);
    for (auto const& row : md::array_at(doc, "rows")) {
        std::vector<std::string> record;
        for (auto const& v : row.as_array())
            record.push_back(csv_field(v));
        out += csv_record(record);
    }
    return out;
}

}
