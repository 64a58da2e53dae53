#include "render/transfer.hpp"

#include "render/markdown_text.hpp"

#include "pricing/quantity.hpp"

namespace lcg::render {

namespace json = boost::json;

json::object transfer_json(std::int64_t micro_gb, std::span<const pricing::link_time> times, language lang)
{
    json::array links;
    for (auto const& t : times)
        links.push_back({{"id", t.link.id},
                         {"name", t.link.name},
                         {"between_nodes", t.link.between_nodes},
                         {"rate", t.link.rate},
                         {"unit", t.link.unit == pricing::rules::rate_unit::gigabytes_per_second ? "GB/s" : "Gb/s"},
                         {"gigabytes_per_second", t.gigabytes_per_second},
                         {"seconds", t.seconds},
                         {"milliseconds", t.milliseconds},
                         {"slower_than_reference", t.slower_than_reference}});
    return {{"gb", pricing::units_to_decimal(micro_gb, 1, 1, 6).text},
            {"reference", pricing::rules::reference_link},
            {"links", std::move(links)},
            {"note", say(lang, "transfer.note", {{"bits", std::to_string(pricing::rules::bits_per_byte)}})},
            {"lang", locale::to_string(lang)}};
}

std::string transfer_markdown(json::object const& t, links const& to)
{
    auto const l = to.lang;
    using md::text;
    std::string out = "# " + say(l, "transfer.title", {{"gb", md::shown(l, t, "gb")}}) + "\n\n";
    out += md::escape(text(t, "note")) + "\n\n";
    md::table table{say(l, "transfer.col_link"), say(l, "transfer.col_scope"), ">" + say(l, "transfer.col_rate"),
                    ">" + say(l, "transfer.col_gbps"), ">" + say(l, "transfer.col_ms"),
                    ">" + say(l, "transfer.col_slower")};
    for (auto const& v : md::array_at(t, "links")) {
        auto const& link = v.as_object();
        table.row({md::escape(text(link, "name")),
                   say(l, md::at(link, "between_nodes").as_bool() ? "transfer.between_nodes" : "transfer.within_node"),
                   md::shown(l, link, "rate") + " " + text(link, "unit"), md::shown(l, link, "gigabytes_per_second"),
                   md::shown(l, link, "milliseconds"), md::shown(l, link, "slower_than_reference") + " ×"});
    }
    return out + table.str();
}

}
