// The published sheets as stored: their rows and each row's source prices, and the chunks of each
// sheet's canonical inputs CSV (migration 011).
#include "server/store/database.hpp"

#include "server/store/session.hpp"

#include <map>

namespace lcg::store {

namespace {

// The layout and the chunks of a week's inputs are read again and again, a chunk at a time, by the
// archive's long-lived connections. octet_length of a compressed value is read from its header,
// without decompressing it, and the CSV's header line from the first kilobyte of chunk 0 (a
// canonical header is under 100 bytes): chunk 0 is decompressed whole once, when it is read for
// the body.
constexpr prepared_statement input_layout_of{"input_layout",
                                             "SELECT c.seq, octet_length(c.csv), CASE WHEN c.seq = 0 THEN "
                                             "split_part(substring(c.csv FROM 1 FOR 1024), E'\\n', 1) END "
                                             "FROM sheet_input_chunk c JOIN sheet s "
                                             "USING (week) WHERE c.week = $1 AND s.inputs_sha256 = $2 ORDER BY c.seq"};
constexpr prepared_statement input_chunk_of{"input_chunk",
                                            "SELECT c.csv FROM sheet_input_chunk c JOIN sheet s USING (week) "
                                            "WHERE c.week = $1 AND c.seq = $2 AND s.inputs_sha256 = $3"};

}

std::vector<pricing::price_sheet> sheets_in(pqxx::transaction_base& tx, std::string_view which_sheets)
{
    std::string const which(which_sheets);
    std::vector<pricing::price_sheet> sheets;
    std::map<std::string, std::size_t> index;
    for (auto const& r : tx.exec("SELECT week, extract(epoch FROM effective_from)::bigint, "
                                 "extract(epoch FROM effective_until)::bigint, extract(epoch FROM published_at)::bigint, "
                                 "inputs_sha256, observations, rules_version, coalesce(signature, ''), "
                                 "coalesce(key_id, '') FROM sheet" + which + " ORDER BY week")) {
        pricing::price_sheet s;
        auto const week = pricing::parse_week(r[0].c_str());
        if (!week)
            throw store_error("a stored sheet has a malformed week");
        s.week = *week;
        s.effective_from = from_epoch(r[1].as<long long>());
        s.effective_until = from_epoch(r[2].as<long long>());
        s.published_at = from_epoch(r[3].as<long long>());
        s.inputs_sha256 = r[4].as<std::string>();
        s.observations = r[5].as<int>();
        s.rules_version = r[6].as<int>();
        s.signature = r[7].as<std::string>();
        s.key_id = r[8].as<std::string>();
        index[r[0].as<std::string>()] = sheets.size();
        sheets.push_back(std::move(s));
    }
    for (auto const& r : tx.exec("SELECT week, gpu, observations, median2_micros, on_demand_micros, spot_micros, "
                                 "reserved_micros, unavailable_reason, coalesce(sources, 0), market_min_micros, "
                                 "market_p25_micros, market_median2_micros, market_p75_micros, market_max_micros "
                                 "FROM sheet_row WHERE week IN (SELECT week "
                                 "FROM sheet" + which + ") ORDER BY week, gpu")) {
        pricing::sheet_row row;
        row.gpu = r[1].as<std::string>();
        row.observations = r[2].as<int>();
        if (!r[3].is_null())
            row.twice_median_micros = r[3].as<std::int64_t>();
        if (!r[4].is_null())
            row.rates = pricing::tier_rates{pricing::money::from_micros(r[4].as<std::int64_t>()),
                                            pricing::money::from_micros(r[5].as<std::int64_t>()),
                                            pricing::money::from_micros(r[6].as<std::int64_t>())};
        else
            row.unavailable_reason = r[7].as<std::string>();
        row.sources = r[8].as<int>();
        if (!r[9].is_null())
            row.market = pricing::market_spread{
                pricing::money::from_micros(r[9].as<std::int64_t>()), pricing::money::from_micros(r[10].as<std::int64_t>()),
                r[11].as<std::int64_t>(), pricing::money::from_micros(r[12].as<std::int64_t>()),
                pricing::money::from_micros(r[13].as<std::int64_t>())};
        sheets[index.at(r[0].as<std::string>())].rows.push_back(std::move(row));
    }
    // Rows and their sources both come in (week, gpu) order, so one pass pairs them.
    std::size_t sheet_at = 0, row_at = 0;
    for (auto const& r : tx.exec("SELECT week, gpu, source, price_micros, listings FROM sheet_row_source WHERE week IN "
                                 "(SELECT week FROM sheet" + which + ") ORDER BY week, gpu, source")) {
        std::size_t const s = index.at(r[0].as<std::string>());
        if (s != sheet_at) {
            sheet_at = s;
            row_at = 0;
        }
        auto& rows = sheets[s].rows;
        while (row_at < rows.size() && rows[row_at].gpu != r[1].c_str())
            ++row_at;
        if (row_at == rows.size())
            throw store_error("a stored source price has no row");
        rows[row_at].by_source.push_back({r[2].as<std::string>(), pricing::money::from_micros(r[3].as<std::int64_t>()),
                                          r[4].as<int>()});
    }
    return sheets;
}

std::vector<pricing::price_sheet> database::load_sheets()
{
    return guarded("loading the sheets", [&] {
        pqxx::read_transaction tx(impl_->conn);
        return sheets_in(tx);
    });
}

pricing::input_layout database::load_input_layout(pricing::iso_week week, std::string const& inputs_sha256)
{
    return guarded("loading the layout of a sheet's inputs", [&] {
        pqxx::read_transaction tx(impl_->conn);
        auto const rows = run_prepared(tx, input_layout_of, pricing::to_string(week), inputs_sha256);
        pricing::input_layout out;
        for (auto const& r : rows) {
            if (r[0].as<std::size_t>() != out.chunk_sizes.size())
                throw store_error("loading the layout of a sheet's inputs: a chunk is missing");
            out.chunk_sizes.push_back(r[1].as<std::size_t>());
            if (!r[2].is_null())
                out.header = r[2].as<std::string>();
        }
        return out;
    });
}

std::string database::load_input_chunk(pricing::iso_week week, std::string const& inputs_sha256, std::size_t seq)
{
    return guarded("loading a sheet's inputs", [&] {
        pqxx::read_transaction tx(impl_->conn);
        auto const r = run_prepared(tx, input_chunk_of, pricing::to_string(week), static_cast<long long>(seq), inputs_sha256);
        return r.empty() ? std::string() : std::string(r[0][0].c_str(), r[0][0].size());
    });
}

}
