#pragma once

#include "embedded_file.hpp"
#include "pricing/input_chunks.hpp"
#include "server/tlog/entry.hpp"
#include "server/tlog/note.hpp"
#include "pricing/calendar.hpp"
#include "pricing/catalog.hpp"
#include "pricing/listing_mapping.hpp"
#include "pricing/observation.hpp"
#include "pricing/sheet.hpp"
#include "pricing/signing.hpp"

#include <chrono>
#include <functional>
#include <istream>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace lcg::store {

// A failure the caller can show as it is: it never carries SQL text. `refused` marks a request the
// database state does not allow (a week already published, a cap violation); anything else is a fault.
class store_error : public std::runtime_error {
public:
    store_error(std::string const& message, bool refused = false)
        : std::runtime_error(message), refused_(refused) {}
    bool refused() const { return refused_; }

private:
    bool refused_;
};

struct import_summary {
    long imported = 0;
    long duplicates = 0;  // listings already imported (same source, listing id and time), skipped
    long bad_lines = 0;
    std::vector<pricing::csv_problem> problems;  // the first 20
    bool ok() const { return bad_lines == 0; }
};

// What one import of a raw listings file did: every row read, counted by outcome (they add up to
// `rows`), and each distinct reason a row was not imported, with its count, in order of first sight.
struct listing_import_summary {
    long rows = 0;
    std::map<pricing::listing_outcome, long> counts;
    struct reason {
        pricing::listing_outcome outcome;
        std::string text;
        long rows = 0;
    };
    std::vector<reason> reasons;
    std::string sha256;        // of the raw file
    bool raw_file_new = false; // false: the same bytes were imported for this source and time before
    long count(pricing::listing_outcome o) const;
};

// A raw file of market offers to import, and how to read it: `read` turns the bytes into offers
// under the source's memory convention (market_source.memory_convention), or refuses the file.
struct listings_file {
    std::string source;
    std::string format;  // as market_source and raw_input name it: "skypilot-vms"
    pricing::instant observed_at;
    std::string bytes;
    std::function<pricing::outcome<std::vector<pricing::market_offer>>(std::string_view memory_convention)> read;
};

// Signs a sheet about to be written (sets its signature and key_id); empty: publish unsigned.
using sheet_signer = std::function<void(pricing::price_sheet&)>;
// The /v1/catalog document of a catalog and the index of the sheets then published, signed now
// (main renders and signs it: the store does not render).
using catalog_signer =
    std::function<pricing::signed_catalog(pricing::catalog const&, std::vector<pricing::indexed_sheet>)>;

// What `sign` signed: the sheets that had no signature, and the catalog if it or the index had changed.
struct signed_weeks {
    std::vector<pricing::iso_week> weeks;
    bool catalog = false;
    std::uint64_t log_size = 0;
};

// What the transparency log needs of a publish or a signing run (DESIGN §10): who signs its
// checkpoint (nobody: the entries are appended and the next signed run checkpoints them) and a
// correction's reason, which `publish --replace` must give.
struct log_signing {
    std::optional<tlog::note_signer> checkpoint;
    std::string reason;
};

// The log as published: every entry's text in order and the newest signed checkpoint ("" when
// none was signed yet); each entry's version of its sheet (signed bytes, key, signature).
struct publication_log {
    std::vector<tlog::logged_version> entries;
    std::string checkpoint;
};

// A publication under way (database::begin_publication): one transaction that holds the lock
// publishers take, with what the week's sheet is computed from. The caller computes and signs the
// sheet, then `commit` stores it; a publication dropped before that writes nothing (a replaced
// sheet stays). Throws store_error like database's calls.
class publication {
public:
    publication(publication&&) noexcept;
    publication& operator=(publication&&) noexcept;
    ~publication();

    // An earlier sheet of the week is being replaced.
    bool replaces() const;
    // The catalog's model ids, in id order.
    std::vector<std::string> const& gpu_ids() const;
    // The observations of the week's observation window, in no particular order.
    std::vector<pricing::observation> const& observations() const;

