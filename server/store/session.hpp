#pragma once

// What the store's use cases share, and nothing outside server/store includes: the connection
// behind a database and the one boundary where libpqxx's exceptions become store_error.
#include "server/store/database.hpp"

#include <pqxx/pqxx>

#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lcg::store {

inline constexpr char const* change_channel = "lowcostgpu_changed";

// Tells the readers LISTENing (the refreshers) that what they serve changed, on commit.
inline void notify_change(pqxx::transaction_base& tx) { tx.exec(std::string("NOTIFY ") + change_channel); }

// Timestamps cross the boundary as whole seconds since the epoch.
inline pricing::instant from_epoch(long long seconds) { return pricing::instant{std::chrono::seconds{seconds}}; }
inline long long to_epoch(pricing::instant t) { return t.time_since_epoch().count(); }

// SQL NULL for an empty text (an unsigned sheet's signature and key).
inline std::optional<std::string> null_if_empty(std::string const& s)
{
    return s.empty() ? std::nullopt : std::optional<std::string>(s);
}

// Runs `work`, turning libpqxx's exceptions into store_error without their SQL text.
template <class F>
auto guarded(char const* what, F&& work)
{
    try {
        return work();
    } catch (store_error const&) {
        throw;
    } catch (pqxx::broken_connection const&) {
        throw store_error(std::string(what) + ": the database connection was lost");
    } catch (pqxx::integrity_constraint_violation const& e) {
        throw store_error(std::string(what) + ": refused by a database constraint", true);
    } catch (pqxx::sql_error const& e) {
        throw store_error(std::string(what) + ": database error " + e.sqlstate());
    } catch (pqxx::failure const&) {
        throw store_error(std::string(what) + ": database failure");
    }
}

// A statement run many times with parameters (a row per model, a chunk, a log entry, an archive
// read): prepared once per connection. libpqxx registers it with the server the first time it runs
// on a connection, and defining it again with the same text changes nothing.
struct prepared_statement {
    char const* name;
    char const* sql;
};

template <class... Args>
pqxx::result run_prepared(pqxx::transaction_base& tx, prepared_statement const& statement, Args&&... args)
{
    tx.conn().prepare(statement.name, statement.sql);
    return tx.exec_prepared(statement.name, std::forward<Args>(args)...);
}

class change_receiver final : public pqxx::notification_receiver {
public:
    change_receiver(pqxx::connection_base& c) : pqxx::notification_receiver(c, change_channel) {}
    void operator()(std::string const&, int) override { received = true; }
    bool received = false;
};

// `url` with libpq's connect_timeout added: as a query parameter of a URI, or one more
// keyword=value pair of a connection string.
inline std::string with_connect_timeout(std::string const& url, std::chrono::milliseconds timeout)
{
    if (timeout <= std::chrono::milliseconds::zero())
        return url;
    auto const seconds = std::to_string(std::max<long long>(1, (timeout.count() + 999) / 1000));
    if (!url.starts_with("postgresql://") && !url.starts_with("postgres://"))
        return url + " connect_timeout=" + seconds;
    return url + (url.find('?') == std::string::npos ? "?" : "&") + "connect_timeout=" + seconds;
}

struct database::impl {
    impl(std::string const& url, connection_limits limits) : conn(with_connect_timeout(url, limits.connect_timeout))
    {
        conn.set_variable("TimeZone", "'UTC'");
        if (limits.statement_timeout > std::chrono::milliseconds::zero())
            conn.set_variable("statement_timeout", std::to_string(limits.statement_timeout.count()));
    }
    pqxx::connection conn;
    std::unique_ptr<change_receiver> receiver;
};

// What publish and sign share, each defined with the use case it belongs to.

// The catalog as `tx` sees it (catalog.cpp).
pricing::catalog catalog_in(pqxx::transaction_base& tx);

// The published sheets, oldest first (sheets.cpp); `which_sheets`, a constant condition on table
// sheet, selects some.
std::vector<pricing::price_sheet> sheets_in(pqxx::transaction_base& tx, std::string_view which_sheets = "");

// The observations of `window`, in no particular order (observations.cpp).
std::vector<pricing::observation> observations_in(pqxx::transaction_base& tx, pricing::time_window window);

// Signs the catalog and the sheet index `tx` sees and stores them, unless the newest signed
// catalog is that document with that index already, signed by the same key: true when it stored
// one (signatures.cpp).
bool sign_catalog_in(pqxx::transaction_base& tx, catalog_signer const& sign);

// The publication log (migration 014), for publish and sign (log.cpp).
// The condition (on table `sheet`) of the sheets whose current version the log lacks: never
// logged, or published or signed again since their newest entry.
inline constexpr std::string_view unlogged_sheets =
    " WHERE NOT EXISTS (SELECT FROM (SELECT e.published_at, e.signature FROM log_entry e WHERE e.week = sheet.week "
    "ORDER BY e.seq DESC LIMIT 1) newest WHERE newest.published_at = sheet.published_at "
    "AND newest.signature IS NOT DISTINCT FROM sheet.signature)";

// Appends an entry for each of `sheets` (their current version), oldest week first, then signs a
// checkpoint of the new size when `log.checkpoint` is given; returns the log's size. The kind of
// each entry follows from the week's newest entry: none, a publication; other signed bytes, a
// correction (with `log.reason`); the same bytes, a signature. Refuses a checkpoint under another
// origin than the log's.
std::uint64_t append_to_log(pqxx::transaction_base& tx, std::vector<pricing::price_sheet> const& sheets,
                            pricing::instant now, log_signing const& log);

}
