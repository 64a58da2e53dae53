#pragma once

// What the files that render a snapshot's documents share (snapshot.cpp, signed_documents.cpp,
// site_documents.cpp); nothing outside server/snapshot includes it.
#include "server/snapshot/snapshot.hpp"

#include "render/views.hpp"
#include "locale/words.hpp"

#include <boost/json/object.hpp>

#include <memory>
#include <optional>
#include <string>

namespace lcg::snapshot {

// Adds documents to a snapshot being built, reusing those of the previous snapshot whose content did
// not change: their other formats are not rendered again and they keep their Last-Modified.
class builder {
public:
    builder(snapshot& s, snapshot const* previous, pricing::instant now) : s_(s), previous_(previous), now_(now) {}

    // A resource in `formats`, each written from its JSON document `doc` by `v`, in `lang` when it
    // is written in every language (in English otherwise). `data_time` is when its data took its
    // current state, if known (a sheet's publication).
    void add(std::string const& path, std::string const& query, boost::json::object const& doc, render::view const& v,
             render::format_set formats, bool immutable = false,
             std::optional<pricing::instant> data_time = std::nullopt, std::optional<locale::language> lang = std::nullopt);

    // The same resource in every language: English under `query`, French under it plus lang=fr,
    // each from the JSON document `doc_in` writes in that language.
    template <class Document>
    void add_in_every_language(std::string const& path, std::string const& query, Document const& doc_in,
                               render::view const& v, render::format_set formats, bool immutable = false,
                               std::optional<pricing::instant> data_time = std::nullopt)
    {
        for (auto const lang : locale::all_languages)
            add(path, render::language_query(query, lang), doc_in(lang), v, formats, immutable, data_time, lang);
    }

    // A document whose body is given, reused when the body is the same; `translated` when it is one
    // language's (document::translated).
    void add_body(std::string const& key, render::format f, std::string body, bool immutable = false,
                  std::optional<pricing::instant> data_time = std::nullopt, bool translated = false);
    void add_body(std::string const& key, std::string_view content_type, std::string body, bool immutable = false,
                  std::optional<pricing::instant> data_time = std::nullopt, bool translated = false);

    // Copies every format of a resource from the previous snapshot; false if one is missing.
    bool reuse(std::string const& path, std::string const& query, render::format_set formats);

    std::shared_ptr<const document> previous(std::string const& key) const;

private:
    // A resource that changed since the previous snapshot changed now; a new one has its data time.
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

// The documents of a snapshot, by what they let a client do; build (snapshot.cpp) adds them in an
// order that matters: a translation shares the English documents added before it.

// signed_documents.cpp: what lets a client check what it is served.
void add_signature(builder& b, pricing::price_sheet const& sheet, bool immutable);
void add_signed_catalog(builder& b, pricing::signed_catalog const& signed_catalog);
void add_keys(builder& b, pricing::key_ring const& keys);
void add_other_signatures(builder& b, pricing::price_sheet const& sheet, bool immutable, pricing::key_ring const& keys,
                          std::string const& origin);
std::map<pricing::iso_week, pricing::publication_record> publications_of(publication_log const& log);
std::string log_origin(publication_log const& log);
void add_log(builder& b, publication_log const& log, pricing::key_ring const& keys);

// site_documents.cpp: the pages around the sheets.
void add_descriptions(snapshot const& s, builder& b, pricing::price_sheet const& sheet, bool immutable);
void add_history(snapshot const& s, builder& b, std::optional<pricing::instant> last_published);
void add_glossary(snapshot& s, builder& b, std::optional<pricing::instant> since);
void add_site(snapshot& s, builder& b);

}
