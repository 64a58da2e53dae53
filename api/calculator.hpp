#pragma once

#include "api/operation.hpp"

#include "render/calculator.hpp"

#include "pricing/catalog.hpp"

#include <functional>
#include <map>
#include <optional>
#include <string>

namespace lcg::api {

// The form of an operation whose HTML page is a calculator (operation::calculator), its fields the
// operation's parameters in order, pre-filled from `values` (the query as given); a catalog id or a
// region is picked from a list of the catalog's; each field's hint is its parameter's description in
// `lang` (parameter_hint, api/decoder.hpp). Empty for the other operations.
std::optional<render::calculator_form> calculator_of(operation const& op, pricing::catalog const& cat,
                                                     std::map<std::string, std::string, std::less<>> const& values,
                                                     locale::language lang);

// The operation's title in `lang`, as its calculator page shows it (in English, the registry's).
std::string calculator_title(operation const& op, locale::language lang);

// A parameter's name in words in `lang` ("label.storage_gb": "Storage (GB)"), its field's label.
std::string parameter_label(parameter const& p, locale::language lang);

// A form sends its blank fields as name=; a calculator treats a blank field as one not given.
void drop_blank_fields(std::map<std::string, std::string, std::less<>>& values);

}
