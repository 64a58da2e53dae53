#include "server/store/database.hpp"

#include "server/store/digest.hpp"
#include "server/store/session.hpp"

#include "pricing/signing.hpp"

#include <pqxx/pqxx>

#include <algorithm>
#include <array>
#include <charconv>
#include <map>
#include <set>
#include <sstream>
#include <thread>
#include <utility>

namespace lcg::store {

namespace {

using namespace std::chrono;

pricing::instant from_epoch(long long seconds) { return pricing::instant{std::chrono::seconds{seconds}}; }
long long to_epoch(pricing::instant t) { return t.time_since_epoch().count(); }

std::vector<std::string> parse_text_array(std::string const& literal)
{
    // Our arrays hold simple tokens ("v6"), so PostgreSQL prints them unquoted: {v6,v7}.
    std::vector<std::string> out;
    std::string item;
    for (char c : literal) {
        if (c == '{' || c == '"')
            continue;
        if (c == ',' || c == '}') {
            if (!item.empty())
                out.push_back(item);
            item.clear();
        } else {
            item += c;
        }
    }
    return out;
}

std::optional<pricing::figure> optional_figure(pqxx::field const& f)
{
    if (f.is_null())
        return std::nullopt;
    return pricing::parse_figure(f.c_str());
}

// Undoes COPY's text-format escaping of one field: COPY TO writes a backslash before a backslash
// and before the control characters it spells as letters, nothing else (our columns are NOT NULL).
void copy_unescape(std::string_view text, std::string& out)
{
    out.clear();
    for (std::size_t i = 0; i < text.size(); ++i) {
        char c = text[i];
        if (c == '\\' && ++i < text.size()) {
            static constexpr std::string_view letters = "bfnrtv", controls = "\b\f\n\r\t\v";
            auto const at = letters.find(text[i]);
            c = at == std::string_view::npos ? text[i] : controls[at];
        }
        out += c;
    }
}

// Splits a line of COPY's text format into exactly `fields.size()` tab-separated fields. Most point
// into `line`; a field with escapes is unescaped into its slot of `storage`.
void split_copy_line(std::string_view line, std::span<std::string_view> fields, std::span<std::string> storage)
{
    if (line.ends_with('\n'))
        line.remove_suffix(1);
    bool const escaped = line.find('\\') != std::string_view::npos;
    for (std::size_t i = 0; i < fields.size(); ++i) {
        auto const tab = line.find('\t');
        if ((tab == std::string_view::npos) != (i + 1 == fields.size()))
            throw store_error("reading observations: a COPY line has the wrong number of fields");
        fields[i] = line.substr(0, tab);
        if (escaped && fields[i].find('\\') != std::string_view::npos) {
            copy_unescape(fields[i], storage[i]);
            fields[i] = storage[i];
        }
        line.remove_prefix(tab == std::string_view::npos ? line.size() : tab + 1);
    }
}

long long copy_integer(std::string_view text)
{
    long long value = 0;
    auto const [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size())
        throw store_error("reading observations: a COPY field is not an integer");
    return value;
}

// The observations of `window`, in no particular order. COPY lets us parse a million rows while
// the server is still sending them, where a query result arrives whole before the first row is
// read. libpqxx 6.4's stream_from takes only a table name, which it puts into COPY unquoted, so a
// parenthesised query works there too; the window bounds are integers we format ourselves.
// date_part's double is exact for whole seconds (imports refuse fractions) and costs the server a
// tenth of a second less per million rows than extract's numeric.
std::vector<pricing::observation> observations_in(pqxx::transaction_base& tx, pricing::time_window window)
{
    pqxx::stream_from copy(tx, "(SELECT date_part('epoch', observed_at)::bigint, gpu, price_micros, source, "
                               "listing_id, source_url FROM observation WHERE observed_at >= to_timestamp(" +
                                   std::to_string(to_epoch(window.from)) + ") AND observed_at < to_timestamp(" +
                                   std::to_string(to_epoch(window.until)) + "))");
    std::vector<pricing::observation> out;
    std::string line;
    std::array<std::string_view, 6> f;
    std::array<std::string, 6> unescaped;
    while (copy.get_raw_line(line)) {
        split_copy_line(line, f, unescaped);
        out.push_back({from_epoch(copy_integer(f[0])), std::string(f[1]),
                       pricing::money::from_micros(copy_integer(f[2])), std::string(f[3]), std::string(f[4]),
                       std::string(f[5])});
    }
    copy.complete();
    return out;
}

// The published sheets, oldest first; `which`, a constant condition on table sheet, selects some.
std::vector<pricing::price_sheet> sheets_in(pqxx::transaction_base& tx, std::string_view which_sheets = "")
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

std::optional<std::int64_t> micros_of(std::optional<pricing::market_spread> const& m, pricing::money pricing::market_spread::*part)
{
    if (!m)
        return std::nullopt;
    return ((*m).*part).micros();
}

void insert_row(pqxx::work& tx, std::string const& week, pricing::sheet_row const& row, std::optional<std::int64_t> od,
                std::optional<std::int64_t> spot, std::optional<std::int64_t> reserved,
                std::optional<std::string> const& reason)
{
    bool const v2 = row.market.has_value() || row.sources > 0;
    tx.exec_params("INSERT INTO sheet_row (week, gpu, observations, median2_micros, on_demand_micros, spot_micros, "
                   "reserved_micros, unavailable_reason, sources, market_min_micros, market_p25_micros, "
                   "market_median2_micros, market_p75_micros, market_max_micros) "
                   "VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14)",
                   week, row.gpu, row.observations, row.twice_median_micros, od, spot, reserved, reason,
                   v2 ? std::optional(row.sources) : std::nullopt, micros_of(row.market, &pricing::market_spread::min),
                   micros_of(row.market, &pricing::market_spread::p25),
                   row.market ? std::optional(row.market->twice_median_micros) : std::nullopt,
                   micros_of(row.market, &pricing::market_spread::p75), micros_of(row.market, &pricing::market_spread::max));
    for (auto const& s : row.by_source)
        tx.exec_params("INSERT INTO sheet_row_source (week, gpu, source, price_micros, listings) VALUES ($1,$2,$3,$4,$5)",
                       week, row.gpu, s.source, s.price.micros(), s.listings);
}


}

database::database(std::string const& url, connection_limits limits)
    : impl_(guarded("connecting to PostgreSQL", [&] { return std::make_unique<impl>(url, limits); }))
{
}

database::~database() = default;

std::vector<std::string> database::migrate(std::span<const embedded_file> migrations)
{
    return guarded("migrating", [&] {
        std::vector<embedded_file> ordered(migrations.begin(), migrations.end());
        std::sort(ordered.begin(), ordered.end(), [](auto const& a, auto const& b) { return a.name < b.name; });
        std::vector<std::string> applied;
        for (auto const& m : ordered) {
            pqxx::work tx(impl_->conn);
            tx.exec("CREATE TABLE IF NOT EXISTS schema_migration (name text PRIMARY KEY, "
                    "applied_at timestamptz NOT NULL DEFAULT now())");
            // Two migrate runs at once must not both apply a file. A table lock, not an advisory one:
            // the reader may only take ACCESS SHARE here, which does not conflict, while any role can
            // take any advisory lock. (Two very first runs may still race on the CREATE and one fail.)
            tx.exec("LOCK TABLE schema_migration IN SHARE ROW EXCLUSIVE MODE");
            if (!tx.exec_params("SELECT 1 FROM schema_migration WHERE name = $1", std::string(m.name)).empty())
                continue;
            tx.exec(std::string(m.content));
            tx.exec_params("INSERT INTO schema_migration (name) VALUES ($1)", std::string(m.name));
            tx.commit();
            applied.emplace_back(m.name);
        }
        return applied;
    });
}

namespace {

// The catalog as `tx` sees it.
pricing::catalog catalog_in(pqxx::transaction_base& tx)
{
    pricing::catalog cat;
    for (auto const& r : tx.exec(
             "SELECT id, name, vendor, architecture, form_factor, vram_gb, memory_type, memory_bandwidth_gbs, "
             "fp16_dense_tflops, fp8_dense_tflops, tdp_w, interconnect_gbs, "
             "mig_max_instances, sm_count, source, notes, max_gpus_per_instance, max_vcpus, max_memory_gib, "
             "cpu_generations, coalesce(interconnect_kind, '') FROM gpu_model ORDER BY id")) {
        pricing::gpu_model g;
        g.id = r[0].as<std::string>();
        g.name = r[1].as<std::string>();
        g.vendor = r[2].as<std::string>();
        g.architecture = r[3].as<std::string>();
        g.form_factor = r[4].as<std::string>();
        g.vram_gb = r[5].as<int>();
        g.memory_type = r[6].as<std::string>();
        g.memory_bandwidth_gbs = r[7].as<int>();
        g.fp16_dense_tflops = pricing::parse_figure(r[8].c_str());
        g.fp8_dense_tflops = optional_figure(r[9]);
        g.tdp_w = pricing::parse_figure(r[10].c_str());
        g.interconnect_gbs = optional_figure(r[11]);
        g.interconnect_kind = r[20].as<std::string>();
        g.mig_max_instances = r[12].as<int>();
        g.sm_count = r[13].as<int>();
        g.source = r[14].as<std::string>();
        g.notes = r[15].as<std::string>();
        g.max_gpus_per_instance = r[16].as<int>();
        g.max_vcpus = r[17].as<int>();
        g.max_memory_gib = r[18].as<int>();
        g.cpu_generations = parse_text_array(r[19].as<std::string>());
        cat.gpus.push_back(std::move(g));
    }
    for (auto const& r : tx.exec("SELECT gpu, name, memory_gb, compute_slices, max_instances FROM mig_profile "
                                 "ORDER BY gpu, compute_slices, memory_gb, name")) {
        auto* g = const_cast<pricing::gpu_model*>(cat.find(r[0].c_str()));
        if (g)
            g->mig_profiles.push_back({r[1].as<std::string>(), r[2].as<int>(), r[3].as<int>(), r[4].as<int>()});
    }
    for (auto const& r : tx.exec("SELECT gpu, region, available_gpus FROM inventory ORDER BY gpu, region"))
        cat.inventory.push_back({r[0].as<std::string>(), r[1].as<std::string>(), r[2].as<int>()});
    for (auto const& r : tx.exec("SELECT code, city, country, continent, sovereign FROM region ORDER BY code"))
        cat.regions.push_back({r[0].as<std::string>(), r[1].as<std::string>(), r[2].as<std::string>(),
                               r[3].as<std::string>(), r[4].as<bool>()});
    for (auto const& r : tx.exec("SELECT gpu, region, array_agg(cpu_generation ORDER BY cpu_generation)::text "
                                 "FROM gpu_region_cpu_generation GROUP BY gpu, region ORDER BY gpu, region")) {
        auto* g = const_cast<pricing::gpu_model*>(cat.find(r[0].c_str()));
        if (g)
            g->extra_cpu_generations.push_back({r[1].as<std::string>(), parse_text_array(r[2].as<std::string>())});
    }
    for (auto const& r : tx.exec("SELECT name, kind, homepage, format FROM market_source ORDER BY name"))
        cat.sources.push_back({r[0].as<std::string>(), r[1].as<std::string>(), r[2].as<std::string>(),
                               r[3].as<std::string>()});
    // Every region offers every model, at the same price.
    for (auto& g : cat.gpus)
        for (auto const& region : cat.regions)
            g.regions.push_back(region.code);
    return cat;
}

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

// Signs the catalog and the sheet index `tx` sees and stores them, unless the newest signed
// catalog is that document with that index already, signed by the same key: true when it stored one.
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

}

pricing::catalog database::load_catalog()
{
    return guarded("loading the catalog", [&] {
        pqxx::read_transaction tx(impl_->conn);
        return catalog_in(tx);
    });
}

std::optional<pricing::signed_catalog> database::load_signed_catalog()
{
    return guarded("loading the signed catalog", [&] {
        pqxx::read_transaction tx(impl_->conn);
        return signed_catalog_in(tx);
    });
}

std::vector<pricing::price_sheet> database::load_sheets()
{
    return guarded("loading the sheets", [&] {
        pqxx::read_transaction tx(impl_->conn);
        return sheets_in(tx);
    });
}

input_layout database::load_input_layout(pricing::iso_week week, std::string const& inputs_sha256)
{
    return guarded("loading the layout of a sheet's inputs", [&] {
        pqxx::read_transaction tx(impl_->conn);
        // octet_length of a compressed value is read from its header, without decompressing it, and
        // the CSV's header line from the first kilobyte of chunk 0 (a canonical header is under 100
        // bytes): chunk 0 is decompressed whole once, when it is read for the body.
        auto const rows = tx.exec_params("SELECT c.seq, octet_length(c.csv), CASE WHEN c.seq = 0 THEN "
                                         "split_part(substring(c.csv FROM 1 FOR 1024), E'\\n', 1) END "
                                         "FROM sheet_input_chunk c JOIN sheet s "
                                         "USING (week) WHERE c.week = $1 AND s.inputs_sha256 = $2 ORDER BY c.seq",
                                         pricing::to_string(week), inputs_sha256);
        input_layout out;
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
        auto const r = tx.exec_params("SELECT c.csv FROM sheet_input_chunk c JOIN sheet s USING (week) "
                                      "WHERE c.week = $1 AND c.seq = $2 AND s.inputs_sha256 = $3",
                                      pricing::to_string(week), static_cast<long long>(seq), inputs_sha256);
        return r.empty() ? std::string() : std::string(r[0][0].c_str(), r[0][0].size());
    });
}

import_summary database::import_observations(std::istream& csv, std::function<void(long)> const& on_progress)
{
    return guarded("importing observations", [&] {
        std::set<std::string, std::less<>> known;
        {
            pqxx::read_transaction tx(impl_->conn);
            for (auto const& r : tx.exec("SELECT id FROM gpu_model"))
                known.insert(r[0].as<std::string>());
        }
        pricing::observation_csv_reader reader([&](std::string_view id) { return known.contains(id); });
        import_summary summary;
        pqxx::work tx(impl_->conn);
        // COPY streams rows as they are read; after the first bad line we only keep reading to
        // report every problem, and the transaction is never committed. Rows go through a
        // temporary table so that a listing already imported (same source, listing id and time) is
        // skipped and counted instead of doubled.
        tx.exec("CREATE TEMPORARY TABLE incoming (LIKE observation INCLUDING DEFAULTS) ON COMMIT DROP");
        tx.exec("ALTER TABLE incoming DROP COLUMN id");
        pqxx::stream_to copy(tx, "incoming",
                             std::vector<std::string>{"observed_at", "gpu", "price_micros", "source", "listing_id",
                                                      "source_url"});
        std::string line;
        while (std::getline(csv, line)) {
            auto const obs = reader.read_line(line);
            if (obs && reader.ok()) {
                copy << std::make_tuple(pricing::to_rfc3339(obs->observed_at), obs->gpu, obs->price.micros(),
                                        obs->source, obs->listing_id, obs->source_url);
                ++summary.imported;
            }
            if (on_progress && reader.lines_read() % 100'000 == 0)
                on_progress(reader.lines_read());
        }
        reader.finish();
        copy.complete();
        summary.bad_lines = reader.bad_lines();
        summary.problems = reader.problems();
        if (!summary.ok()) {
            summary.imported = 0;
            tx.abort();
            return summary;
        }
        long const inserted = tx.exec(
            "INSERT INTO observation (observed_at, gpu, price_micros, source, listing_id, source_url) "
            "SELECT observed_at, gpu, price_micros, source, listing_id, source_url FROM incoming "
            "ON CONFLICT (source, listing_id, observed_at) WHERE listing_id <> '' DO NOTHING").affected_rows();
        summary.duplicates = summary.imported - inserted;
        summary.imported = inserted;
        tx.exec(std::string("NOTIFY ") + change_channel);
        tx.commit();
        return summary;
    });
}

publish_summary database::publish(pricing::iso_week week, bool replace, pricing::instant now, sheet_signer const& sign,
                                   catalog_signer const& sign_catalog, log_signing const& log)
{
    return guarded("publishing", [&] {
        std::string const name = pricing::to_string(week);
        auto const window = pricing::observation_window(week);
        if (!pricing::published_in_time(window.until, now))
            throw store_error("refusing to publish " + name + ": its observation window closes at " +
                                  pricing::to_rfc3339(window.until) + "; a week is published once its window has closed",
                              true);
        pqxx::work tx(impl_->conn);
        publish_summary summary;
        summary.week = week;
        // Serialises publishers of the same database so a replace cannot interleave with another; a
        // table lock the reader cannot take (it may lock only ACCESS SHARE), unlike an advisory lock.
        tx.exec("LOCK TABLE sheet IN SHARE ROW EXCLUSIVE MODE");
        if (!tx.exec_params("SELECT 1 FROM sheet WHERE week = $1", name).empty()) {
            if (!replace)
                throw store_error("the sheet " + name + " is already published (use --replace to recompute it)", true);
            tx.exec_params("DELETE FROM sheet WHERE week = $1", name);
            summary.replaced = true;
        }
        std::vector<std::string> ids;
        for (auto const& r : tx.exec("SELECT id FROM gpu_model ORDER BY id"))
            ids.push_back(r[0].as<std::string>());

        std::vector<pricing::observation> const inputs = observations_in(tx, window);
        pricing::price_sheet sheet;
        sheet.week = week;
        sheet.effective_from = window.until;
        sheet.effective_until = window.until + days{7};
        sheet.published_at = now;
        sheet.rows = pricing::compute_rows(ids, inputs, sheet.rules_version);
        if (auto const bad = pricing::cap_violations(sheet.rows); !bad.empty())
            throw store_error("refusing to publish " + name + ": on-demand above the cap for " + bad.front(), true);

        sheet.observations = static_cast<int>(inputs.size());
        std::string const canonical = pricing::canonical_observations_csv(inputs);
        sheet.inputs_sha256 = sha256_hex(canonical);
        if (sign)
            sign(sheet);
        summary.observations = sheet.observations;
        summary.inputs_sha256 = sheet.inputs_sha256;
        summary.key_id = sheet.key_id;
        tx.exec_params("INSERT INTO sheet (week, effective_from, effective_until, published_at, inputs_sha256, "
                       "observations, rules_version, signature, key_id) VALUES ($1, to_timestamp($2), "
                       "to_timestamp($3), to_timestamp($4), $5, $6, $7, $8, $9)",
                       name, to_epoch(sheet.effective_from), to_epoch(sheet.effective_until), to_epoch(now),
                       sheet.inputs_sha256, sheet.observations, sheet.rules_version, null_if_empty(sheet.signature),
                       null_if_empty(sheet.key_id));
        for (auto const& row : sheet.rows) {
            std::optional<std::int64_t> od, spot, reserved;
            std::optional<std::string> reason;
            if (row.rates) {
                od = row.rates->on_demand.micros();
                spot = row.rates->spot.micros();
                reserved = row.rates->reserved.micros();
                ++summary.priced_models;
            } else {
                reason = row.unavailable_reason;
                if (row.observations > 0)
                    summary.refused.push_back({row.gpu, row.observations, row.unavailable_reason});
            }
            insert_row(tx, name, row, od, spot, reserved, reason);
        }
        // The raw files observed in the window, in import order: what an auditor re-reads.
        tx.exec_params("INSERT INTO sheet_raw_input (week, raw_input_id) SELECT $1, id FROM raw_input "
                       "WHERE observed_at >= to_timestamp($2) AND observed_at < to_timestamp($3)",
                       name, to_epoch(window.from), to_epoch(window.until));
        // In chunks of whole lines, read back one at a time (migration 011), compressed with lz4
        // where the server has it (the column's setting).
        long long seq = 0;
        for (auto const chunk : input_chunks(canonical))
            tx.exec_params("INSERT INTO sheet_input_chunk (week, seq, csv) VALUES ($1, $2, $3)", name, seq++, std::string(chunk));
        summary.models = static_cast<int>(sheet.rows.size());
        summary.catalog_signed = sign_catalog && sign_catalog_in(tx, sign_catalog);
        // This version, and any the log still lacks (sheets published before it existed).
        summary.log_size = append_to_log(tx, sheets_in(tx, unlogged_sheets), now, log);
        tx.exec(std::string("NOTIFY ") + change_channel);
        tx.commit();
        return summary;
    });
}

void database::check()
{
    guarded("checking the connection", [&] {
        pqxx::nontransaction tx(impl_->conn);
        tx.exec("SELECT 1");
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
            tx.exec_params("UPDATE sheet SET signature = $2, key_id = $3 WHERE week = $1",
                           pricing::to_string(sheet.week), sheet.signature, sheet.key_id);
            done.weeks.push_back(sheet.week);
        }
        done.catalog = sign_catalog_in(tx, sign_catalog);
        done.log_size = append_to_log(tx, sheets_in(tx, unlogged_sheets), now, log);
        if (!done.weeks.empty() || done.catalog)
            tx.exec(std::string("NOTIFY ") + change_channel);
        tx.commit();
        return done;
    });
}

bool database::listen_for_changes()
{
    return guarded("listening", [&] {
        if (impl_->receiver)
            return true;
        try {
            impl_->receiver = std::make_unique<change_receiver>(impl_->conn);
            return true;
        } catch (pqxx::sql_error const&) {
            // A hot standby refuses LISTEN (SQLSTATE 25006): its readers fall back to polling.
            return false;
        }
    });
}

bool database::wait_for_change(std::chrono::milliseconds timeout)
{
    return guarded("waiting for changes", [&] {
        if (!impl_->receiver) {
            std::this_thread::sleep_for(timeout);
            return false;
        }
        // The flag is taken, not cleared before waiting: libpqxx also hands notifications to the
        // receiver after a query run outside a transaction, and one received then is a change too.
        if (!impl_->receiver->received) {
            auto const us = duration_cast<microseconds>(timeout).count();
            impl_->conn.await_notification(static_cast<long>(us / 1'000'000), static_cast<long>(us % 1'000'000));
        }
        return std::exchange(impl_->receiver->received, false);
    });
}

}
