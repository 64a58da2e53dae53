// Signatures: the signed catalog with the index of the sheets it vouches for, and the signing of
// sheets published unsigned or under a retired key.
#include "server/store/database.hpp"

#include "server/store/session.hpp"

#include <sstream>

namespace lcg::store {

namespace {

constexpr prepared_statement sign_sheet{"sign_sheet", "UPDATE sheet SET signature = $2, key_id = $3 WHERE week = $1"};

// Every published sheet as the signed index lists it, oldest first. octet_length reads a compressed
// chunk's length from its header, without decompressing it.
std::vector<pricing::indexed_sheet> index_in(pqxx::transaction_base& tx)
{
    std::vector<pricing::indexed_sheet> index;
    for (auto const& r : tx.exec("SELECT s.week, extract(epoch FROM s.published_at)::bigint, s.inputs_sha256, "
                                 "coalesce((SELECT sum(octet_length(c.csv)) FROM sheet_input_chunk c "
                                 "WHERE c.week = s.week), 0)::bigint FROM sheet s ORDER BY s.week"))
        index.push_back({pricing::parse_week(r[0].c_str()).value(),
                         pricing::instant(std::chrono::seconds(r[1].as<long long>())), r[2].as<std::string>(),
                         r[3].as<std::uint64_t>()});
    return index;
}

// The index as catalog_signature.sheets keeps it: a line per sheet, "week epoch sha256 bytes".
std::string index_text(std::vector<pricing::indexed_sheet> const& index)
{
    std::string out;
    for (auto const& s : index)
        out += pricing::to_string(s.week) + " " + std::to_string(to_epoch(s.published_at)) + " " + s.inputs_sha256 +
               " " + std::to_string(s.inputs_bytes) + "\n";
    return out;
}

std::vector<pricing::indexed_sheet> index_of(std::string const& text)
{
    std::vector<pricing::indexed_sheet> index;
    std::istringstream lines(text);
    std::string week, sha256;
    long long epoch = 0;
    std::uint64_t bytes = 0;
    while (lines >> week >> epoch >> sha256 >> bytes)
        index.push_back({pricing::parse_week(week).value(), pricing::instant(std::chrono::seconds(epoch)), sha256, bytes});
    return index;
}

// The newest signed catalog as `tx` sees it.
std::optional<pricing::signed_catalog> signed_catalog_in(pqxx::transaction_base& tx)
{
    auto const r = tx.exec("SELECT document, extract(epoch FROM signed_at)::bigint, sha256, key_id, signature, sheets "
                           "FROM catalog_signature ORDER BY signed_at DESC, id DESC LIMIT 1");
    if (r.empty())
        return std::nullopt;
    auto const document = r[0][0].as<std::string>();
    return pricing::signed_catalog{document,
                                   {pricing::instant(std::chrono::seconds(r[0][1].as<long long>())),
                                    r[0][2].as<std::string>(), document.size(), index_of(r[0][5].as<std::string>()),
                                    r[0][3].as<std::string>(), r[0][4].as<std::string>()}};
}

}

bool sign_catalog_in(pqxx::transaction_base& tx, catalog_signer const& sign)
{
    auto next = sign(catalog_in(tx), index_in(tx));
    if (auto const held = signed_catalog_in(tx);
        held && held->document == next.document && held->signature.sheets == next.signature.sheets &&
        held->signature.key_id == next.signature.key_id)
        return false;
    tx.exec_params("INSERT INTO catalog_signature (signed_at, document, sha256, sheets, key_id, signature) "
                   "VALUES (to_timestamp($1), $2, $3, $4, $5, $6)",
                   to_epoch(next.signature.signed_at), next.document, next.signature.catalog_sha256,
                   index_text(next.signature.sheets), next.signature.key_id, next.signature.signature);
    return true;
}

std::optional<pricing::signed_catalog> database::load_signed_catalog()
{
    return guarded("loading the signed catalog", [&] {
        pqxx::read_transaction tx(impl_->conn);
        return signed_catalog_in(tx);
    });
}

signed_weeks database::sign_unsigned(sheet_signer const& sign, catalog_signer const& sign_catalog, pricing::instant now,
                                    log_signing const& log, std::string const& resign_unless_key)
{
    return guarded("signing sheets", [&] {
        pqxx::work tx(impl_->conn);
        tx.exec("LOCK TABLE sheet IN SHARE ROW EXCLUSIVE MODE");  // the lock publish takes
        signed_weeks done;
        std::string const which = resign_unless_key.empty()
                                      ? std::string(" WHERE signature IS NULL")
                                      : " WHERE key_id IS DISTINCT FROM " + tx.quote(resign_unless_key);
        for (auto& sheet : sheets_in(tx, which)) {
            sign(sheet);
            run_prepared(tx, sign_sheet, pricing::to_string(sheet.week), sheet.signature, sheet.key_id);
            done.weeks.push_back(sheet.week);
        }
        done.catalog = sign_catalog_in(tx, sign_catalog);
        done.log_size = append_to_log(tx, sheets_in(tx, unlogged_sheets), now, log);
        if (!done.weeks.empty() || done.catalog)
            notify_change(tx);
        tx.commit();
        return done;
    });
}

}
