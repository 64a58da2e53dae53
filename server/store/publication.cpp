// A publication's transaction: the lock, the week's inputs, then the sheet written with its rows,
// its raw files, its inputs in chunks, the catalog's signature and the log. What to publish is
// decided by the caller (server/cli/publication.cpp): the store only reads and writes.
#include "server/store/database.hpp"

#include "server/store/session.hpp"

namespace lcg::store {

// A row per model and a price per source of each, a chunk per MiB of inputs: run many times each.
namespace {

constexpr prepared_statement insert_sheet_row{
    "insert_sheet_row",
    "INSERT INTO sheet_row (week, gpu, observations, median2_micros, on_demand_micros, spot_micros, "
    "reserved_micros, unavailable_reason, sources, market_min_micros, market_p25_micros, "
    "market_median2_micros, market_p75_micros, market_max_micros) "
    "VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14)"};
constexpr prepared_statement insert_row_source{
    "insert_row_source", "INSERT INTO sheet_row_source (week, gpu, source, price_micros, listings) VALUES ($1,$2,$3,$4,$5)"};
constexpr prepared_statement insert_input_chunk{"insert_input_chunk",
                                                "INSERT INTO sheet_input_chunk (week, seq, csv) VALUES ($1, $2, $3)"};

std::optional<std::int64_t> micros_of(std::optional<pricing::market_spread> const& m, pricing::money pricing::market_spread::*part)
{
    if (!m)
        return std::nullopt;
    return ((*m).*part).micros();
}

void insert_row(pqxx::transaction_base& tx, std::string const& week, pricing::sheet_row const& row)
{
    std::optional<std::int64_t> od, spot, reserved;
    std::optional<std::string> reason;
    if (row.rates) {
        od = row.rates->on_demand.micros();
        spot = row.rates->spot.micros();
        reserved = row.rates->reserved.micros();
    } else {
        reason = row.unavailable_reason;
    }
    bool const v2 = row.market.has_value() || row.sources > 0;
    run_prepared(tx, insert_sheet_row, week, row.gpu, row.observations, row.twice_median_micros, od, spot, reserved,
                 reason, v2 ? std::optional(row.sources) : std::nullopt,
                 micros_of(row.market, &pricing::market_spread::min), micros_of(row.market, &pricing::market_spread::p25),
                 row.market ? std::optional(row.market->twice_median_micros) : std::nullopt,
                 micros_of(row.market, &pricing::market_spread::p75), micros_of(row.market, &pricing::market_spread::max));
    for (auto const& s : row.by_source)
        run_prepared(tx, insert_row_source, week, row.gpu, s.source, s.price.micros(), s.listings);
}

}

struct publication::impl {
    impl(pqxx::connection& conn, pricing::iso_week w)
        : tx(conn), week(pricing::to_string(w)), window(pricing::observation_window(w))
    {
    }
    pqxx::work tx;
    std::string week;
    pricing::time_window window;
    bool replaced = false;
    std::vector<std::string> ids;
    std::vector<pricing::observation> observations;
};

publication::publication(std::unique_ptr<impl> i) : impl_(std::move(i)) {}
publication::publication(publication&&) noexcept = default;
publication& publication::operator=(publication&&) noexcept = default;
publication::~publication() = default;

bool publication::replaces() const { return impl_->replaced; }
std::vector<std::string> const& publication::gpu_ids() const { return impl_->ids; }
std::vector<pricing::observation> const& publication::observations() const { return impl_->observations; }

publication database::begin_publication(pricing::iso_week week, bool replace)
{
    return guarded("publishing", [&] {
        auto p = std::make_unique<publication::impl>(impl_->conn, week);
        auto& tx = p->tx;
        std::string const& name = p->week;
        // Serialises publishers of the same database so a replace cannot interleave with another; a
        // table lock the reader cannot take (it may lock only ACCESS SHARE), unlike an advisory lock.
        tx.exec("LOCK TABLE sheet IN SHARE ROW EXCLUSIVE MODE");
        if (!tx.exec_params("SELECT 1 FROM sheet WHERE week = $1", name).empty()) {
            if (!replace)
                throw store_error("the sheet " + name + " is already published (use --replace to recompute it)", true);
            tx.exec_params("DELETE FROM sheet WHERE week = $1", name);
            p->replaced = true;
        }
        for (auto const& r : tx.exec("SELECT id FROM gpu_model ORDER BY id"))
            p->ids.push_back(r[0].as<std::string>());
        p->observations = observations_in(tx, p->window);
        return publication(std::move(p));
    });
}

publication::written publication::commit(pricing::price_sheet const& sheet, std::string const& canonical_inputs,
                                         catalog_signer const& sign_catalog, log_signing const& log)
{
    return guarded("publishing", [&] {
        auto& tx = impl_->tx;
        std::string const& name = impl_->week;
        auto const& window = impl_->window;
        tx.exec_params("INSERT INTO sheet (week, effective_from, effective_until, published_at, inputs_sha256, "
                       "observations, rules_version, signature, key_id) VALUES ($1, to_timestamp($2), "
                       "to_timestamp($3), to_timestamp($4), $5, $6, $7, $8, $9)",
                       name, to_epoch(sheet.effective_from), to_epoch(sheet.effective_until), to_epoch(sheet.published_at),
                       sheet.inputs_sha256, sheet.observations, sheet.rules_version, null_if_empty(sheet.signature),
                       null_if_empty(sheet.key_id));
        for (auto const& row : sheet.rows)
            insert_row(tx, name, row);
        // The raw files observed in the window, in import order: what an auditor re-reads.
        tx.exec_params("INSERT INTO sheet_raw_input (week, raw_input_id) SELECT $1, id FROM raw_input "
                       "WHERE observed_at >= to_timestamp($2) AND observed_at < to_timestamp($3)",
                       name, to_epoch(window.from), to_epoch(window.until));
        // In chunks of whole lines, read back one at a time (migration 011), compressed with lz4
        // where the server has it (the column's setting).
        long long seq = 0;
        for (auto const chunk : pricing::input_chunks(canonical_inputs))
            run_prepared(tx, insert_input_chunk, name, seq++, std::string(chunk));
        written out;
        out.catalog_signed = sign_catalog && sign_catalog_in(tx, sign_catalog);
        // This version, and any the log still lacks (sheets published before it existed).
        out.log_size = append_to_log(tx, sheets_in(tx, unlogged_sheets), sheet.published_at, log);
        notify_change(tx);
        tx.commit();
        return out;
    });
}

}
