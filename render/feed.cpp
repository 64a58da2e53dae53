#include "render/feed.hpp"

#include "render/html.hpp"

#include "pricing/history.hpp"
#include "pricing/money.hpp"
#include "pricing/rules.hpp"

namespace lcg::render {

namespace {

std::string element(std::string_view name, std::string_view text)
{
    return "<" + std::string(name) + ">" + html_escape(text) + "</" + std::string(name) + ">";
}

// What a reader of the feed wants to know of a new sheet, in one paragraph of plain text.
std::string entry_summary(pricing::price_sheet const& sheet, pricing::price_sheet const* before)
{
    std::string out = "In effect from " + pricing::to_rfc3339(sheet.effective_from) + " until " +
                      pricing::to_rfc3339(sheet.effective_until) + "; " + std::to_string(sheet.priced_models()) +
                      " of " + std::to_string(sheet.rows.size()) + " models priced from " +
                      std::to_string(sheet.observations) + " observations; inputs SHA-256 " + sheet.inputs_sha256 + ".";
    if (!before)
        return out + " The first published sheet.";
    auto const moved = pricing::notable_moves(*before, sheet);
    if (moved.empty())
        return out + " No on-demand rate moved by " + std::to_string(pricing::rules::notable_move_percent) +
               " % or more since " + pricing::to_string(before->week) + ".";
    out += " On-demand rates that moved by " + std::to_string(pricing::rules::notable_move_percent) +
           " % or more since " + pricing::to_string(before->week) + ":";
    for (auto const& gpu : moved) {
        auto const* now_row = sheet.find(gpu);
        auto const* old_row = before->find(gpu);
        out += " " + gpu + " " + pricing::to_decimal(old_row->rates->on_demand) + " → " +
               pricing::to_decimal(now_row->rates->on_demand) + " (" +
               pricing::signed_decimal(now_row->rates->on_demand - old_row->rates->on_demand) + ")" +
               (&gpu == &moved.back() ? "." : ";");
    }
    return out;
}

}

std::string sheets_feed(std::span<const pricing::price_sheet> sheets)
{
    std::string out = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\">\n";
    out += "  " + element("title", "LowCostGPU price sheets") + "\n";
    out += "  " + element("subtitle", "Weekly per-GPU rates: on-demand at most 70 % of the public marketplace median") + "\n";
    out += "  <id>urn:lowcostgpu:sheets</id>\n";
    out += "  <link rel=\"self\" type=\"application/atom+xml\" href=\"/v1/sheets.atom\"/>\n";
    out += "  <link rel=\"alternate\" type=\"text/html\" href=\"/v1/sheets.html\"/>\n";
    pricing::instant updated{};
    for (auto const& s : sheets)
        updated = std::max(updated, s.published_at);
    out += "  " + element("updated", pricing::to_rfc3339(updated)) + "\n";
    out += "  <author><name>LowCostGPU</name></author>\n";
    for (std::size_t i = sheets.size(); i-- > 0;) {
        auto const& sheet = sheets[i];
        std::string const week = pricing::to_string(sheet.week);
        out += "  <entry>\n";
        out += "    " + element("title", "Price sheet " + week) + "\n";
        out += "    <id>urn:lowcostgpu:sheet:" + week + "</id>\n";
        out += "    <link rel=\"alternate\" type=\"application/json\" href=\"/v1/sheets/" + week + "\"/>\n";
        out += "    <link rel=\"alternate\" type=\"text/html\" href=\"/v1/sheets/" + week + ".html\"/>\n";
        out += "    " + element("published", pricing::to_rfc3339(sheet.published_at)) + "\n";
        out += "    " + element("updated", pricing::to_rfc3339(sheet.published_at)) + "\n";
        out += "    " + element("summary", entry_summary(sheet, i > 0 ? &sheets[i - 1] : nullptr)) + "\n";
        out += "  </entry>\n";
    }
    return out + "</feed>\n";
}

}