    // What commit stored besides the sheet.
    struct written {
        bool catalog_signed = false;  // a changed catalog was signed with the sheet
        std::uint64_t log_size = 0;   // the publication log's size after it
    };
    // Writes `sheet` with its rows, the raw files observed in its window (what an auditor re-reads)
    // and `canonical_inputs` in chunks (pricing::input_chunks); signs the catalog with `sign_catalog`
    // unless it is empty or the newest signed catalog is the same document; appends this version,
    // and any the log still lacks, to the log (with a signed checkpoint when `log.checkpoint` is
    // given), logged at the sheet's published_at; then notifies listeners and commits. Call once.
    written commit(pricing::price_sheet const& sheet, std::string const& canonical_inputs,
                   catalog_signer const& sign_catalog, log_signing const& log);

private:
    friend class database;
    struct impl;
    explicit publication(std::unique_ptr<impl> i);
    std::unique_ptr<impl> impl_;
};

// Bounds on a connection's waits; zero: libpq's and the server's defaults (no limit).
struct connection_limits {
    std::chrono::milliseconds connect_timeout{0};    // rounded up to whole seconds (libpq's unit)
    // Each statement, on the server: set for this session, so it holds whatever default the role
    // has (any role may change its own: ALTER ROLE CURRENT_USER SET statement_timeout = 0).
    std::chrono::milliseconds statement_timeout{0};
};

// The only code that talks to PostgreSQL: one connection, domain values in and out, libpqxx
// exceptions turned into store_error at this boundary. Not thread-safe: one per thread.
class database {
public:
    explicit database(std::string const& url, connection_limits limits = {});
    ~database();
    database(database const&) = delete;
    database& operator=(database const&) = delete;

    // Applies, in name order, the migrations not yet recorded; returns the names it applied.
    std::vector<std::string> migrate(std::span<const embedded_file> migrations);

    pricing::catalog load_catalog();
    // The newest signed /v1/catalog document (migration 013), if the catalog was ever signed.
    std::optional<pricing::signed_catalog> load_signed_catalog();
    std::vector<pricing::price_sheet> load_sheets();  // oldest first
    // The canonical observations CSV a published sheet was computed from, stored in chunks
    // (pricing::input_chunks): their sizes and the header line, with no chunk read but the first.
    // Empty when none is stored for that week with that inputs_sha256 (it was republished since).
    pricing::input_layout load_input_layout(pricing::iso_week week, std::string const& inputs_sha256);
    // One chunk of it, "" when not stored for that publication (republished since the layout was read).
    std::string load_input_chunk(pricing::iso_week week, std::string const& inputs_sha256, std::size_t seq);

    // All-or-nothing import of a raw listings file: the file is kept byte for byte with the mapping
    // it was read with, and each listing becomes at most one observation (source, listing id,
    // observed_at). Throws store_error (refused) for an unknown source or a file `read` refuses.
    listing_import_summary import_listings(listings_file const& file);
    // The raw files a published sheet was computed from, in import order (their bytes apart).
    std::vector<pricing::raw_input> load_raw_inputs(pricing::iso_week week);
    // The bytes of a raw file or of a mapping, by its SHA-256; nullopt when none is stored.
    std::optional<std::string> load_raw_bytes(std::string const& sha256);

    // All-or-nothing import of an observations CSV. `on_progress` gets the line count now and then.
    import_summary import_observations(std::istream& csv, std::function<void(long)> const& on_progress = {});

    // Opens the publication of `week`: takes the lock publishers take, then refuses (store_error,
    // refused) when the week is published already, unless `replace`, which deletes its sheet in the
    // same transaction; reads the catalog's ids and the week's observations.
    publication begin_publication(pricing::iso_week week, bool replace);

    // Signs every published sheet that has no signature yet, all in one transaction (all or
    // nothing); returns the weeks it signed, oldest first. Signed sheets are left as they are,
    // unless `resign_unless_key` names a key: then every sheet another key signed is signed again
    // (a key rotation). The catalog too, in the same transaction, unless the newest signed catalog
    // is the same document; each signing is appended to the log.
    signed_weeks sign_unsigned(sheet_signer const& sign, catalog_signer const& sign_catalog, pricing::instant now,
                               log_signing const& log = {}, std::string const& resign_unless_key = {});

    // The publication log: every entry and the newest signed checkpoint.
    publication_log load_log();

    // LISTEN for published changes; false where the server cannot (a read-only standby), and then
    // wait_for_change only waits. wait_for_change returns true when a change arrived since it last returned
    // (during another query included) or within `timeout`.
    bool listen_for_changes();
    // A trivial round trip: throws store_error unless the database answers.
    void check();
    bool wait_for_change(std::chrono::milliseconds timeout);

private:
    struct impl;
    std::unique_ptr<impl> impl_;
};

}
