#include "glossary/placeholders.hpp"

#include "glossary/document.hpp"

#include "pricing/rules.hpp"

#include <array>
#include <cstdint>
#include <iterator>
#include <optional>
#include <utility>
#include <vector>

namespace lcg::glossary {

namespace {

namespace rules = pricing::rules;
using pricing::outcome;

// The ratios are published as whole percents ("70 %"); a rule change that broke this would need
// another way to write them, so it fails the build rather than print a rounded figure.
constexpr bool is_whole_percent(rules::ratio r) { return r.numerator * 100 % r.denominator == 0; }
constexpr std::int64_t percent_of(rules::ratio r) { return r.numerator * 100 / r.denominator; }
static_assert(is_whole_percent(rules::on_demand_of_median) && is_whole_percent(rules::spot_of_on_demand) &&
              is_whole_percent(rules::reserved_of_on_demand));

std::string whole(std::int64_t n) { return std::to_string(n); }

using fact_value = outcome<std::string> (*)(language, pricing::catalog const&);

struct fact {
    std::string_view name;
    fact_value value;
};

constexpr fact facts[] = {
    {"on_demand_ratio",
     [](language l, pricing::catalog const&) -> outcome<std::string> {
         return format_decimal(pricing::decimal_string(percent_of(rules::on_demand_of_median), 2, 2), l);
     }},
    {"on_demand_percent",
     [](language l, pricing::catalog const&) -> outcome<std::string> {
         return format_percent(whole(percent_of(rules::on_demand_of_median)), l);
     }},
    {"discount_percent",
     [](language l, pricing::catalog const&) -> outcome<std::string> {
         return format_percent(whole(100 - percent_of(rules::on_demand_of_median)), l);
     }},
    {"spot_percent",
     [](language l, pricing::catalog const&) -> outcome<std::string> {
         return format_percent(whole(percent_of(rules::spot_of_on_demand)), l);
     }},
    {"reserved_percent",
     [](language l, pricing::catalog const&) -> outcome<std::string> {
         return format_percent(whole(percent_of(rules::reserved_of_on_demand)), l);
     }},
    {"reserved_term_months",
     [](language, pricing::catalog const&) -> outcome<std::string> { return whole(rules::reserved_term_months); }},
    {"reserved_break_even_percent",
     [](language l, pricing::catalog const&) -> outcome<std::string> {
         return format_percent(whole(rules::reserved_break_even_percent), l);
     }},
    {"storage_gb_month",
     [](language l, pricing::catalog const&) -> outcome<std::string> {
         return format_amount(rules::storage_per_gb_month, l);
     }},
    {"network_gb",
     [](language l, pricing::catalog const&) -> outcome<std::string> { return format_amount(rules::network_per_gb, l); }},
    {"min_top_up",
     [](language l, pricing::catalog const&) -> outcome<std::string> { return format_amount(rules::min_top_up, l); }},
    {"sla_percent",
     [](language l, pricing::catalog const&) -> outcome<std::string> {
         return format_percent(pricing::decimal_string(rules::sla_target_permille, 1, 1), l);
     }},
    {"regions",
     [](language, pricing::catalog const& c) -> outcome<std::string> {
         if (c.regions.empty())
             return pricing::error{pricing::errc::unavailable, "the catalog lists no regions"};
         return whole(static_cast<std::int64_t>(c.regions.size()));
     }},
    {"max_gpus",
     [](language, pricing::catalog const&) -> outcome<std::string> { return whole(rules::max_gpus_per_instance); }},
    {"min_observations",
     [](language, pricing::catalog const&) -> outcome<std::string> { return whole(rules::min_observations); }},
    {"month_hours",
     [](language, pricing::catalog const&) -> outcome<std::string> { return whole(rules::month_hours); }},
};

fact const* find_fact(std::string_view name)
{
    for (auto const& f : facts)
        if (f.name == name)
            return &f;
    return nullptr;
}

std::string known_facts()
{
    std::string out;
    for (auto const& f : facts) {
        if (!out.empty())
            out += ", ";
        out += f.name;
    }
    return out;
}

std::vector<std::string_view> split_colons(std::string_view text)
{
    std::vector<std::string_view> parts;
    while (true) {
        auto const colon = text.find(':');
        parts.push_back(text.substr(0, colon));
        if (colon == std::string_view::npos)
            return parts;
        text.remove_prefix(colon + 1);
    }
}

constexpr std::string_view price_shape = "expected {{price:<gpu-id>:<on_demand|spot|reserved>}}";

// Shape checks shared by check_placeholders and resolve_placeholder: the error, or nothing.
std::optional<pricing::error> check_shape(std::string_view inner)
{
    auto const parts = split_colons(inner);
    if (parts[0] == "fact") {
        if (parts.size() != 2 || !find_fact(parts[1]))
            return pricing::invalid("unknown fact " + pricing::quote(parts.size() > 1 ? parts[1] : "") +
                                    " (known: " + known_facts() + ")");
        return std::nullopt;
    }
    if (parts[0] == "price") {
        if (parts.size() != 3 || !is_slug(parts[1]))
            return pricing::invalid(std::string(price_shape));
        if (auto const t = pricing::parse_tier(parts[2]); !t)
            return t.err();
        return std::nullopt;
    }
    return pricing::invalid("unknown placeholder " + pricing::quote(parts[0]) + " (expected 'price' or 'fact')");
}

pricing::error prefixed(std::string_view placeholder, pricing::error e)
{
    std::string message(placeholder);
    message += ": ";
    message += e.message;
    return {e.code, std::move(message)};
}

// The "{{…}}" of a text, in order, one walk for the resolver, the checker and the lister alike. While
// next() is true, placeholder() is the current one, at byte at(), and before() the text since the
// previous one; an unclosed "{{" is a placeholder with nothing in it (unclosed()), and the walk ends
// there: next() must not be called again. Once next() is false, rest() is the text after the last.
class placeholder_walk {
public:
    explicit placeholder_walk(std::string_view text) : text_(text) {}

