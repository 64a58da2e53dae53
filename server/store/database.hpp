#pragma once

#include "embedded_file.hpp"
#include "server/store/inputs.hpp"
#include "pricing/calendar.hpp"
#include "pricing/catalog.hpp"
#include "pricing/observation.hpp"
#include "pricing/sheet.hpp"

#include <chrono>
#include <functional>
#include <istream>
#include <memory>
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
    long bad_lines = 0;
    std::vector<pricing::csv_problem> problems;  // the first 20
    bool ok() const { return bad_lines == 0; }
};

// A model a published sheet does not price although it was observed, and the rule that refused it.
struct refused_model {
    std::string gpu;
    int observations = 0;
    std::string reason;
};
// Signs a sheet about to be written (sets its signature and key_id); empty: publish unsigned.
using sheet_signer = std::function<void(pricing::price_sheet&)>;

struct publish_summary {
    pricing::iso_week week;
    std::vector<refused_model> refused;  // observed but not priced, in catalog order
    int priced_models = 0;
    int models = 0;
    int observations = 0;
    std::string inputs_sha256;
    std::string key_id;  // empty when published unsigned
    bool replaced = false;
};

// Bounds on a connection's waits; zero: libpq's and the server's defaults (no limit).
struct connection_limits {
    std::chrono::milliseconds connect_timeout{0};    // rounded up to whole seconds (libpq's unit)
    std::chrono::milliseconds statement_timeout{0};  // each statement, on the server
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
    std::vector<pricing::price_sheet> load_sheets();  // oldest first
    std::vector<pricing::observation> load_observations(pricing::time_window window);
    // The canonical observations CSV a published sheet was computed from, stored in chunks
    // (store::input_chunks): their sizes and the header line, with no chunk read but the first.
    // Empty when none is stored for that week with that inputs_sha256 (it was republished since).
    input_layout load_input_layout(pricing::iso_week week, std::string const& inputs_sha256);
    // One chunk of it, "" when not stored for that publication (republished since the layout was read).
    std::string load_input_chunk(pricing::iso_week week, std::string const& inputs_sha256, std::size_t seq);

    // All-or-nothing import of an observations CSV. `on_progress` gets the line count now and then.
    import_summary import_observations(std::istream& csv, std::function<void(long)> const& on_progress = {});

    // Computes, signs (unless `sign` is empty) and writes the sheet of `week` in one transaction,
    // then notifies listeners.
    publish_summary publish(pricing::iso_week week, bool replace, pricing::instant now, sheet_signer const& sign);

    // Signs every published sheet that has no signature yet, all in one transaction (all or
    // nothing); returns the weeks it signed, oldest first. Signed sheets are left as they are.
    std::vector<pricing::iso_week> sign_unsigned(sheet_signer const& sign);

    // LISTEN for published changes; false where the server cannot (a read-only standby), and then
    // wait_for_change only waits. wait_for_change returns true when a change arrived within `timeout`.
    bool listen_for_changes();
    // A trivial round trip: throws store_error unless the database answers.
    void check();
    bool wait_for_change(std::chrono::milliseconds timeout);

private:
    struct impl;
    std::unique_ptr<impl> impl_;
};

}
