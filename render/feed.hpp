#pragma once

#include "pricing/sheet.hpp"
#include "pricing/signing.hpp"
#include "render/language.hpp"

#include <map>
#include <span>
#include <string>

// The Atom feed of published sheets (RFC 4287), for feed readers and for mirrors that follow new
// sheets: one entry per sheet, newest first.
namespace lcg::render {

inline constexpr std::string_view atom_content_type = "application/atom+xml; charset=utf-8";

// `sheets` oldest first, as the snapshot keeps them. Links are relative to the feed's own URL
// (/v1/sheets.atom), so the same bytes serve every host name; ids are URNs that never change. In
// `lang`: the French feed (/v1/sheets.atom?lang=fr) is a feed of its own, with its own ids.
// With `publications` (each week's logged versions), a corrected sheet's entry says so, with the
// reason, and is `published` at its first version and `updated` at its correction.
std::string sheets_feed(std::span<const pricing::price_sheet> sheets, language lang = language::en,
                        std::map<pricing::iso_week, pricing::publication_record> const* publications = nullptr);

}