    bool next()
    {
        done_ = at_ + length_;
        at_ = text_.find("{{", done_);
        auto const close = at_ == std::string_view::npos ? at_ : text_.find("}}", at_ + 2);
        length_ = close == std::string_view::npos ? 0 : close + 2 - at_;
        return at_ != std::string_view::npos;
    }
    bool unclosed() const { return length_ == 0; }
    std::size_t at() const { return at_; }
    std::string_view placeholder() const { return text_.substr(at_, length_); }
    std::string_view inner() const { return text_.substr(at_ + 2, length_ - 4); }
    std::string_view before() const { return text_.substr(done_, at_ - done_); }
    std::string_view rest() const { return text_.substr(done_); }

private:
    std::string_view text_;
    std::size_t done_ = 0;
    std::size_t at_ = 0;
    std::size_t length_ = 0;
};

}

std::span<const std::string_view> fact_names()
{
    static auto const names = [] {
        std::array<std::string_view, std::size(facts)> out{};
        for (std::size_t i = 0; i < out.size(); ++i)
            out[i] = facts[i].name;
        return out;
    }();
    return names;
}

// The glossary's English writes "70%"; French follows the pages (language.hpp).
std::string format_decimal(std::string_view decimal, language lang) { return locale::number(lang, decimal); }

std::string format_percent(std::string_view decimal, language lang)
{
    return lang == language::fr ? locale::percent(lang, decimal) : std::string(decimal) + "%";
}

std::string format_rate(pricing::money rate, language lang) { return locale::dollars(lang, pricing::to_decimal(rate, 3)); }

std::string format_amount(pricing::money amount, language lang)
{
    bool const whole_dollars = amount.micros() % pricing::money::micros_per_dollar == 0;
    return locale::dollars(lang, pricing::to_decimal(amount, whole_dollars ? 0 : 2));
}

pricing::outcome<std::string> resolve_placeholder(std::string_view inner, language lang, figures const& with)
{
    if (auto e = check_shape(inner))
        return *e;
    auto const parts = split_colons(inner);
    if (parts[0] == "fact")
        return find_fact(parts[1])->value(lang, with.catalog);

    std::string_view const gpu = parts[1];
    pricing::tier const t = *pricing::parse_tier(parts[2]);
    if (!with.catalog.find(gpu))
        return pricing::error{pricing::errc::not_found, pricing::quote(gpu) + " is not a GPU of the catalog"};
    auto const* row = with.sheet.find(gpu);
    if (!row || !row->available()) {
        std::string message = pricing::quote(gpu) + " has no price on the " + pricing::to_string(with.sheet.week) + " sheet";
        if (row && !row->unavailable_reason.empty())
            message += ": " + row->unavailable_reason;
        return pricing::error{pricing::errc::unavailable, std::move(message)};
    }
    return format_rate(row->rates->of(t), lang);
}

pricing::outcome<std::string> resolve_text(std::string_view text, language lang, figures const& with)
{
    std::string out;
    out.reserve(text.size());
    placeholder_walk walk(text);
    while (walk.next()) {
        if (walk.unclosed())
            return pricing::invalid("an unclosed '{{' at byte " + std::to_string(walk.at()));
        auto value = resolve_placeholder(walk.inner(), lang, with);
        if (!value)
            return prefixed(walk.placeholder(), value.err());
        out.append(walk.before());
        out += *value;
    }
    out.append(walk.rest());
    return out;
}

std::string check_placeholders(std::string_view text)
{
    placeholder_walk walk(text);
    while (walk.next()) {
        if (walk.unclosed())
            return "an unclosed '{{'";
        if (auto e = check_shape(walk.inner()))
            return prefixed(walk.placeholder(), *e).message;
        if (walk.before().find("}}") != std::string_view::npos)
            return "a '}}' without its '{{'";
    }
    if (walk.rest().find("}}") != std::string_view::npos)
        return "a '}}' without its '{{'";
    return {};
}

std::vector<std::string_view> placeholders_in(std::string_view text)
{
    std::vector<std::string_view> out;
    placeholder_walk walk(text);
    while (walk.next() && !walk.unclosed())
        out.push_back(walk.placeholder());
    return out;
}

}
