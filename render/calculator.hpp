#pragma once

#include "render/html.hpp"

#include <string>
#include <string_view>
#include <vector>

// The calculators of the HTML pages: an operation's parameters as a plain GET form (no script),
// pre-filled with what the query gave, above the result or the refusal. The form submits to the
// page itself, so the result lands in the same page.
namespace lcg::render {

struct form_choice {
    std::string value;
    std::string label;
};

struct form_field {
    std::string name;         // the parameter: "gpu"
    std::string label;        // in words, in the page's language: "GPU model"
    std::string hint;         // its description
    std::vector<form_choice> choices;  // a drop-down list when not empty
    bool required = false;
    bool whole_number = false;  // the keyboard offered on phones
    bool decimal = false;
    std::string value;        // as the query gave it, or empty
};

struct calculator_form {
    std::string action;  // "/v1/estimate.html"
    std::vector<form_field> fields;
    language lang = language::en;  // of its button and its note
};

// What was wrong with the query, shown under the form: the problem detail's figures.
struct form_problem {
    int status = 0;
    std::string title;   // "Bad Request"
    std::string detail;
    std::string parameter;
};

// The form as HTML, followed by the problem when there is one.
std::string form_html(calculator_form const& form, form_problem const* problem = nullptr);

// A page with a title, the form and, when given, the problem: the calculator before a result.
std::string calculator_page(std::string_view title, calculator_form const& form, form_problem const* problem,
                            page const& where);

}
