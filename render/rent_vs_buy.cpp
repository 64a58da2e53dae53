#include "render/rent_vs_buy.hpp"
#include "render/resources.hpp"

#include "render/json.hpp"
#include "render/markdown_text.hpp"

#include "pricing/money.hpp"
#include "pricing/rules.hpp"

namespace lcg::render {

namespace json = boost::json;

namespace {

json::object break_even_json(pricing::break_even const& b)
{
    return {{"state", pricing::to_string(b.state)}, {"value", b.value ? json::value(b.value->text) : json::value(nullptr)}};
}

std::string magnitude(pricing::money m) { return pricing::to_decimal(m < pricing::money{} ? pricing::money{} - m : m); }

std::string verdict_note(pricing::rent_vs_buy_answer const& a, std::string const& utilisation, language lang)
{
    auto const key = a.verdict == pricing::rent_vs_buy_verdict::buy    ? "rent_vs_buy.buy"
                     : a.verdict == pricing::rent_vs_buy_verdict::rent ? "rent_vs_buy.rent"
                                                                       : "rent_vs_buy.even";
    return say(lang, key, {{"months", std::to_string(a.request.months)},
                           {"utilisation", locale::percent(lang, utilisation)},
                           {"own", locale::dollars(lang, pricing::to_decimal(a.own_total))},
                           {"rent", locale::dollars(lang, pricing::to_decimal(a.rent_total))},
                           {"saving", locale::dollars(lang, magnitude(a.difference))}});
}

json::array assumptions(pricing::rent_vs_buy_answer const& a, language lang)
{
    return {say(lang, "rent_vs_buy.assume_rate", {{"tier", pricing::to_string(a.request.rented)},
                                                  {"week", pricing::to_string(a.request.sheet->week)}}),
            say(lang, "rent_vs_buy.assume_month", {{"hours", std::to_string(pricing::rules::month_hours)}}),
            say(lang, "rent_vs_buy.assume_energy"), say(lang, "rent_vs_buy.assume_purchase")};
}

}

json::object rent_vs_buy_json(pricing::rent_vs_buy_answer const& a, language lang)
{
    auto const& q = a.request;
    std::string const utilisation = pricing::units_to_decimal(q.utilisation_hundredths, 1, 1, 2).text;
    return {
        {"gpu", q.model->id},
        {"name", q.model->name},
        {"gpus", q.gpus},
        {"tier", pricing::to_string(q.rented)},
        {"per_gpu_hour", pricing::to_decimal(a.per_gpu_hour)},
        {"week", pricing::to_string(q.sheet->week)},
        {"effective_from", pricing::to_rfc3339(q.sheet->effective_from)},
        {"inputs",
         {{"purchase_price", pricing::to_decimal(q.purchase_price)},
          {"power_watts", q.power_watts},
          {"electricity_price", pricing::to_decimal(q.electricity_price)},
          {"hosting_per_month", pricing::to_decimal(q.hosting_per_month)},
          {"utilisation_percent", utilisation},
          {"months", q.months}}},
        {"used_hours", a.used_hours.text},
        {"rent", {{"total", pricing::to_decimal(a.rent_total)}}},
        {"own",
         {{"purchase", pricing::to_decimal(q.purchase_price)},
          {"hosting", pricing::to_decimal(a.hosting_total)},
          {"energy", pricing::to_decimal(a.energy_total)},
          {"total", pricing::to_decimal(a.own_total)}}},
        {"difference", pricing::to_decimal(a.difference)},
        {"verdict", pricing::to_string(a.verdict)},
        {"break_even_months", break_even_json(a.months)},
        {"break_even_utilisation_percent", break_even_json(a.utilisation)},
        {"assumptions", assumptions(a, lang)},
        {"note", verdict_note(a, utilisation, lang)},
        {"currency", "USD"},
        {"lang", locale::to_string(lang)},
        {"sample", is_sample(q.sheet)},
    };
}

namespace {

// The sentence of a break-even: "rent_vs_buy.<which>_<state>", with its figure.
std::string break_even_line(json::object const& doc, std::string_view which, std::string_view member, language l)
{
    auto const& b = md::object_at(doc, member);
    auto const& inputs = md::object_at(doc, "inputs");
    std::string state = md::text(b, "state");
    if (state == "beyond" && !md::at(b, "value").is_string())
        state = "unreached";
    bool const percent = which == "utilisation";
    std::string const value = percent && md::at(b, "value").is_string() ? locale::percent(l, md::text(b, "value"))
                                                                         : md::shown(l, b, "value");
    return say(l, "rent_vs_buy." + std::string(which) + "_" + state,
               {{"value", value},
                {"months", md::shown(l, inputs, "months")},
                {"utilisation", locale::percent(l, md::text(inputs, "utilisation_percent"))}});
}

}

std::string rent_vs_buy_markdown(json::object const& doc, links const& to)
{
    auto const l = to.lang;
    using md::text;
    auto const& inputs = md::object_at(doc, "inputs");
    auto const& own = md::object_at(doc, "own");
    auto const money = [&](json::object const& o, std::string_view key) { return locale::dollars(l, text(o, key)); };
    std::string out = "# " + say(l, "rent_vs_buy.title", {{"gpus", md::shown(l, doc, "gpus")}, {"name", md::escape(text(doc, "name"))}}) + "\n\n";
    out += md::escape(text(doc, "note")) + "\n\n";
    md::table t{say(l, "rent_vs_buy.col_item"), ">" + say(l, "rent_vs_buy.col_amount")};
    t.row({say(l, "rent_vs_buy.row_rent", {{"tier", md::code(text(doc, "tier"))},
                                          {"rate", locale::dollars(l, text(doc, "per_gpu_hour"))},
                                          {"hours", md::shown(l, doc, "used_hours")}}),
           money(md::object_at(doc, "rent"), "total")});
    t.row({say(l, "rent_vs_buy.row_purchase"), money(own, "purchase")});
    t.row({say(l, "rent_vs_buy.row_hosting", {{"monthly", money(inputs, "hosting_per_month")}, {"months", md::shown(l, inputs, "months")}}),
           money(own, "hosting")});
    t.row({say(l, "rent_vs_buy.row_energy", {{"watts", md::shown(l, inputs, "power_watts")},
                                            {"tariff", money(inputs, "electricity_price")}}),
           money(own, "energy")});
    t.row({"**" + say(l, "rent_vs_buy.row_own") + "**", "**" + money(own, "total") + "**"});
    out += t.str() + "\n";
    out += "- " + break_even_line(doc, "months", "break_even_months", l) + "\n";
    out += "- " + break_even_line(doc, "utilisation", "break_even_utilisation_percent", l) + "\n";
    out += "- " + say(l, "rent_vs_buy.sheet", {{"week", md::link(text(doc, "week"), to(path_of(resource::sheet, text(doc, "week"))))}}) + "\n\n";
    out += "## " + say(l, "rent_vs_buy.assumptions") + "\n\n";
    for (auto const& a : md::array_at(doc, "assumptions"))
        out += "- " + md::escape(std::string(a.as_string())) + "\n";
    return out;
}

}
