#pragma once

#include "api/arguments.hpp"
#include "api/failure.hpp"

#include "locale/language.hpp"

#include <optional>
#include <string>

// What the decoder checks of each argument before an operation answers, from its parameter's
// declaration alone and alike for both faces: presence, type and bounds. The rules between
// parameters, the accepted spellings of a name (a tier, a GPU, a week) and the conversion to exact
// units stay with the operation and pricing/.
namespace lcg::api {

// Why `value` (empty when not given) does not fit its declaration `p`, or nothing when it does:
// a required parameter missing; over HTTP, a value not written as its type (an integer: digits,
// a number: digits with an optional point and decimals, a boolean: true, false or one of its words,
// in any letter case); a number beyond `minimum` or `maximum` (compared exactly, on the decimal
// text); a list with an empty item, or of fewer than min_items or more than max_items. The message
// says what is accepted, in English and in French, with one wording for every operation (the
// "input.*" words).
std::optional<failure> misfit(parameter const& p, std::optional<std::string> const& value);

// The refusal of a list item that is empty or holds a comma: over HTTP the items are joined by
// commas, so neither can be told apart from another list (JSON arguments are checked item by item).
failure bad_item(parameter const& p);

// A parameter's description in `lang`: the declaration's in English; in French, the word catalog's
// "param.*" message whose English is the declaration's (a test requires one for every parameter).
std::string parameter_hint(parameter const& p, locale::language lang);
// A description as the end of a sentence: "A catalog id…" → "a catalog id…" (but "GPUs…" stays).
std::string mid_sentence(std::string text);

}
