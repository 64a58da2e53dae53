// Observations: the import of an observations CSV, and the read of a week's observations that a
// publication computes its sheet from.
#include "server/store/database.hpp"

#include "server/store/session.hpp"

#include <array>
#include <charconv>
#include <istream>
#include <limits>
#include <set>
#include <span>

namespace lcg::store {

namespace {

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

namespace {

// The next line of `csv` without its '\n', of which at most max_csv_line_bytes + 1 bytes are kept
// in `buffer` (the reader refuses a longer line, and the rest of it is skipped): a line of a
// gigabyte costs no more memory than a good one. False once the input is over.
bool next_line(std::istream& csv, std::vector<char>& buffer, std::string_view& line)
{
    csv.getline(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    auto const got = static_cast<std::size_t>(csv.gcount());
    if (csv.bad() || (got == 0 && csv.eof()))
        return false;
    if (csv.fail() && !csv.eof()) {  // the buffer filled before the line's end
        csv.clear();
        csv.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
        line = std::string_view(buffer.data(), got);
        return true;
    }
    line = std::string_view(buffer.data(), csv.eof() ? got : got - 1);  // gcount counts the '\n' taken
    return true;
}

// Lines of an import that give a listing already observed at that time (by an earlier line or an
// earlier import) another model or price: one listing has one price at one time, so the file
// contradicts itself or what was imported, and is refused whole rather than half kept. Asked only
// when some line was a repeat, so a fresh import pays nothing for it.
bool refuse_contradictions(pqxx::work& tx, import_summary& summary)
{
    auto const found = tx.exec(
        "SELECT i.line, i.source, i.listing_id, i.gpu, i.price_micros, o.gpu, o.price_micros, count(*) OVER () "
        "FROM incoming i JOIN observation o "
        "  ON o.source = i.source AND o.listing_id = i.listing_id AND o.observed_at = i.observed_at "
        "WHERE i.listing_id <> '' AND (i.gpu, i.price_micros) IS DISTINCT FROM (o.gpu, o.price_micros) "
        "ORDER BY i.line LIMIT " +
        std::to_string(pricing::observation_csv_reader::problems_kept));
    if (found.empty())
        return false;
    auto const price = [](pqxx::field const& f) { return pricing::to_decimal(pricing::money::from_micros(f.as<std::int64_t>()), 6); };
    for (auto const& r : found)
        summary.problems.push_back({r[0].as<long>(), r[1].as<std::string>() + "'s listing " + r[2].as<std::string>() +
                                                         " is " + r[3].as<std::string>() + " at " + price(r[4]) +
                                                         " here, but " + r[5].as<std::string>() + " at " + price(r[6]) +
                                                         " at the same time by an earlier line or import"});
    summary.bad_lines = found[0][7].as<long>();
    summary.imported = 0;
    summary.duplicates = 0;
    return true;
}

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
        tx.exec("ALTER TABLE incoming ADD COLUMN line bigint NOT NULL");
        pqxx::stream_to copy(tx, "incoming",
                             std::vector<std::string>{"observed_at", "gpu", "price_micros", "source", "listing_id",
                                                      "source_url", "line"});
        std::vector<char> buffer(pricing::max_csv_line_bytes + 2);
        std::string_view line;
        while (next_line(csv, buffer, line)) {
            auto const obs = reader.read_line(line);
            if (obs && reader.ok()) {
                copy << std::make_tuple(pricing::to_rfc3339(obs->observed_at), obs->gpu, obs->price.micros(),
                                        obs->source, obs->listing_id, obs->source_url, reader.lines_read());
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
        if (summary.duplicates > 0 && refuse_contradictions(tx, summary)) {
            tx.abort();
            return summary;
        }
        notify_change(tx);
        tx.commit();
        return summary;
    });
}

}
