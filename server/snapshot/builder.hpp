#pragma once

// What the files that render a snapshot's documents share (snapshot.cpp, signed_documents.cpp,
// site_documents.cpp); nothing outside server/snapshot includes it.
#include "server/snapshot/snapshot.hpp"

#include "render/resources.hpp"
#include "render/views.hpp"
#include "locale/words.hpp"

#include <boost/json/object.hpp>

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace lcg::snapshot {

// Adds documents to a snapshot being built, reusing those of the previous snapshot whose content did
// not change: their other formats are not rendered again and they keep their Last-Modified.
class builder {
public:
    builder(snapshot& s, snapshot const* previous, pricing::instant now) : s_(s), previous_(previous), now_(now) {}

    // A document of kind `r` (named `name` where its path template has a placeholder), under
    // `query`, in each of its view's formats, written from its JSON document `doc`, in `lang` when
    // it is written in every language (in English otherwise). `closed`: its week is over (or its
    // tile full), which fixes a document whose kind is fixed once closed. `data_time` is when its
    // data took its current state, if known (a sheet's publication).
    void add(render::resource r, std::string_view name, std::string const& query, boost::json::object const& doc,
             bool closed = false, std::optional<pricing::instant> data_time = std::nullopt,
             std::optional<locale::language> lang = std::nullopt);

    // The same document in every language: English under `query`, French under it plus lang=fr,
    // each from the JSON document `doc_in` writes in that language.
    template <class Document>
    void add_in_every_language(render::resource r, std::string_view name, std::string const& query,
                               Document const& doc_in, bool closed = false,
                               std::optional<pricing::instant> data_time = std::nullopt)
    {
        for (auto const lang : locale::all_languages)
            add(r, name, render::language_query(query, lang), doc_in(lang), closed, data_time, lang);
    }

    // A document of a kind written whole, whose body is given, reused when the body is the same.
    void add_body(render::resource r, std::string_view name, std::string const& query, std::string body,
                  bool closed = false, std::optional<pricing::instant> data_time = std::nullopt);

    std::shared_ptr<const document> previous(std::string const& key) const;

private:
    // Copies every format of a document from the previous snapshot; false if one is missing.
    bool reuse(std::string const& path, std::string const& query, render::format_set formats);

    // Whether a document of kind `k` stays as published: by its kind's lifetime.
    static bool immutable(render::resource_kind const& k, bool closed);

    // A document that changed since the previous snapshot changed now; a new one has its data time.
    pricing::instant modified_at(bool changed, std::optional<pricing::instant> data_time) const;

    void put(std::string const& key, std::shared_ptr<const document> doc);

    // A translation's data formats are the English ones: CSV is always the same, JSON when it has no
    // prose. Sharing them keeps the second language from doubling the memory they take.
    std::shared_ptr<const document> same_in_english(std::string const& path, render::format f,
                                                    std::string const& query, std::string const& json_text) const;

    snapshot& s_;
    snapshot const* previous_;
    pricing::instant now_;
};

// The snapshot being built, and the instants its documents carry.
struct draft {
    snapshot& s;
    builder& b;
    pricing::instant now;
    // When what shows the current sheet last changed: its publication or its taking effect,
    // whichever came last (none before the first sheet takes effect).
    std::optional<pricing::instant> current_since;
    std::optional<pricing::instant> last_published;  // the newest sheet's publication

    // Whether `sheet`'s week is over: its documents no longer change.
    bool closed(pricing::price_sheet const& sheet) const { return sheet.effective_until <= now; }
};

// Who publishes which kinds of document: each builder adds every document of its kinds. A snapshot
// is built by walking this list in order, which matters: a week's descriptions read its CSV, the
// site reads the pages it inlines, and a translation shares the English documents added before it.
// Every kind of render::resource_kinds() has exactly one builder (a test checks).
struct publisher {
    void (*publish)(draft& d);
    std::vector<render::resource> kinds;
};
std::span<const publisher> publishers();

// snapshot.cpp: the catalog, the sheets and their tables.
void add_catalog(draft& d);
void add_current_prices(draft& d);
void add_sheet_index(draft& d);
void add_weeks(draft& d);
void add_tables(draft& d);
void add_methodology(draft& d);

// signed_documents.cpp: what lets a client check what it is served.
void add_keys(draft& d);
void add_signed_catalog(draft& d);
void add_log(draft& d);
void add_signatures(draft& d, pricing::price_sheet const& sheet);  // one week's, for add_weeks
std::map<pricing::iso_week, pricing::publication_record> publications_of(publication_log const& log);
std::string log_origin(publication_log const& log);

// site_documents.cpp: the pages around the sheets.
void add_descriptions(draft& d, pricing::price_sheet const& sheet);  // one week's, for add_weeks
void add_history(draft& d);
void add_glossary(draft& d);
void add_site(draft& d);

}
