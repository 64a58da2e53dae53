#include "signing.hpp"

#include "lines.hpp"
#include "rules.hpp"

#include <algorithm>

namespace lcg::pricing {

namespace {

void line(std::string& out, std::string_view name, std::string_view value)
{
    out += name;
    out += ' ';
    out += value;
    out += '\n';
}

void field(std::string& out, std::string_view value)
{
    out += ' ';
    out += value.empty() ? std::string_view("-") : value;
}

}

signed_content signed_content_of(price_sheet const& sheet)
{
    signed_content c{to_string(sheet.week),      to_rfc3339(sheet.effective_from), to_rfc3339(sheet.effective_until),
                     to_rfc3339(sheet.published_at), sheet.rules_version,         sheet.inputs_sha256,
                     sheet.observations,         {}};
    c.rows.reserve(sheet.rows.size());
    for (auto const& row : sheet.rows)
        c.rows.push_back({row.gpu, row.available(), row.observations, published_figures(row),
                          row.available() ? std::string() : row.unavailable_reason});
    return c;
}

std::string signed_bytes(signed_content const& c)
{
    std::string out;
    out.reserve(256 + c.rows.size() * 96);
    out += signed_bytes_format;
    out += '\n';
    line(out, "week", c.week);
    line(out, "effective_from", c.effective_from);
    line(out, "effective_until", c.effective_until);
    line(out, "published_at", c.published_at);
    line(out, "rules_version", std::to_string(c.rules_version));
    line(out, "inputs_sha256", c.inputs_sha256);
    line(out, "observations", std::to_string(c.observations));
    for (auto const& row : c.rows) {
        auto const& f = row.figures;
        out += "row";
        field(out, row.gpu);
        field(out, row.available ? "true" : "false");
        field(out, std::to_string(row.observations));
        for (auto const* figure : {&f.median, &f.cap, &f.on_demand, &f.spot, &f.reserved, &f.headroom})
            field(out, *figure);
        field(out, row.reason);
        out += '\n';
    }
    return out;
}

std::string signed_bytes(price_sheet const& sheet) { return signed_bytes(signed_content_of(sheet)); }

std::optional<std::string_view> signed_header(std::string_view bytes, std::string_view name)
{
    // The format line, then the seven header lines signed_bytes writes before the first row.
    for (int n = 0; n < 8 && !bytes.empty(); ++n) {
        auto const line = take_line(bytes);
        if (line.size() > name.size() && line.starts_with(name) && line[name.size()] == ' ')
            return line.substr(name.size() + 1);
    }
    return std::nullopt;
}

std::string signed_bytes(catalog_signature const& signature)
{
    std::string out(catalog_bytes_format);
    out += '\n';
    line(out, "signed_at", to_rfc3339(signature.signed_at));
    line(out, "catalog_sha256", signature.catalog_sha256);
    line(out, "catalog_bytes", std::to_string(signature.catalog_bytes));
    for (auto const& sheet : signature.sheets) {
        out += "sheet";
        field(out, to_string(sheet.week));
        field(out, to_rfc3339(sheet.published_at));
        field(out, sheet.inputs_sha256);
        field(out, std::to_string(sheet.inputs_bytes));
        out += '\n';
    }
    return out;
}

indexed_sheet const* catalog_signature::find(iso_week week) const
{
    for (auto const& s : sheets)
        if (s.week == week)
            return &s;
    return nullptr;
}

public_key const* key_ring::find(std::string_view key_id) const
{
    for (auto const& k : keys)
        if (k.key_id == key_id)
            return &k;
    return nullptr;
}

std::chrono::seconds publication_delay(iso_week week, instant published_at)
{
    auto const since = published_at - monday_of(week);
    return since > std::chrono::seconds(rules::publication_grace_seconds) ? since : std::chrono::seconds(0);
}

bool publication_record::corrected() const
{
    return std::any_of(versions.begin(), versions.end(), [](sheet_version const& v) { return v.kind == "correction"; });
}

}
