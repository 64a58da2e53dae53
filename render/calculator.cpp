#include "render/calculator.hpp"

#include "render/markdown_text.hpp"
#include "render/language.hpp"

namespace lcg::render {

namespace {

// A drop-down list's first choice: nothing chosen.
constexpr std::string_view not_given = "—";

std::string attribute(std::string_view name, std::string_view value)
{
    return " " + std::string(name) + "=\"" + html_escape(value) + "\"";
}

std::string select_html(form_field const& f, std::string const& id)
{
    std::string out = "<select" + attribute("id", id) + attribute("name", f.name) + (f.required ? " required" : "") + ">";
    out += "<option value=\"\"" + std::string(f.value.empty() ? " selected" : "") + ">" + std::string(not_given) + "</option>";
    bool matched = false;
    for (auto const& c : f.choices) {
        bool const chosen = !f.value.empty() && !matched && c.value == f.value;
        matched = matched || chosen;
        out += "<option" + attribute("value", c.value) + (chosen ? " selected" : "") + ">" + html_escape(c.label) +
               "</option>";
    }
    // A value the list lacks (a name in other letters, a typo) stays visible, so the refusal makes sense.
    if (!f.value.empty() && !matched)
        out += "<option" + attribute("value", f.value) + " selected>" + html_escape(f.value) + "</option>";
    return out + "</select>";
}

std::string input_html(form_field const& f, std::string const& id)
{
    std::string out = "<input type=\"text\"" + attribute("id", id) + attribute("name", f.name) +
                      attribute("value", f.value);
    if (f.whole_number)
        out += " inputmode=\"numeric\"";
    else if (f.decimal)
        out += " inputmode=\"decimal\"";
    return out + (f.required ? " required" : "") + ">";
}

}

std::string form_html(calculator_form const& form, form_problem const* problem)
{
    std::string out = "<form class=\"calculator\" method=\"get\"" + attribute("action", form.action) + ">\n";
    for (auto const& f : form.fields) {
        std::string const id = "field-" + f.name;
        // People read the words; the parameter's name, for the API, comes second.
        out += "<p><label" + attribute("for", id) + ">" + html_escape(f.label) + (f.required ? " *" : "") +
               " <code>" + html_escape(f.name) + "</code></label> ";
        out += f.choices.empty() ? input_html(f, id) : select_html(f, id);
        out += "<br><small>" + html_escape(f.hint) + "</small></p>\n";
    }
    out += "<p><button type=\"submit\">" + say(form.lang, "calc.submit") + "</button> <small>" +
           say(form.lang, "calc.blank") + "</small></p>\n</form>\n";
    if (problem) {
        out += "<div class=\"problem\" role=\"alert\"><p><strong>" + std::to_string(problem->status) + " " +
               html_escape(problem->title) + "</strong>";
        if (!problem->parameter.empty())
            out += " (<code>" + html_escape(problem->parameter) + "</code>)";
        out += ": <span class=\"detail\">" + html_escape(problem->detail) + "</span></p></div>\n";
    }
    return out;
}

std::string calculator_page(std::string_view title, calculator_form const& form, form_problem const* problem,
                            page const& where)
{
    page p = where;
    p.form = form_html(form, problem);
    return html_page("# " + md::escape(title) + "\n", p);
}

}
