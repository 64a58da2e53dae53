#pragma once

// The publication log's use of the store (migration 014), for publish and sign: internal to
// server/store, like session.hpp.
#include "server/store/database.hpp"

#include <pqxx/pqxx>

#include <string_view>
#include <vector>

namespace lcg::store {

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
