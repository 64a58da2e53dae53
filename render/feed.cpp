#include "render/feed.hpp"
#include "render/resources.hpp"

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
std::string entry_summary(pricing::price_sheet const& sheet, pricing::price_sheet const* before, language l)
{
    std::string const move = percent(l, std::to_string(pricing::rules::notable_move_percent));
    std::string out = say(l, "feed.summary", {{"from", pricing::to_rfc3339(sheet.effective_from)},
                                              {"until", pricing::to_rfc3339(sheet.effective_until)},
                                              {"priced", std::to_string(sheet.priced_models())},
                                              {"models", std::to_string(sheet.rows.size())},
                                              {"observations", std::to_string(sheet.observations)},
                                              {"sha", sheet.inputs_sha256}});
    if (!before)
        return out + " " + say(l, "feed.first");
    auto const moved = pricing::notable_moves(*before, sheet);
    std::string const since = pricing::to_string(before->week);
    if (moved.empty())
        return out + " " + say(l, "feed.no_move", {{"percent", move}, {"week", since}});
    out += " " + say(l, "feed.moves", {{"percent", move}, {"week", since}});
    for (auto const& gpu : moved) {
        auto const* now_row = sheet.find(gpu);
        auto const* old_row = before->find(gpu);
        out += " " + gpu + " " + number(l, pricing::to_decimal(old_row->rates->on_demand)) + " → " +
               number(l, pricing::to_decimal(now_row->rates->on_demand)) + " (" +
               number(l, pricing::signed_decimal(now_row->rates->on_demand - old_row->rates->on_demand)) + ")" +
               (&gpu == &moved.back() ? "." : say(l, "semicolon"));
    }
    return out;
}

}

std::string sheets_feed(std::span<const pricing::price_sheet> sheets, language l,
                        std::map<pricing::iso_week, pricing::publication_record> const* publications)
{
    // The French feed is another feed: its own id, its entries' own ids, links to French pages.
    std::string const id_suffix = l == language::en ? "" : ":" + std::string(locale::to_string(l));
    std::string const query = language_query("", l);
    auto const on_demand = pricing::rules::on_demand_of_median;
    std::string out = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\" xml:lang=\"" +
                      std::string(locale::to_string(l)) + "\">\n";
    out += "  " + element("title", say(l, "feed.title")) + "\n";
    out += "  " + element("subtitle", say(l, "feed.subtitle", {{"percent", percent(l, std::to_string(on_demand.numerator * 100 / on_demand.denominator))}})) + "\n";
    out += "  <id>urn:lowcostgpu:sheets" + id_suffix + "</id>\n";
    out += "  <link rel=\"self\" type=\"application/atom+xml\" href=\"" + html_escape(path_of(resource::sheets_feed) + query) + "\"/>\n";
    out += "  <link rel=\"alternate\" type=\"text/html\" href=\"" + html_escape(suffixed_url(path_of(resource::sheets), format::html) + query) + "\"/>\n";
    pricing::instant updated{};
    for (auto const& s : sheets)
        updated = std::max(updated, s.published_at);
    out += "  " + element("updated", pricing::to_rfc3339(updated)) + "\n";
    out += "  <author><name>LowCostGPU</name></author>\n";
    for (std::size_t i = sheets.size(); i-- > 0;) {
        auto const& sheet = sheets[i];
        std::string const week = pricing::to_string(sheet.week);
        pricing::publication_record const* record = nullptr;
        if (publications)
            if (auto const it = publications->find(sheet.week); it != publications->end() && it->second.corrected())
                record = &it->second;
        std::string correction;
        if (record)
            for (auto const& v : record->versions)
                if (v.kind == "correction")
                    correction = say(l, "feed.corrected", {{"at", pricing::to_rfc3339(v.published_at)}}) +
                                 (v.reason.empty() ? "" : " " + v.reason) + " ";
        out += "  <entry>\n";
        out += "    " + element("title", say(l, "feed.entry_title", {{"week", week}}) +
                                     (record ? " " + say(l, "feed.corrected_title") : "")) + "\n";
        out += "    <id>urn:lowcostgpu:sheet:" + week + id_suffix + "</id>\n";
        out += "    <link rel=\"alternate\" type=\"application/json\" href=\"" + html_escape(path_of(resource::sheet, week) + query) + "\"/>\n";
        out += "    <link rel=\"alternate\" type=\"text/html\" href=\"" + html_escape(path_of(resource::sheet, week) + ".html" + query) + "\"/>\n";
        auto const first = record ? record->versions.front().published_at : sheet.published_at;
        out += "    " + element("published", pricing::to_rfc3339(first)) + "\n";
        out += "    " + element("updated", pricing::to_rfc3339(sheet.published_at)) + "\n";
        out += "    " + element("summary", correction + entry_summary(sheet, i > 0 ? &sheets[i - 1] : nullptr, l)) + "\n";
        out += "  </entry>\n";
    }
    return out + "</feed>\n";
}

}
