#include "signing.hpp"

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

std::string signed_bytes(price_sheet const& sheet)
{
    std::string out;
    out.reserve(256 + sheet.rows.size() * 96);
    out += signed_bytes_format;
    out += '\n';
    line(out, "week", to_string(sheet.week));
    line(out, "effective_from", to_rfc3339(sheet.effective_from));
    line(out, "effective_until", to_rfc3339(sheet.effective_until));
    line(out, "published_at", to_rfc3339(sheet.published_at));
    line(out, "rules_version", std::to_string(sheet.rules_version));
    line(out, "inputs_sha256", sheet.inputs_sha256);
    line(out, "observations", std::to_string(sheet.observations));
    for (auto const& row : sheet.rows) {
        auto const f = published_figures(row);
        out += "row";
        field(out, row.gpu);
        field(out, row.available() ? "true" : "false");
        field(out, std::to_string(row.observations));
        for (auto const* figure : {&f.median, &f.cap, &f.on_demand, &f.spot, &f.reserved, &f.headroom})
            field(out, *figure);
        field(out, row.available() ? std::string_view() : std::string_view(row.unavailable_reason));
        out += '\n';
    }
    return out;
}

public_key const* key_ring::find(std::string_view key_id) const
{
    for (auto const& k : keys)
        if (k.key_id == key_id)
            return &k;
    return nullptr;
}

}
