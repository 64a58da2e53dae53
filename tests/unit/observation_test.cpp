#include "pricing/observation.hpp"
#include "pricing/rules.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <iterator>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

using lcg::pricing::canonical_observations_csv;
using lcg::pricing::csv_problem;
using lcg::pricing::instant;
using lcg::pricing::money;
using lcg::pricing::observation;
using lcg::pricing::observation_csv_reader;
using lcg::pricing::observations_csv_header;
using lcg::pricing::parse_money;
using lcg::pricing::parse_utc_timestamp;
using lcg::pricing::sort_canonically;
using lcg::pricing::split_csv_record;

namespace {

bool is_known_gpu(std::string_view id) { return id == "h100-sxm" || id == "a100-80gb-sxm" || id == "l4"; }

struct import_result {
    observation_csv_reader reader{is_known_gpu};
    std::vector<observation> observations;

    bool ok() const { return reader.ok(); }
    std::vector<csv_problem> const& problems() const { return reader.problems(); }
    bool has_problem(long line, std::string_view reason_part) const
    {
        return std::any_of(problems().begin(), problems().end(), [&](csv_problem const& p) {
            return p.line == line && p.reason.find(reason_part) != std::string::npos;
        });
    }
};

// Feeds `text` line by line as an importer does: a final '\n' ends the last line, it does not start
// an empty one (so "…\n\n" ends with one blank line).
import_result read_csv(std::string_view text)
{
    import_result r;
    std::size_t pos = 0;
    while (pos < text.size()) {
        auto const end = text.find('\n', pos);
        std::string_view const line = text.substr(pos, end == std::string_view::npos ? std::string_view::npos : end - pos);
        if (auto o = r.reader.read_line(line))
            r.observations.push_back(std::move(*o));
        if (end == std::string_view::npos)
            break;
        pos = end + 1;
    }
    r.reader.finish();
    return r;
}

std::string const header = std::string(observations_csv_header) + "\n";
std::string const good_row = "2026-11-24T10:15:00Z,h100-sxm,2.412,sample-market,L-000123\n";

instant ts(std::string_view text) { return *parse_utc_timestamp(text); }
money price(std::string_view text) { return *parse_money(text); }

observation make(std::string_view at, std::string gpu, std::string_view p, std::string source, std::string listing)
{
    return observation{ts(at), std::move(gpu), price(p), std::move(source), std::move(listing), {}};
}

// One data line after the header; returns the result for checks on line 2.
import_result one_row(std::string_view row) { return read_csv(header + std::string(row) + "\n"); }

}

