#include "render/quote.hpp"
#include "render/resources.hpp"

#include "render/json.hpp"
#include "render/markdown_text.hpp"

#include "pricing/money.hpp"

namespace lcg::render {

namespace json = boost::json;

namespace {

json::value text_or_null(std::string const& s) { return s.empty() ? json::value(nullptr) : json::value(s); }

}

json::object quote_check_json(pricing::quote_check const& c, language lang)
{
    auto const& q = c.request;
    auto const& sheet = *q.sheet;
    std::string const week = pricing::to_string(sheet.week);
    std::string const url = path_of(resource::sheet, week);
    std::string const tier(pricing::to_string(q.t));
    std::string const quoted = pricing::to_decimal(q.quoted);
    std::string const published = c.published ? pricing::to_decimal(*c.published) : std::string();
    std::string note;
    if (!c.published)
        note = say(lang, "quote.not_priced", {{"gpu", q.model->name}, {"week", week}});
    else
        note = say(lang, c.verdict == pricing::quote_verdict::published ? "quote.published" : "quote.differs",
                   {{"gpu", q.model->name}, {"tier", tier}, {"week", week},
                    {"published", locale::dollars(lang, published)}, {"quoted", locale::dollars(lang, quoted)}});
    return {
        {"gpu", q.model->id},
        {"name", q.model->name},
        {"tier", tier},
        {"quoted", quoted},
        {"published", text_or_null(published)},
        {"verdict", pricing::to_string(c.verdict)},
        {"matches", c.verdict == pricing::quote_verdict::published},
        {"difference", c.published ? json::value(pricing::to_decimal(q.quoted - *c.published)) : json::value(nullptr)},
        {"reason", c.row && !c.row->available() ? json::value(c.row->unavailable_reason) : json::value(nullptr)},
        {"week", week},
        {"effective_from", pricing::to_rfc3339(sheet.effective_from)},
        {"effective_until", pricing::to_rfc3339(sheet.effective_until)},
        {"sheet",
         {{"url", url},
          {"published_at", pricing::to_rfc3339(sheet.published_at)},
          {"inputs_sha256", sheet.inputs_sha256},
          {"key_id", text_or_null(sheet.key_id)},
          {"signature", text_or_null(sheet.signature)},
          {"signed_bytes", url + "/signed.txt"}}},
        {"currency", "USD"},
        {"unit", "per GPU-hour"},
        {"note", note},
        {"lang", locale::to_string(lang)},
        {"sample", is_sample(&sheet)},
    };
}

std::string quote_check_markdown(json::object const& c, links const& to)
{
    auto const l = to.lang;
    using md::text;
    auto const& sheet = md::object_at(c, "sheet");
    std::string const week = text(c, "week");
    std::string out = "# " + say(l, "quote.title", {{"verdict", md::code(text(c, "verdict"))}}) + "\n\n";
    out += md::escape(text(c, "note")) + "\n\n";
    md::table t{say(l, "col.gpu"), say(l, "col.tier"), ">" + say(l, "quote.col_quoted"),
                ">" + say(l, "quote.col_published"), ">" + say(l, "quote.col_difference")};
    t.row({md::link(text(c, "gpu"), to(path_of(resource::price, text(c, "gpu")))), md::code(text(c, "tier")),
           md::shown(l, c, "quoted"), md::shown(l, c, "published"), md::shown(l, c, "difference")});
    out += t.str() + "\n";
    if (md::at(c, "reason").is_string())
        out += "- " + say(l, "quote.reason", {{"reason", md::escape(text(c, "reason"))}}) + "\n";
    out += "- " + say(l, "quote.sheet", {{"week", md::link(week, to(text(sheet, "url")))},
                                           {"published", md::when(text(sheet, "published_at"))}}) + "\n";
    if (md::at(sheet, "key_id").is_string())
        out += "- " + say(l, "quote.signed", {{"key", md::code(text(sheet, "key_id"))},
                                                {"bytes", md::code(text(sheet, "signed_bytes"))}}) + "\n";
    else
        out += "- " + say(l, "quote.unsigned") + "\n";
    return out;
}

}
