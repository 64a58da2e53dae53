// The import of raw market files (issue 24): one transaction from the bytes to the observations.
#include "server/store/database.hpp"
#include "server/digest/digest.hpp"
#include "server/store/session.hpp"

#include "pricing/rules.hpp"

#include <algorithm>
#include <set>

namespace lcg::store {

namespace {

using pricing::listing_outcome;

// What the archive reads again and again on its long-lived connections: a sheet's raw files, and
// the bytes of one by its SHA-256 (a raw file, else a mapping).
constexpr prepared_statement raw_inputs_of{
    "raw_inputs_of", "SELECT r.source, r.format, r.memory_convention, extract(epoch FROM r.observed_at)::bigint, r.sha256, "
                     "octet_length(r.bytes), r.mapping_sha256, r.reader FROM sheet_raw_input s JOIN raw_input r "
                     "ON r.id = s.raw_input_id WHERE s.week = $1 ORDER BY r.id"};
constexpr prepared_statement raw_file_of{"raw_file_of", "SELECT bytes FROM raw_input WHERE sha256 = $1 LIMIT 1"};
constexpr prepared_statement mapping_of{"mapping_of", "SELECT csv FROM listing_mapping WHERE sha256 = $1"};

std::optional<int> optional_int(pqxx::field const& f)
{
    return f.is_null() ? std::nullopt : std::optional(f.as<int>());
}

std::vector<pricing::alias_rule> load_mapping(pqxx::transaction_base& tx)
{
    std::vector<pricing::alias_rule> rules;
    // Ordered by every column, so the published mapping CSV (and its SHA-256) depends only on the rules.
    for (auto const& r : tx.exec("SELECT accelerator, hint, min_memory_gib, max_memory_gib, outcome, "
                                 "coalesce(gpu, ''), note FROM market_alias ORDER BY accelerator, hint, "
                                 "min_memory_gib NULLS FIRST, max_memory_gib NULLS FIRST")) {
        pricing::alias_rule rule{r[0].as<std::string>(), r[1].as<std::string>(), optional_int(r[2]),
                                 optional_int(r[3]), listing_outcome::imported, r[5].as<std::string>(),
                                 r[6].as<std::string>()};
        std::string const outcome = r[4].as<std::string>();
        rule.outcome = outcome == "gpu" ? listing_outcome::imported
                       : outcome == "ambiguous" ? listing_outcome::ambiguous
                                                : listing_outcome::not_in_catalog;
        rules.push_back(std::move(rule));
    }
    return rules;
}

void count(listing_import_summary& summary, pricing::classified_listing const& l)
{
    ++summary.counts[l.outcome];
    if (l.outcome == listing_outcome::imported)
        return;
    auto it = std::find_if(summary.reasons.begin(), summary.reasons.end(),
                           [&](auto const& r) { return r.outcome == l.outcome && r.text == l.reason; });
    if (it == summary.reasons.end())
        summary.reasons.push_back({l.outcome, l.reason, 1});
    else
        ++it->rows;
}

// Stores the raw file (once) and returns its id.
long long store_raw_file(pqxx::work& tx, listings_file const& file, std::string const& memory_convention,
                         std::string const& sha256, std::string const& mapping_sha256, bool& is_new)
{
    pqxx::binarystring const bytes(file.bytes.data(), file.bytes.size());
    auto const inserted = tx.exec_params(
        "INSERT INTO raw_input (source, format, memory_convention, observed_at, sha256, bytes, mapping_sha256, reader) "
        "VALUES ($1, $2, $3, to_timestamp($4), $5, $6, $7, $8) ON CONFLICT (source, format, observed_at, sha256) DO "
        "NOTHING RETURNING id",
        file.source, file.format, memory_convention, file.observed_at.time_since_epoch().count(), sha256, bytes,
        mapping_sha256, pricing::rules::offer_reader_revision);
    is_new = !inserted.empty();
    if (is_new)
        return inserted[0][0].as<long long>();
    auto const stored = tx.exec_params1("SELECT id, mapping_sha256, memory_convention, reader FROM raw_input WHERE "
                                        "source = $1 AND format = $2 AND observed_at = to_timestamp($3) AND sha256 = $4",
                                        file.source, file.format, file.observed_at.time_since_epoch().count(), sha256);
    // The stored file is published with the mapping, convention and reader it was first read with,
    // and an auditor re-reads it with those: listings read now under others would not be its listings.
    if (stored[1].as<std::string>() != mapping_sha256 || stored[2].as<std::string>() != memory_convention ||
        stored[3].as<int>() != pricing::rules::offer_reader_revision)
        throw store_error("this file was imported for this source and time with another mapping, memory convention or "
                          "reader, nothing was imported: to read it with today's, import it with a later --observed-at",
                          true);
    return stored[0].as<long long>();
}

// Inserts the imported listings, skipping those already stored; returns the ids it skipped.
std::set<std::string> insert_observations(pqxx::work& tx, listings_file const& file, long long raw_id,
                                          std::vector<pricing::classified_listing> const& listings)
{
    tx.exec("CREATE TEMPORARY TABLE incoming (listing_id text NOT NULL, gpu text NOT NULL, price_micros bigint NOT "
            "NULL) ON COMMIT DROP");
    {
        pqxx::stream_to copy(tx, "incoming", std::vector<std::string>{"listing_id", "gpu", "price_micros"});
        for (auto const& l : listings)
            if (l.outcome == listing_outcome::imported)
                copy << std::make_tuple(l.listing_id, l.gpu, l.price.micros());
        copy.complete();
    }
    auto const stored = tx.exec_params(
        "INSERT INTO observation (observed_at, gpu, price_micros, source, listing_id, raw_input_id) "
        "SELECT to_timestamp($1), gpu, price_micros, $2, listing_id, $3 FROM incoming "
        "ON CONFLICT (source, listing_id, observed_at) WHERE listing_id <> '' DO NOTHING RETURNING listing_id",
        file.observed_at.time_since_epoch().count(), file.source, raw_id);
    std::set<std::string> skipped;
    for (auto const& l : listings)
        if (l.outcome == listing_outcome::imported)
            skipped.insert(l.listing_id);
    for (auto const& r : stored)
        skipped.erase(r[0].as<std::string>());
    return skipped;
}

}

long listing_import_summary::count(listing_outcome o) const
{
    auto it = counts.find(o);
    return it == counts.end() ? 0 : it->second;
}

listing_import_summary database::import_listings(listings_file const& file)
{
    return guarded("importing listings", [&] {
        pqxx::work tx(impl_->conn);
        auto const source = tx.exec_params("SELECT memory_convention FROM market_source WHERE name = $1", file.source);
        if (source.empty())
            throw store_error("the source " + pricing::quote(file.source) +
                                  " is not in market_source (add its name, kind, homepage and format first)",
                              true);
        std::string const memory_convention = source[0][0].as<std::string>();
        auto offers = file.read(memory_convention);
        if (!offers)
            throw store_error("the file is refused, nothing was imported: " + offers.err().message, true);

        auto const rules = load_mapping(tx);
        std::string const mapping = pricing::mapping_csv(rules);
        std::string const mapping_sha256 = digest::sha256_hex(mapping);
        tx.exec_params("INSERT INTO listing_mapping (sha256, csv) VALUES ($1, $2) ON CONFLICT DO NOTHING",
                       mapping_sha256, mapping);

        listing_import_summary summary;
        summary.sha256 = digest::sha256_hex(file.bytes);
        long long const raw_id =
            store_raw_file(tx, file, memory_convention, summary.sha256, mapping_sha256, summary.raw_file_new);
        auto listings = pricing::classify_offers(*offers, rules);
        auto const skipped = insert_observations(tx, file, raw_id, listings);
        for (auto& l : listings) {
            if (l.outcome == listing_outcome::imported && skipped.contains(l.listing_id)) {
                l.outcome = listing_outcome::duplicate;
                l.reason = "the listing is already imported for this source and time";
            }
            count(summary, l);
        }
        summary.rows = static_cast<long>(listings.size());
        notify_change(tx);
        tx.commit();
        return summary;
    });
}

std::vector<pricing::raw_input> database::load_raw_inputs(pricing::iso_week week)
{
    return guarded("loading a sheet's raw files", [&] {
        pqxx::read_transaction tx(impl_->conn);
        std::vector<pricing::raw_input> out;
        for (auto const& r : run_prepared(tx, raw_inputs_of, pricing::to_string(week)))
            out.push_back({r[0].as<std::string>(), r[1].as<std::string>(), r[2].as<std::string>(),
                           pricing::instant{std::chrono::seconds{r[3].as<long long>()}}, r[4].as<std::string>(),
                           r[5].as<std::int64_t>(), r[6].as<std::string>(), r[7].as<int>()});
        return out;
    });
}

std::optional<std::string> database::load_raw_bytes(std::string const& sha256)
{
    return guarded("loading a raw file", [&]() -> std::optional<std::string> {
        pqxx::read_transaction tx(impl_->conn);
        auto const file = run_prepared(tx, raw_file_of, sha256);
        if (!file.empty())
            return pqxx::binarystring(file[0][0]).str();
        auto const mapping = run_prepared(tx, mapping_of, sha256);
        if (!mapping.empty())
            return mapping[0][0].as<std::string>();
        return std::nullopt;
    });
}

}