TEST_CASE("observation_csv_reader reads a good file")
{
    auto const r = read_csv(header + good_row +
                            "2026-11-25T00:00:00Z,a100-80gb-sxm,1.1,sample-market,\n"
                            "2026-11-26T23:59:59Z,l4,0.000001,\"market, inc\",\"L-\"\"7\"\"\"\n"
                            "2026-11-27T01:02:03Z,l4,\"100000\",s,x\n");
    CHECK(r.ok());
    CHECK(r.problems().empty());
    CHECK(r.reader.bad_lines() == 0);
    CHECK(r.reader.lines_read() == 5);
    REQUIRE(r.observations.size() == 4);

    CHECK(r.observations[0].observed_at == ts("2026-11-24T10:15:00Z"));
    CHECK(r.observations[0].gpu == "h100-sxm");
    CHECK(r.observations[0].price == money::from_micros(2'412'000));
    CHECK(r.observations[0].source == "sample-market");
    CHECK(r.observations[0].listing_id == "L-000123");

    CHECK(r.observations[1].gpu == "a100-80gb-sxm");
    CHECK(r.observations[1].price == money::from_micros(1'100'000));
    CHECK(r.observations[1].listing_id.empty());  // the listing id is optional

    CHECK(r.observations[2].price == money::from_micros(1));
    CHECK(r.observations[2].source == "market, inc");
    CHECK(r.observations[2].listing_id == "L-\"7\"");

    CHECK(r.observations[3].price == money::from_dollars(100'000));  // the largest accepted price
}

TEST_CASE("read_line returns an observation only for a good data line")
{
    observation_csv_reader reader(is_known_gpu);
    CHECK_FALSE(reader.read_line(observations_csv_header).has_value());
    CHECK(reader.read_line("2026-11-24T10:15:00Z,h100-sxm,2.412,sample-market,L-1").has_value());
    CHECK_FALSE(reader.read_line("2026-11-24T10:15:00Z,h100-sxm,0,sample-market,L-1").has_value());
    CHECK(reader.lines_read() == 3);
    CHECK(reader.bad_lines() == 1);
    CHECK_FALSE(reader.ok());
    reader.finish();
    CHECK(reader.lines_read() == 3);
    REQUIRE(reader.problems().size() == 1);
    CHECK(reader.problems()[0].line == 3);
}

TEST_CASE("the header is required, exactly")
{
    SUBCASE("a file with only the header is fine and has no observations")
    {
        auto const r = read_csv(header);
        CHECK(r.ok());
        CHECK(r.observations.empty());
    }
    SUBCASE("wrong headers are refused on line 1")
    {
        for (std::string_view h : {
                 "observed_at,gpu,price_per_gpu_hour,source",                   // missing column
                 "observed_at,gpu,price_per_gpu_hour,source,listing_id,extra",  // extra column
                 "observed_at,gpu,price,source,listing_id",                     // wrong name
                 "gpu,observed_at,price_per_gpu_hour,source,listing_id",        // wrong order
                 "Observed_at,gpu,price_per_gpu_hour,source,listing_id",        // case
                 "observed_at, gpu, price_per_gpu_hour, source, listing_id",    // spaces
                 "observed_at,gpu,price_per_gpu_hour,source,listing_id,",       // trailing comma
                 "\"observed_at\",gpu,price_per_gpu_hour,source,listing_id",    // quoted
                 "observed_at;gpu;price_per_gpu_hour;source;listing_id",        // other separator
             }) {
            CAPTURE(h);
            auto const r = read_csv(std::string(h) + "\n" + good_row);
            CHECK_FALSE(r.ok());
            CHECK(r.reader.bad_lines() == 1);
            CHECK(r.has_problem(1, "header"));
        }
    }
    SUBCASE("a file that starts with data has no header")
    {
        auto const r = read_csv(good_row + good_row);
        CHECK_FALSE(r.ok());
        CHECK(r.has_problem(1, "header"));
    }
}

TEST_CASE("an empty file is refused")
{
    auto const r = read_csv("");
    CHECK_FALSE(r.ok());
    REQUIRE(r.problems().size() == 1);
    CHECK(r.problems()[0].line == 1);
    CHECK(r.problems()[0].reason.find("header") != std::string::npos);
    CHECK(r.observations.empty());
}

TEST_CASE("a file of blank lines has no header, on line 1")
{
    auto const blank_only = read_csv("\n");
    CHECK_FALSE(blank_only.ok());
    REQUIRE_FALSE(blank_only.problems().empty());

    // A missing header belongs on line 1.
    CHECK(blank_only.problems()[0].line == 1);
    CHECK(blank_only.problems()[0].reason.find("header") != std::string::npos);
}

TEST_CASE("column count: missing and extra columns")
{
    SUBCASE("missing column")
    {
        auto const r = one_row("2026-11-24T10:15:00Z,h100-sxm,2.412,sample-market");
        CHECK_FALSE(r.ok());
        CHECK(r.has_problem(2, "5 columns"));
        CHECK(r.has_problem(2, "found 4"));
        CHECK(r.observations.empty());
    }
    SUBCASE("extra column")
    {
        auto const r = one_row("2026-11-24T10:15:00Z,h100-sxm,2.412,sample-market,L-1,extra");
        CHECK_FALSE(r.ok());
        CHECK(r.has_problem(2, "found 6"));
    }
    SUBCASE("extra empty column")
    {
        auto const r = one_row("2026-11-24T10:15:00Z,h100-sxm,2.412,sample-market,L-1,");
        CHECK_FALSE(r.ok());
        CHECK(r.has_problem(2, "found 6"));
    }
    SUBCASE("a line of spaces")
    {
        auto const r = read_csv(header + "   \n" + good_row);
        CHECK_FALSE(r.ok());
        CHECK(r.has_problem(2, "found 1"));
    }
}

TEST_CASE("price_per_gpu_hour: a decimal greater than 0 with at most 6 decimals")
{
    for (std::string_view p : {"abc", "2.4x", "", "1e3", "+2.4", " 2.4", "2,4", ".5", "5.", "$2.40", "2.4000001",
                               "0.0000001", "0", "0.0", "0.000000", "-1.5", "-0.000001", "100000.000001",
                               "1000000"}) {
        CAPTURE(p);
        auto const r = one_row("2026-11-24T10:15:00Z,h100-sxm," + std::string(p) + ",sample-market,L-1");
        CHECK_FALSE(r.ok());
        CHECK(r.observations.empty());
        CHECK(r.has_problem(2, "price_per_gpu_hour"));
    }
    auto const seven = one_row("2026-11-24T10:15:00Z,h100-sxm,2.4000001,sample-market,L-1");
    CHECK(seven.has_problem(2, "6 decimals"));

    for (std::string_view p : {"0.000001", "2.400001", "2.4", "12", "100000", "100000.000000", "007.5"}) {
        CAPTURE(p);
        auto const r = one_row("2026-11-24T10:15:00Z,h100-sxm," + std::string(p) + ",sample-market,L-1");
        CHECK(r.ok());
        CHECK(r.observations.size() == 1);
    }
}

TEST_CASE("gpu must be a catalog id")
{
    for (std::string_view gpu : {"h200-nvl", "H100-SXM", "h100-sxm ", " h100-sxm", "", "h100"}) {
        CAPTURE(gpu);
        auto const r = one_row("2026-11-24T10:15:00Z," + std::string(gpu) + ",2.412,sample-market,L-1");
        CHECK_FALSE(r.ok());
        CHECK(r.has_problem(2, "gpu"));
        CHECK(r.has_problem(2, "'" + std::string(gpu) + "'"));
    }
}

TEST_CASE("observed_at must be RFC 3339 UTC with whole seconds")
{
    for (std::string_view at : {"2026-11-24 10:15:00Z", "2026-11-24T10:15:00+01:00", "2026-11-24T10:15:00.5Z",
                                "2026-11-24T10:15:00", "2026-02-30T00:00:00Z", "2026-11-24T24:00:00Z", "",
                                "yesterday", "1732443300"}) {
        CAPTURE(at);
        auto const r = one_row(std::string(at) + ",h100-sxm,2.412,sample-market,L-1");
        CHECK_FALSE(r.ok());
        CHECK(r.has_problem(2, "observed_at"));
    }
    auto const lower = one_row("2026-11-24t10:15:00z,h100-sxm,2.412,sample-market,L-1");
    CHECK(lower.ok());
}

TEST_CASE("source: 1 to 64 characters without control characters")
{
    std::string const s64(64, 's');
    std::string const s65(65, 's');
    CHECK(one_row("2026-11-24T10:15:00Z,h100-sxm,2.412," + s64 + ",L-1").ok());
    CHECK(one_row("2026-11-24T10:15:00Z,h100-sxm,2.412,a,L-1").ok());

    auto const too_long = one_row("2026-11-24T10:15:00Z,h100-sxm,2.412," + s65 + ",L-1");
    CHECK_FALSE(too_long.ok());
    CHECK(too_long.has_problem(2, "source"));

    auto const empty = one_row("2026-11-24T10:15:00Z,h100-sxm,2.412,,L-1");
    CHECK_FALSE(empty.ok());
    CHECK(empty.has_problem(2, "source"));

    auto const tab = one_row("2026-11-24T10:15:00Z,h100-sxm,2.412,a\tb,L-1");
    CHECK_FALSE(tab.ok());
    CHECK(tab.has_problem(2, "source"));
}

TEST_CASE("source and listing_id limits count UTF-8 characters, not bytes")
{
    // DESIGN §7 says "up to 64 characters" / "up to 128 characters", and the schema checks
    // length(source) BETWEEN 1 AND 64, which PostgreSQL counts in characters.
    auto repeat = [](std::string_view s, int n) {
        std::string out;
        for (int i = 0; i < n; ++i)
            out += s;
        return out;
    };
    std::string const e_acute = "\xC3\xA9";  // é, 2 bytes
    CHECK(one_row("2026-11-24T10:15:00Z,h100-sxm,2.412," + repeat(e_acute, 64) + ",L-1").ok());
    CHECK(one_row("2026-11-24T10:15:00Z,h100-sxm,2.412,March\xC3\xA9 de Montr\xC3\xA9" "al,L-1").ok());
    CHECK_FALSE(one_row("2026-11-24T10:15:00Z,h100-sxm,2.412," + repeat(e_acute, 65) + ",L-1").ok());
    CHECK_FALSE(one_row("2026-11-24T10:15:00Z,h100-sxm,2.412,bad\xFF\xFE,L-1").ok());
    CHECK(one_row("2026-11-24T10:15:00Z,h100-sxm,2.412,sample-market," + repeat(e_acute, 128)).ok());
    CHECK_FALSE(one_row("2026-11-24T10:15:00Z,h100-sxm,2.412,sample-market," + repeat(e_acute, 129)).ok());
}

TEST_CASE("listing_id: optional, at most 128 characters")
{
    CHECK(one_row("2026-11-24T10:15:00Z,h100-sxm,2.412,sample-market,").ok());
    CHECK(one_row("2026-11-24T10:15:00Z,h100-sxm,2.412,sample-market,\"\"").ok());
    CHECK(one_row("2026-11-24T10:15:00Z,h100-sxm,2.412,sample-market," + std::string(128, 'x')).ok());
    auto const too_long = one_row("2026-11-24T10:15:00Z,h100-sxm,2.412,sample-market," + std::string(129, 'x'));
    CHECK_FALSE(too_long.ok());
    CHECK(too_long.has_problem(2, "listing_id"));
    auto const control = one_row("2026-11-24T10:15:00Z,h100-sxm,2.412,sample-market,L\x01");
    CHECK_FALSE(control.ok());
    CHECK(control.has_problem(2, "listing_id"));
}

TEST_CASE("CRLF line ends and a byte-order mark on the header")
{
    SUBCASE("CRLF")
    {
        auto const r = read_csv(std::string(observations_csv_header) + "\r\n" +
                                "2026-11-24T10:15:00Z,h100-sxm,2.412,sample-market,L-1\r\n"
                                "2026-11-24T10:16:00Z,h100-sxm,2.413,sample-market,\r\n");
        CHECK(r.ok());
        REQUIRE(r.observations.size() == 2);
        CHECK(r.observations[0].listing_id == "L-1");
        CHECK(r.observations[1].listing_id.empty());
        CHECK(r.observations[1].source == "sample-market");
    }
    SUBCASE("BOM")
    {
        auto const r = read_csv("\xEF\xBB\xBF" + header + good_row);
        CHECK(r.ok());
        CHECK(r.observations.size() == 1);
    }
    SUBCASE("BOM and CRLF")
    {
        auto const r = read_csv("\xEF\xBB\xBF" + std::string(observations_csv_header) + "\r\n" +
                                "2026-11-24T10:15:00Z,h100-sxm,2.412,sample-market,L-1\r\n");
        CHECK(r.ok());
        CHECK(r.observations.size() == 1);
    }
    SUBCASE("a BOM anywhere but the start of the file is data")
    {
        auto const r = read_csv(header + "\xEF\xBB\xBF" + good_row);
        CHECK_FALSE(r.ok());
        CHECK(r.has_problem(2, "observed_at"));
    }
}

TEST_CASE("blank lines: refused inside the file, fine at the end")
{
    SUBCASE("a blank line in the middle is refused with its own line number")
    {
        auto const r = read_csv(header + good_row + "\n" + good_row);
        CHECK_FALSE(r.ok());
        CHECK(r.reader.bad_lines() == 1);
        REQUIRE(r.problems().size() == 1);
        CHECK(r.problems()[0].line == 3);
        CHECK(r.problems()[0].reason.find("blank") != std::string::npos);
        CHECK(r.observations.size() == 2);
    }
    SUBCASE("a CRLF blank line in the middle")
    {
        auto const r = read_csv(header + good_row + "\r\n" + good_row);
        CHECK_FALSE(r.ok());
        CHECK(r.has_problem(3, "blank"));
    }
    SUBCASE("two blank lines in the middle")
    {
        auto const r = read_csv(header + good_row + good_row + "\n\n" + good_row);
        CHECK_FALSE(r.ok());
        REQUIRE_FALSE(r.problems().empty());
        CHECK(r.problems()[0].line == 4);
    }
    SUBCASE("a blank line between the header and the data")
    {
        auto const r = read_csv(header + "\n" + good_row);
        CHECK_FALSE(r.ok());
        CHECK(r.has_problem(2, "blank"));
    }
    SUBCASE("a trailing blank line is fine")
    {
        auto const r = read_csv(header + good_row + "\n");
        CHECK(r.ok());
        CHECK(r.observations.size() == 1);
    }
    SUBCASE("trailing blank lines are fine")
    {
        auto const r = read_csv(header + good_row + "\n\n");
        CHECK(r.ok());
    }
    SUBCASE("a trailing CRLF blank line is fine")
    {
        auto const r = read_csv(header + good_row + "\r\n");
        CHECK(r.ok());
    }
    SUBCASE("no line end on the last line is fine")
    {
        auto const r = read_csv(header + "2026-11-24T10:15:00Z,h100-sxm,2.412,sample-market,L-1");
        CHECK(r.ok());
        CHECK(r.observations.size() == 1);
    }
}

TEST_CASE("line numbers are 1-based with the header as line 1")
{
    auto const r = read_csv(header + good_row + good_row + "2026-11-24T10:15:00Z,h100-sxm,0,sample-market,L\n" + good_row +
                            "2026-11-24T10:15:00Z,h200-nvl,2.4,sample-market,L\n");
    CHECK(r.reader.lines_read() == 6);
    CHECK(r.reader.bad_lines() == 2);
    REQUIRE(r.problems().size() == 2);
    CHECK(r.problems()[0].line == 4);
    CHECK(r.problems()[1].line == 6);
    CHECK(r.observations.size() == 3);
}

TEST_CASE("problems() keeps the first 20, bad_lines() counts all")
{
    std::string text = header;
    for (int i = 0; i < 25; ++i)
        text += "2026-11-24T10:15:00Z,h200-nvl,2.4,sample-market,L-" + std::to_string(i) + "\n";
    text += good_row;
    auto const r = read_csv(text);
    CHECK_FALSE(r.ok());
    CHECK(observation_csv_reader::problems_kept == 20);
    CHECK(r.reader.bad_lines() == 25);
    REQUIRE(r.problems().size() == 20);
    for (std::size_t i = 0; i < r.problems().size(); ++i)
        CHECK(r.problems()[i].line == static_cast<long>(i) + 2);
    CHECK(r.observations.size() == 1);
    CHECK(r.reader.lines_read() == 27);
}

TEST_CASE("broken quoting in a data line is refused")
{
    auto const r = one_row("2026-11-24T10:15:00Z,h100-sxm,2.412,\"sample-market,L-1");
    CHECK_FALSE(r.ok());
    CHECK(r.has_problem(2, "quoting"));
}

TEST_CASE("a line longer than max_csv_line_bytes is refused for its length")
{
    auto const fits = one_row("2026-11-24T10:15:00Z,h100-sxm,2.412,sample-market,L-1");
    CHECK(fits.ok());
    auto const r = one_row("2026-11-24T10:15:00Z,h100-sxm,2.412,sample-market," +
                           std::string(lcg::pricing::max_csv_line_bytes, 'x'));
    CHECK_FALSE(r.ok());
    CHECK(r.has_problem(2, "longer than 65536 bytes"));
}

TEST_CASE("split_csv_record")
{
    using fields = std::vector<std::string>;
    struct good {
        std::string_view line;
        fields expected;
    };
    good const cases[] = {
        {"a,b,c", {"a", "b", "c"}},
        {"", {""}},
        {",", {"", ""}},
        {"a,,c", {"a", "", "c"}},
        {"a,b,", {"a", "b", ""}},
        {" a , b ", {" a ", " b "}},
        {"\"a,b\",c", {"a,b", "c"}},
        {"\"he said \"\"hi\"\"\",x", {"he said \"hi\"", "x"}},
        {"\"\"", {""}},
        {"\"\"\"\"", {"\""}},
        {"a,\"\"", {"a", ""}},
        {"\"\",\"\"", {"", ""}},
        {"\"a\"", {"a"}},
        {"\"a\",", {"a", ""}},
        {"\"a\"\"b\"", {"a\"b"}},
        {"\"x\ty\"", {"x\ty"}},
    };
    for (auto const& c : cases) {
        CAPTURE(c.line);
        auto const split = split_csv_record(c.line);
        REQUIRE(split.has_value());
        CHECK(*split == c.expected);
    }

    std::string const widest(lcg::pricing::rules::max_csv_fields - 1, ',');
    REQUIRE(split_csv_record(widest));
    CHECK(split_csv_record(widest)->size() == lcg::pricing::rules::max_csv_fields);
    CHECK_FALSE(split_csv_record(widest + ","));
    // A line of commas only as long as the file: refused at the 65th field, not held as millions.
    CHECK_FALSE(split_csv_record(std::string(1 << 20, ',')));

    for (std::string_view broken : {"\"abc", "\"abc\"x", "ab\"c", "a,b\"", "\"a\"\"", "\"", "a,\"b", " \"a\"",
                                    "\"a\" ,b", "\"\"\""}) {
        CAPTURE(broken);
        CHECK_FALSE(split_csv_record(broken).has_value());
    }
}

TEST_CASE("canonical_observations_csv: order, 6-decimal prices, \\n line ends, quoting")
{
    std::vector<observation> const input = {
        make("2026-11-24T10:15:00Z", "h100-sxm", "2.412", "sample-market", "L-2"),
        make("2026-11-22T08:00:00Z", "l4", "0.000001", "say \"hi\"", "L-\"q\""),
        make("2026-11-25T00:00:00Z", "a100-80gb-sxm", "1.1", "sample-market", ""),
        make("2026-11-24T10:15:00Z", "h100-sxm", "2.412", "sample-market", "L-1"),
        make("2026-11-24T10:15:00Z", "h100-sxm", "10", "sample-market", "A"),
        make("2026-11-24T10:15:00Z", "h100-sxm", "2.4", "x", "L-9"),
        make("2026-11-24T10:15:00Z", "h100-sxm", "9.5", "sample-market", "B"),
        make("2026-11-23T00:00:00Z", "h100-sxm", "3", "market, inc", ""),
    };
    std::string const expected =
        "observed_at,gpu,price_per_gpu_hour,source,listing_id\n"
        "2026-11-25T00:00:00Z,a100-80gb-sxm,1.100000,sample-market,\n"
        "2026-11-23T00:00:00Z,h100-sxm,3.000000,\"market, inc\",\n"
        "2026-11-24T10:15:00Z,h100-sxm,2.400000,x,L-9\n"
        "2026-11-24T10:15:00Z,h100-sxm,2.412000,sample-market,L-1\n"
        "2026-11-24T10:15:00Z,h100-sxm,2.412000,sample-market,L-2\n"
        "2026-11-24T10:15:00Z,h100-sxm,9.500000,sample-market,B\n"  // prices compare as numbers
        "2026-11-24T10:15:00Z,h100-sxm,10.000000,sample-market,A\n"
        "2026-11-22T08:00:00Z,l4,0.000001,\"say \"\"hi\"\"\",\"L-\"\"q\"\"\"\n";
    std::string const csv = canonical_observations_csv(input);
    CHECK(csv == expected);
    CHECK(csv.find('\r') == std::string::npos);
    CHECK(csv.back() == '\n');

    SUBCASE("the input order does not matter")
    {
        std::vector<observation> shuffled = input;
        std::mt19937_64 rng(7);
        for (int i = 0; i < 20; ++i) {
            std::shuffle(shuffled.begin(), shuffled.end(), rng);
            CHECK(canonical_observations_csv(shuffled) == expected);
        }
    }
    SUBCASE("the canonical CSV reads back to the same observations")
    {
        auto const r = read_csv(csv);
        CHECK(r.ok());
        REQUIRE(r.observations.size() == input.size());
        std::vector<observation> sorted = input;
        sort_canonically(sorted);
        for (std::size_t i = 0; i < sorted.size(); ++i) {
            CAPTURE(i);
            CHECK(r.observations[i].observed_at == sorted[i].observed_at);
            CHECK(r.observations[i].gpu == sorted[i].gpu);
            CHECK(r.observations[i].price == sorted[i].price);
            CHECK(r.observations[i].source == sorted[i].source);
            CHECK(r.observations[i].listing_id == sorted[i].listing_id);
        }
        CHECK(canonical_observations_csv(r.observations) == csv);
    }
    SUBCASE("no observations: the header alone")
    {
        CHECK(canonical_observations_csv({}) == "observed_at,gpu,price_per_gpu_hour,source,listing_id\n");
    }
}

TEST_CASE("sort_canonically orders by gpu, observed_at, price, listing_id")
{
    std::vector<observation> v = {
        make("2026-11-24T10:00:00Z", "l4", "1", "s", "a"),
        make("2026-11-24T10:00:01Z", "h100-sxm", "1", "s", "a"),
        make("2026-11-24T10:00:00Z", "h100-sxm", "1.000001", "s", "a"),
        make("2026-11-24T10:00:00Z", "h100-sxm", "1", "s", "b"),
        make("2026-11-24T10:00:00Z", "h100-sxm", "1", "s", ""),
    };
    sort_canonically(v);
    CHECK(v[0].listing_id.empty());
    CHECK(v[1].listing_id == "b");
    CHECK(v[2].price == price("1.000001"));
    CHECK(v[3].observed_at == ts("2026-11-24T10:00:01Z"));
    CHECK(v[4].gpu == "l4");
}

TEST_CASE("canonical_observations_csv agrees with sorting whole observations, across many rows and ties")
{
    // Few distinct values so that every key ties often, and more rows per gpu than are formatted
    // in one batch.
    std::mt19937_64 rng(11);
    auto const pick = [&](auto const& options) { return options[rng() % std::size(options)]; };
    std::string_view const gpus[] = {"l4", "h100-sxm", "a100-80gb-sxm"};
    std::string_view const times[] = {"2026-11-24T10:15:00Z", "2026-11-24T10:15:01Z", "2026-11-23T00:00:00Z"};
    std::string_view const prices[] = {"2.4", "2.412", "10", "0.000001"};
    std::string_view const sources[] = {"m", "market, inc", "say \"hi\"", "back\\slash"};
    std::string_view const listings[] = {"", "L-1", "L-10", "L-2", "\\N"};
    std::vector<observation> input;
    for (int i = 0; i < 1000; ++i)
        input.push_back(make(pick(times), std::string(pick(gpus)), pick(prices), std::string(pick(sources)),
                             std::string(pick(listings))));

    std::vector<observation> expected = input;
    std::sort(expected.begin(), expected.end(), [](observation const& a, observation const& b) {
        return std::tie(a.gpu, a.observed_at, a.price, a.listing_id, a.source) <
               std::tie(b.gpu, b.observed_at, b.price, b.listing_id, b.source);
    });
    std::string expected_csv = header;
    for (auto const& o : expected)
        expected_csv += canonical_observations_csv({&o, 1}).substr(header.size());
    CHECK(canonical_observations_csv(input) == expected_csv);

    std::vector<observation> sorted = input;
    sort_canonically(sorted);
    REQUIRE(sorted.size() == expected.size());
    for (std::size_t i = 0; i < sorted.size(); ++i) {
        CAPTURE(i);
        CHECK(std::tie(sorted[i].gpu, sorted[i].observed_at, sorted[i].price, sorted[i].listing_id, sorted[i].source) ==
              std::tie(expected[i].gpu, expected[i].observed_at, expected[i].price, expected[i].listing_id,
                       expected[i].source));
    }
}

TEST_CASE("source_url: an optional sixth column, validated")
{
    std::string const with_urls = std::string(lcg::pricing::observations_csv_header_with_urls) + "\n";
    auto const r = read_csv(with_urls +
                            "2026-11-24T10:15:00Z,h100-sxm,2.412,m,L-1,https://market.example/listings/L-1?x=1\n"
                            "2026-11-24T10:16:00Z,h100-sxm,2.413,m,L-2,\n"
                            "2026-11-24T10:17:00Z,h100-sxm,2.414,m,L-3,http://market.example\n");
    CHECK(r.ok());
    REQUIRE(r.observations.size() == 3);
    CHECK(r.observations[0].source_url == "https://market.example/listings/L-1?x=1");
    CHECK(r.observations[1].source_url.empty());
    CHECK(r.observations[2].source_url == "http://market.example");

    // A file with the five-column header keeps working and has no URLs.
    auto const old = one_row("2026-11-24T10:15:00Z,h100-sxm,2.412,m,L-1");
    CHECK(old.ok());
    CHECK(old.observations.at(0).source_url.empty());
    // …and a sixth field under it is refused, as is a missing one under the six-column header.
    CHECK(one_row("2026-11-24T10:15:00Z,h100-sxm,2.412,m,L-1,https://a.example").has_problem(2, "expected 5 columns"));
    CHECK(read_csv(with_urls + "2026-11-24T10:15:00Z,h100-sxm,2.412,m,L-1\n").has_problem(2, "expected 6 columns"));

    for (std::string const& bad : std::vector<std::string>{"ftp://market.example/x", "market.example/x", "https://", "https:///path",
                                  "https://market.example/a b", "https://market.example/\x01", "javascript:alert(1)",
                                  "https://market.example/caf\xC3\xA9", "https://" + std::string(2041, 'a')}) {
        CAPTURE(bad);
        CHECK_FALSE(lcg::pricing::is_valid_source_url(bad));
        std::string row = "2026-11-24T10:15:00Z,h100-sxm,2.412,m,L-1,";
        lcg::pricing::append_csv_field(row, bad);
        CHECK(read_csv(with_urls + row + "\n").has_problem(2, "source_url"));
    }
    CHECK(lcg::pricing::is_valid_source_url("https://" + std::string(2040, 'a')));  // 2048 bytes
}

TEST_CASE("the canonical CSV has the source_url column only when an observation has a URL")
{
    std::vector<observation> v{make("2026-11-24T10:15:00Z", "h100-sxm", "2.4", "m", "L-1"),
                               make("2026-11-24T10:16:00Z", "h100-sxm", "2.5", "m", "L-2")};
    std::string const without = canonical_observations_csv(v);
    CHECK(without == "observed_at,gpu,price_per_gpu_hour,source,listing_id\n"
                     "2026-11-24T10:15:00Z,h100-sxm,2.400000,m,L-1\n"
                     "2026-11-24T10:16:00Z,h100-sxm,2.500000,m,L-2\n");
    v[1].source_url = "https://market.example/L-2";
    CHECK(canonical_observations_csv(v) == "observed_at,gpu,price_per_gpu_hour,source,listing_id,source_url\n"
                                           "2026-11-24T10:15:00Z,h100-sxm,2.400000,m,L-1,\n"
                                           "2026-11-24T10:16:00Z,h100-sxm,2.500000,m,L-2,https://market.example/L-2\n");
    // Read back, the canonical CSV with URLs gives the same observations and the same bytes again.
    auto const again = read_csv(canonical_observations_csv(v));
    CHECK(again.ok());
    CHECK(canonical_observations_csv(again.observations) == canonical_observations_csv(v));
}
