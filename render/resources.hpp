#pragma once

#include "render/format.hpp"
#include "render/views.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

// Every document the snapshot publishes, in one table: its kind (a typed key), the URL template it
// is published under, how it is written (a view and its formats, or a body in one media type), the
// languages it is written in and how long it stays as published. The snapshot pre-renders by
// walking the kinds (server/snapshot/builders.cpp holds one builder per kind), and the router, the
// operations, the MCP resources and the site name a document by its kind, never by spelling its
// path: a misspelt kind does not compile, and a path changes in one place.
namespace lcg::render {

enum class resource : std::uint8_t {
    index,              // "/"
    llms_txt,           // "/llms.txt"
    llms_full_txt,      // "/llms-full.txt"
    api_catalog,        // "/.well-known/api-catalog"
    openapi,            // "/openapi.json"
    prices,             // the sheet in effect
    price,              // one model's row of it
    price_history,      // one model's weeks
    history_chart,      // that history as an SVG chart
    sparkline,          // and as a sparkline
    history,            // one tier of every model in every week
    gpus,               // the catalog
    gpu,                // one model
    regions,
    sources,
    inventory,
    methodology,
    sheets,             // the index of published sheets
    sheet,              // one week's sheet
    sheets_feed,        // the Atom feed of new sheets
    signed_bytes,       // what a sheet's signature covers
    signature,          // the signature, base64
    signify_signature,  // the signature as a signify file
    signed_note,        // the signed bytes as a signed note
    datapackage,        // a week's Data Package description
    csv_metadata,       // a week's CSVW description
    catalog,            // the signed catalog document
    catalog_signature,
    keys,               // the public keys
    key_file,           // one key, PEM or signify
    log,                // the publication log's index
    log_checkpoint,
    log_signed_bytes,   // the version of a sheet an entry logged
    log_signature,
    log_tile,           // a C2SP tlog tile or entry bundle
    glossary,
    glossary_entry,     // a term or a question
    // Read from the archive when asked, never pre-rendered (server/archive):
    observations,       // a week's inputs; its CSV is the canonical file
    raw_inputs,         // the offer files a week's inputs were taken from
    raw_file,           // one of them, by its SHA-256
};

// Where a document's bytes come from.
enum class source : std::uint8_t {
    snapshot,  // pre-rendered when the snapshot is built
    archive,   // read from the database when asked, so the snapshot does not grow with the weeks
};

// The languages a document is written in.
enum class languages : std::uint8_t {
    one,          // written once: the same bytes whatever the language (signatures, keys, OpenAPI)
    every,        // English under its URL, French under it with lang=fr
    every_named,  // each language under its own lang= (the glossary: its English names itself too)
};

// How long a document stays as it was published: what its Cache-Control can promise.
enum class lifetime : std::uint8_t {
    current,           // replaced when its data changes
    fixed_once_closed, // fixed once its week is over, or its log tile full
    fixed,             // never changes once published (a log entry's version)
};

struct resource_kind {
    resource key;
    std::string_view path_template;  // "/v1/gpus/{gpu}": {placeholder}s, each a path segment (or the tail)
    view const* written_by;          // null: a body written whole, in `media_type`
    std::string_view media_type;     // of a body written whole ("image/svg+xml"); empty for a view
    // The formats a client negotiates when no view writes it: JSON for a JSON body, text for
    // plain text, none for a body in its own media type (SVG, Atom), which Accept does not pick;
    // those the archive serves.
    format_set own_formats;
    languages written_in;
    lifetime kept;
    source from = source::snapshot;

    bool has_view() const { return written_by != nullptr; }
    // Its formats: the view's, or its own.
    format_set formats() const { return written_by ? written_by->formats() : own_formats; }
};

// Every kind, in the order of the enum.
std::span<const resource_kind> resource_kinds();
resource_kind const& kind_of(resource r);
// The kind published under a path template ("/v1/glossary/{term}"), or null.
resource_kind const* find_kind(std::string_view path_template);

// The path of a document of kind `r`: its template with its placeholders replaced by `name` (a
// model's id, a week, a slug, a key file, a tile path) and `then` (a raw file's SHA-256). Throws
// std::logic_error when the names given do not match the placeholders: a programming error.
std::string path_of(resource r, std::string_view name = {}, std::string_view then = {});

// The template itself ("/v1/prices/{gpu}"): a route's pattern.
std::string_view template_of(resource r);
// The template up to its placeholder ("/v1/log/tile/"): the folder its documents are in.
std::string_view folder_of(resource r);

}
