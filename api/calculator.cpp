#include "api/calculator.hpp"

#include "render/format.hpp"
#include "locale/words.hpp"

namespace lcg::api {

namespace {

std::vector<render::form_choice> choices_of(parameter const& p, pricing::catalog const& cat)
{
    std::vector<render::form_choice> out;
    if (p.type == value_type::string && names_gpus(p)) {
        for (auto const& m : cat.gpus)
            out.push_back({m.id, m.name + " (" + m.id + ")"});
    } else if (p.type == value_type::string && p.name == "region") {
        for (auto const& r : cat.regions)
            out.push_back({r.code, r.code + " (" + r.city + ", " + r.country + ")"});
    } else if (p.type == value_type::boolean) {
        out = {{"true", "true"}, {"false", "false"}};
    } else {
        for (auto const c : p.choices)
            out.push_back({std::string(c), std::string(c)});
    }
    return out;
}

}

std::string calculator_title(operation const& op, locale::language lang)
{
    return locale::say(lang, "tool." + std::string(op.tool) + ".title");
}

std::string parameter_label(parameter const& p, locale::language lang)
{
    return locale::say(lang, "label." + std::string(p.name));
}

std::optional<render::calculator_form> calculator_of(operation const& op, pricing::catalog const& cat,
                                                     std::map<std::string, std::string, std::less<>> const& values,
                                                     locale::language lang)
{
    if (!op.calculator)
        return std::nullopt;
    render::calculator_form form{render::url_in(std::string(op.route), render::format::html), {}, lang};
    for (auto const& p : op.parameters()) {
        render::form_field f{std::string(p.name), parameter_label(p, lang), parameter_hint(p, lang),
                             choices_of(p, cat), p.required, p.type == value_type::integer,
                             p.type == value_type::number, {}};
        if (auto const it = values.find(p.name); it != values.end())
            f.value = it->second;
        form.fields.push_back(std::move(f));
    }
    return form;
}

void drop_blank_fields(std::map<std::string, std::string, std::less<>>& values)
{
    std::erase_if(values, [](auto const& v) { return v.second.empty(); });
}

}
