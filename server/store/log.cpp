#include "server/store/session.hpp"

#include "server/digest/digest.hpp"
#include "server/tlog/entry.hpp"
#include "server/tlog/merkle.hpp"
#include "server/tlog/note.hpp"

namespace lcg::store {

namespace {

// Run once per sheet appended.
constexpr prepared_statement newest_entry_of{"newest_log_entry",
                                             "SELECT entry FROM log_entry WHERE week = $1 ORDER BY seq DESC LIMIT 1"};
constexpr prepared_statement insert_log_entry{
    "insert_log_entry",
    "INSERT INTO log_entry (seq, week, kind, published_at, logged_at, entry, signed_bytes, key_id, "
    "signature) VALUES ($1, $2, $3, to_timestamp($4), to_timestamp($5), $6, $7, $8, $9)"};

tlog::entry_kind kind_after(pqxx::transaction_base& tx, std::string const& week, std::string const& signed_sha256)
{
    auto const newest = run_prepared(tx, newest_entry_of, week);
    if (newest.empty())
        return tlog::kind_following(std::nullopt, signed_sha256);
    auto const previous = tlog::parse_entry(newest[0][0].c_str());
    if (!previous)
        throw store_error("a stored log entry of " + week + " is malformed: " + previous.err().message);
    return tlog::kind_following(previous->signed_sha256, signed_sha256);
}

// The log's tree, rebuilt from the stored entries: an auditor's view, not a cached one.
tlog::merkle_tree tree_in(pqxx::transaction_base& tx)
{
    tlog::merkle_tree tree;
    for (auto const& r : tx.exec("SELECT entry FROM log_entry ORDER BY seq"))
        tree.append(tlog::leaf_hash(std::string_view(r[0].c_str(), r[0].size())));
    return tree;
}

// Signs a checkpoint of the log's size unless one is stored. The origin is the signer's name, or
// when that is empty the log's own (its newest checkpoint's), or tlog::default_origin.
void checkpoint(pqxx::transaction_base& tx, tlog::note_signer signer, pricing::instant now)
{
    auto const newest = tx.exec("SELECT note FROM log_checkpoint ORDER BY size DESC LIMIT 1");
    std::string origin(tlog::default_origin);
    if (!newest.empty()) {
        origin = tlog::origin_of(newest[0][0].c_str());
        if (!signer.name.empty() && origin != signer.name)
            throw store_error("the publication log's origin is " + origin + ", not " + signer.name +
                                  ": a log keeps its origin for ever (its witnesses know it by that name)",
                              true);
    }
    if (signer.name.empty())
        signer.name = origin;
    auto const tree = tree_in(tx);
    if (tree.size() == 0 || !tx.exec_params("SELECT 1 FROM log_checkpoint WHERE size = $1",
                                            static_cast<long long>(tree.size())).empty())
        return;
    auto const note = tlog::sign_note(tlog::checkpoint_body(signer.name, tree.size(), tree.root(tree.size())), signer);
    tx.exec_params("INSERT INTO log_checkpoint (size, signed_at, note) VALUES ($1, to_timestamp($2), $3)",
                   static_cast<long long>(tree.size()), to_epoch(now), note);
}

}

std::uint64_t append_to_log(pqxx::transaction_base& tx, std::vector<pricing::price_sheet> const& sheets,
                            pricing::instant now, log_signing const& log)
{
    auto const size = tx.exec("SELECT count(*) FROM log_entry")[0][0].as<long long>();
    long long seq = size;
    for (auto const& sheet : sheets) {
        std::string const week = pricing::to_string(sheet.week);
        std::string const bytes = pricing::signed_bytes(sheet);
        tlog::log_entry e;
        e.week = sheet.week;
        e.signed_sha256 = digest::sha256_hex(bytes);
        e.kind = kind_after(tx, week, e.signed_sha256);
        e.published_at = sheet.published_at;
        e.logged_at = now;
        e.inputs_sha256 = sheet.inputs_sha256;
        e.key_id = sheet.key_id;
        if (e.kind == tlog::entry_kind::correction)
            e.reason = log.reason;
        run_prepared(tx, insert_log_entry, seq++, week, std::string(tlog::to_string(e.kind)), to_epoch(e.published_at),
                     to_epoch(now), tlog::entry_text(e), bytes, null_if_empty(sheet.key_id), null_if_empty(sheet.signature));
    }
    if (log.checkpoint)
        checkpoint(tx, *log.checkpoint, now);
    return static_cast<std::uint64_t>(seq);
}

publication_log database::load_log()
{
    return guarded("loading the publication log", [&] {
        pqxx::read_transaction tx(impl_->conn);
        publication_log out;
        for (auto const& r : tx.exec("SELECT entry, signed_bytes, coalesce(key_id, ''), coalesce(signature, '') "
                                     "FROM log_entry ORDER BY seq"))
            out.entries.push_back({r[0].as<std::string>(), r[1].as<std::string>(), r[2].as<std::string>(),
                                   r[3].as<std::string>()});
        if (auto const r = tx.exec("SELECT note FROM log_checkpoint ORDER BY size DESC LIMIT 1"); !r.empty())
            out.checkpoint = r[0][0].as<std::string>();
        return out;
    });
}

}
