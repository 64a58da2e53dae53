// The sheets' inputs come from the archive, not the snapshot: stored in chunks of whole lines, sent
// as they are read (the CSV as stored, the JSON rendered a chunk at a time), the pages rendered
// whole; cached within a byte budget by publication, read once for every request waiting on the
// same thing, and refused with 503 + Retry-After (never a hang) when the source fails.
#include "server/archive/archive.hpp"

#include "fixture.hpp"

#include "server/digest/digest.hpp"
#include "pricing/input_chunks.hpp"

#include "render/json.hpp"

#include <boost/json/parse.hpp>
#include <doctest/doctest.h>

#include <atomic>
#include <future>
#include <numeric>
#include <stdexcept>
#include <thread>
#include <utility>

using namespace lcg;
namespace bh = boost::beast::http;

namespace {

std::string header(http::response const& res, bh::field f) { return std::string(res[f]); }

pricing::price_sheet const& sheet_of(pricing::iso_week week) { return *testing::fixture_snapshot()->find_sheet(week); }

constexpr pricing::iso_week past_week{2026, 48};
constexpr pricing::iso_week current_week{2026, 49};
constexpr std::size_t small_chunks = testing::fixture_chunk_bytes;

// GET `target` on the fixture snapshot with `inputs` as the archive, from `client` (none named: empty).
http::response get(archive::archive* inputs, std::string const& target, std::string const& client = {})
{
    http::request req{bh::verb::get, target, 11};
    req.set(bh::field::host, "127.0.0.1");
    http::request_context ctx{testing::fixture_snapshot(), testing::fixture_now()};
    ctx.archive = inputs;
    ctx.client = client;
    return http::handle(req, ctx);
}

// Whether the Markdown page of a week could be read.
bool fetched_page(archive::archive& a, pricing::price_sheet const& sheet)
{
    std::promise<archive::result> given;
    auto result = given.get_future();
    a.fetch(sheet, render::format::markdown, locale::language::en, [&given](archive::result r) { given.set_value(std::move(r)); });
    return static_cast<bool>(result.get());
}

archive::opened opened(archive::archive& a, pricing::price_sheet const& sheet, render::format f,
                       std::string const& reader = {})
{
    std::promise<archive::opened> given;
    auto result = given.get_future();
    a.open(sheet, f, [&given](archive::opened r) { given.set_value(std::move(r)); }, reader);
    return result.get();
}

archive::part next_part(archive::stream& s)
{
    std::promise<archive::part> given;
    auto result = given.get_future();
    s.next([&given](archive::part r) { given.set_value(std::move(r)); });
    return result.get();
}

// Every part of a stream, joined; throws if one fails. Bounded by the stream's parts.
std::string read_all(archive::stream& s)
{
    std::string out;
    for (int parts = 0; parts < 100'000; ++parts) {
        auto const part = next_part(s);
        if (!part)
            throw std::runtime_error(part.err().message);
        if ((*part)->empty())
            return out;
        out += **part;
    }
    throw std::runtime_error("the stream did not end");
}

std::string read_whole(archive::archive& a, pricing::price_sheet const& sheet, render::format f)
{
    auto s = opened(a, sheet, f);
    if (!s)
        throw std::runtime_error(s.err().message);
    return read_all(**s);
}

// The fixture's weeks, cut in chunks of `small_chunks`, counting the calls to the source (one for
// each layout, one for each chunk).
struct counting {
    std::shared_ptr<std::atomic<int>> calls = std::make_shared<std::atomic<int>>(0);

    archive::source_factory sources() const
    {
        return testing::text_sources(
            [c = calls](pricing::price_sheet const& sheet) {
                ++*c;
                return testing::fixture_inputs(sheet.week);
            },
            small_chunks);
    }
};

// A source of fixture weeks in small chunks whose chunk reads from `from` on wait on `gate`, then
// fail when `fail`.
class gated_source final : public archive::source {
public:
    gated_source(std::shared_future<void> gate, std::size_t from, bool fail)
        : gate_(std::move(gate)), from_(from), fail_(fail)
    {
    }
    pricing::input_layout layout(pricing::price_sheet const& sheet) override
    {
        return pricing::layout_of(testing::fixture_inputs(sheet.week), small_chunks);
    }
    std::string chunk(pricing::price_sheet const& sheet, std::size_t seq) override
    {
        if (seq >= from_) {
            gate_.wait();
            if (fail_)
                throw std::runtime_error("the database connection was lost");
        }
        return std::string(pricing::input_chunks(testing::fixture_inputs(sheet.week), small_chunks).at(seq));
    }

    std::vector<pricing::raw_input> raw_inputs(pricing::price_sheet const&) override { return {}; }
    std::optional<std::string> raw_bytes(pricing::price_sheet const&, std::string const&) override
    {
        return std::nullopt;
    }

private:
    std::shared_future<void> gate_;
    std::size_t from_;
    bool fail_;
};

// An archive whose source holds chunk `from` and those after it until `release` is set, then
// reads them, or fails them when `failing`.
struct gated_archive {
    explicit gated_archive(std::size_t from, bool failing = false, archive::options o = {})
        : inputs(o, [gate = release.get_future().share(), from, failing]() -> std::unique_ptr<archive::source> {
              return std::make_unique<gated_source>(gate, from, failing);
          })
    {
    }
    std::promise<void> release;
    archive::archive inputs;
};

// The current week's canonical CSV in the small chunks the gated source serves.
std::vector<std::string_view> current_chunks() { return pricing::input_chunks(testing::fixture_inputs(current_week), small_chunks); }

}

TEST_CASE("a canonical CSV is stored in chunks of whole lines, the header in the first, their concatenation exact")
{
    std::string const header = "observed_at,gpu,price_per_gpu_hour,source,listing_id\n";
    std::string csv = header;
    for (int i = 0; i < 200; ++i)
        csv += "2026-11-23T00:00:" + std::to_string(10 + i % 50) + "Z,h100-sxm,2.400000,s,L-" + std::to_string(i) + "\n";
    for (std::size_t const target : {std::size_t{1}, std::size_t{60}, std::size_t{100}, std::size_t{1000}, csv.size(),
                                     csv.size() + 1, pricing::input_chunk_bytes}) {
        CAPTURE(target);
        auto const chunks = pricing::input_chunks(csv, target);
        REQUIRE(!chunks.empty());
        CHECK(chunks.front().starts_with(header));
        std::string joined;
        for (std::size_t i = 0; i < chunks.size(); ++i) {
            CHECK(chunks[i].ends_with('\n'));  // whole lines only
            // Each ends at the first line end at or after its target-th byte (chunk 0: after its header).
            if (i + 1 < chunks.size()) {
                std::size_t const from = i == 0 ? std::max(target - 1, header.size()) : target - 1;
                CHECK(chunks[i].size() > from);
                CHECK(chunks[i].substr(0, chunks[i].size() - 1).find('\n', from) == std::string_view::npos);
            }
            joined += chunks[i];
        }
        CHECK(joined == csv);
        if (chunks.size() > 1)
            CHECK(chunks.front().size() > header.size());  // a row follows the header in chunk 0
        auto const layout = pricing::layout_of(csv, target);
        CHECK(layout.chunk_sizes.size() == chunks.size());
        CHECK(layout.total_bytes() == csv.size());
        CHECK(layout.header + "\n" == header);
        // Read as it arrives, split anywhere, the CSV is cut the same way.
        for (std::size_t const piece : {std::size_t{1}, std::size_t{7}, std::size_t{64}, csv.size()}) {
            CAPTURE(piece);
            pricing::input_chunker chunker(target);
            for (std::size_t at = 0; at < csv.size(); at += piece)
                chunker.read(std::string_view(csv).substr(at, piece));
            auto const streamed = chunker.finish();
            CHECK(streamed.chunk_sizes == layout.chunk_sizes);
            CHECK(streamed.header == layout.header);
        }
    }
    CHECK(pricing::input_chunks(csv).size() == 1);  // 200 rows: far under 1 MiB
    // A week without observations is its header line alone: one chunk. Nothing at all is no chunk.
    CHECK(pricing::input_chunks(header, 10) == std::vector<std::string_view>{header});
    CHECK(pricing::input_chunks("").empty());
    // A line longer than the target stays whole.
    std::string const long_line = header + std::string(5000, 'x') + "\nshort\n";
    auto const around = pricing::input_chunks(long_line, 100);
    REQUIRE(around.size() == 2);
    CHECK(around[0] == header + std::string(5000, 'x') + "\n");
    CHECK(around[1] == "short\n");
    CHECK(pricing::layout_of(long_line, 100).chunk_sizes == std::vector<std::size_t>{around[0].size(), around[1].size()});
    // No line end at all: one chunk, which is the header; a header past its bound is refused.
    CHECK(pricing::layout_of("abc").chunk_sizes == std::vector<std::size_t>{3});
    CHECK(pricing::layout_of("abc").header == "abc");
    pricing::input_chunker endless;
    CHECK_THROWS_AS(endless.read(std::string(pricing::input_chunker::max_header_bytes + 1, 'h')), std::length_error);
}

TEST_CASE("the snapshot holds no observations: a week's inputs are not among its documents")
{
    for (auto const& entry : testing::fixture_snapshot()->documents) {
        std::string const& key = entry.first;  // named: doctest's lambdas cannot capture a structured binding
        CHECK_MESSAGE(key.find("/observations") == std::string::npos, key);
    }
}

TEST_CASE("the served CSV is the stored canonical CSV, its ETag its SHA-256, and a past week is immutable")
{
    for (auto const week : {past_week, current_week}) {
        auto const target = "/v1/sheets/" + pricing::to_string(week) + "/observations.csv";
        CAPTURE(target);
        REQUIRE(pricing::input_chunks(testing::fixture_inputs(week), small_chunks).size() >= 3);  // sent in parts
        auto const res = testing::fixture_request(target);
        REQUIRE(res.result() == bh::status::ok);
        CHECK(res.body() == testing::fixture_inputs(week));
        CHECK(header(res, bh::field::content_length) == std::to_string(testing::fixture_inputs(week).size()));
        CHECK(digest::sha256_hex(res.body().view()) == sheet_of(week).inputs_sha256);
        CHECK(header(res, bh::field::etag) == "\"" + sheet_of(week).inputs_sha256.substr(0, 32) + "\"");
        CHECK(header(res, bh::field::link).find("observations.md") != std::string::npos);
        bool const past = week == past_week;
        CHECK(header(res, bh::field::cache_control) ==
              (past ? "public, max-age=31536000, immutable" : "public, max-age=300, stale-while-revalidate=600, stale-if-error=86400"));
        // A conditional request is answered from the validator, before anything is read.
        auto const again = testing::fixture_request(target, {{"If-None-Match", header(res, bh::field::etag)}});
        CHECK(again.result() == bh::status::not_modified);
    }
    // Named by an alias, the week changes with the next publication.
    auto const latest = testing::fixture_request("/v1/sheets/latest/observations.csv");
    CHECK(latest.body() == testing::fixture_inputs(current_week));
    CHECK(header(latest, bh::field::cache_control).find("immutable") == std::string::npos);
}

TEST_CASE("the JSON, Markdown and HTML of a week's inputs are rendered from its CSV")
{
    auto const res = testing::fixture_request("/v1/sheets/2026-W49/observations");
    CHECK(header(res, bh::field::etag) == "\"" + sheet_of(current_week).inputs_sha256.substr(0, 32) + "-json\"");
    auto const json = boost::json::parse(res.body()).as_object();
    CHECK(json.at("week").as_string() == "2026-W49");
    CHECK(json.at("count").to_number<int>() == 19);
    CHECK(json.at("inputs_sha256").as_string() == sheet_of(current_week).inputs_sha256);
    auto const& list = json.at("observations").as_array();
    REQUIRE(list.size() == 19);
    auto const& first = list.front().as_object();
    CHECK(first.at("price_per_gpu_hour").as_string().size() > 0);
    CHECK(first.at("source").as_string() == "synthetic-alpha");
    CHECK(first.at("source_url").is_null());
    // Each CSV line is one observation, in the same order.
    auto const csv = testing::fixture_inputs(current_week);
    auto const second_line = csv.substr(csv.find('\n') + 1, csv.find('\n', csv.find('\n') + 1) - csv.find('\n') - 1);
    CHECK(second_line.starts_with(std::string(first.at("observed_at").as_string()) + "," +
                                  std::string(first.at("gpu").as_string()) + "," +
                                  std::string(first.at("price_per_gpu_hour").as_string())));

    auto const md = testing::fixture_request("/v1/sheets/2026-W49/observations.md");
    REQUIRE(md.result() == bh::status::ok);
    CHECK(md.body().starts_with("# Inputs of sheet 2026-W49\n\n19 on-demand listings"));
    CHECK(md.body().find("| [h100-sxm](/v1/gpus/h100-sxm.md) |") != std::string::npos);
    auto const html = testing::fixture_request("/v1/sheets/2026-W49/observations", {{"Accept", "text/html"}});
    CHECK(header(html, bh::field::content_type) == "text/html; charset=utf-8");
    CHECK(html.body().find("Inputs of sheet 2026-W49") != std::string::npos);
    CHECK(header(md, bh::field::content_language) == "en");
}

TEST_CASE("the JSON sent a chunk at a time is byte for byte the JSON of the whole week")
{
    for (auto const week : {past_week, current_week}) {
        auto const& sheet = sheet_of(week);
        auto const whole = pricing::parse_observations_csv(testing::fixture_inputs(week), [](std::string_view) { return true; });
        auto const expected = render::observations_text(sheet, whole.observations.size(), whole.observations);
        for (std::size_t const chunk_bytes : {std::size_t{64}, small_chunks, pricing::input_chunk_bytes}) {
            CAPTURE(chunk_bytes);
            archive::archive inputs({}, testing::text_sources(
                                            [](pricing::price_sheet const& s) { return testing::fixture_inputs(s.week); },
                                            chunk_bytes));
            CHECK(read_whole(inputs, sheet, render::format::json) == expected);
            CHECK(read_whole(inputs, sheet, render::format::csv) == testing::fixture_inputs(week));
        }
    }
}

TEST_CASE("a week's inputs pages speak French with lang=fr, the CSV and the JSON are the same in both")
{
    auto const md = testing::fixture_request("/v1/sheets/2026-W49/observations.md?lang=fr");
    REQUIRE(md.result() == bh::status::ok);
    CHECK(header(md, bh::field::content_language) == "fr");
    CHECK(md.body().starts_with("# Données d’entrée de la fiche 2026-W49\n\n19 annonces à la demande"));
    CHECK(md.body().find("Inputs of sheet") == std::string::npos);
    auto const html = testing::fixture_request("/v1/sheets/2026-W49/observations.html", {{"Accept-Language", "fr"}});
    CHECK(header(html, bh::field::content_language) == "fr");
    CHECK(html.body().find("Données d’entrée de la fiche 2026-W49") != std::string::npos);
    CHECK(testing::fixture_request("/v1/sheets/2026-W49/observations.csv?lang=fr").body() ==
          testing::fixture_request("/v1/sheets/2026-W49/observations.csv").body());
    CHECK(testing::fixture_request("/v1/sheets/2026-W49/observations?lang=fr").body() ==
          testing::fixture_request("/v1/sheets/2026-W49/observations").body());
}

TEST_CASE("the first part of a week is sent before its later chunks are read")
{
    gated_archive gate(1);
    auto& inputs = gate.inputs;
    auto const& sheet = sheet_of(current_week);
    auto const chunks = current_chunks();
    REQUIRE(chunks.size() >= 3);
    // Chunk 1 cannot be read until released, and the stream opens all the same, its size known.
    auto s = opened(inputs, sheet, render::format::csv);
    REQUIRE(s);
    CHECK((*s)->size() == testing::fixture_inputs(current_week).size());
    auto const first = next_part(**s);
    REQUIRE(first);
    CHECK(**first == chunks[0]);
    CHECK(inputs.measure().chunk_reads <= 2);  // chunk 1 may be started, read ahead, and held by the gate
    gate.release.set_value();
    CHECK(std::string(chunks[0]) + read_all(**s) == testing::fixture_inputs(current_week));
}

TEST_CASE("the part after the one a client takes is read meanwhile, one ahead and no more")
{
    gated_archive gate(2);
    auto& inputs = gate.inputs;
    auto const& sheet = sheet_of(current_week);
    auto const chunks = current_chunks();
    REQUIRE(chunks.size() >= 3);
    auto s = opened(inputs, sheet, render::format::csv);
    REQUIRE(s);
    auto const first = next_part(**s);
    REQUIRE(first);
    // Chunk 1 is read without being asked for (5 s at most), and chunk 2 (gated) not yet.
    for (int waited = 0; waited < 500 && inputs.measure().chunk_reads < 2; ++waited)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    CHECK(inputs.measure().chunk_reads == 2);
    auto const second = next_part(**s);  // at once: it was read ahead
    REQUIRE(second);
    CHECK(**second == chunks[1]);
    // Chunk 2, the one after it, is being read ahead now (held by the gate), and nothing beyond.
    for (int waited = 0; waited < 500 && inputs.measure().chunk_reads < 3; ++waited)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    CHECK(inputs.measure().chunk_reads == 3);
    gate.release.set_value();
    CHECK(std::string(chunks[0]) + std::string(chunks[1]) + read_all(**s) == testing::fixture_inputs(current_week));
}

TEST_CASE("one client's streams are let in while they hold less than its share of the budget: its next is refused, another's opens")
{
    archive::options o;
    o.stream_bytes_per_reader = 1;  // a stream holding its first part holds the whole share
    counting count;
    archive::archive inputs(o, count.sources());
    auto const& sheet = sheet_of(current_week);
    std::string const greedy = "198.51.100.7", other = "203.0.113.9";
    {
        auto held = opened(inputs, sheet, render::format::csv, greedy);
        REQUIRE(held);
        auto const refused = opened(inputs, sheet, render::format::json, greedy);
        REQUIRE_FALSE(refused);
        CHECK(refused.err().code == pricing::errc::unavailable);
        CHECK(refused.err().message.find("as one client may (1 bytes held)") != std::string::npos);
        CHECK(inputs.open_cached(sheet, render::format::csv, greedy) == nullptr);
        CHECK(inputs.measure().refused_streams == 1);
        // Another client, and a reader the server does not name, still open theirs, whole.
        auto theirs = opened(inputs, sheet, render::format::csv, other);
        REQUIRE(theirs);
        CHECK(read_all(**theirs) == testing::fixture_inputs(current_week));
        CHECK(inputs.open_cached(sheet, render::format::csv) != nullptr);
        // Over HTTP the reader is the client the request context names: 503 with Retry-After for
        // the one holding its share, the whole CSV for another.
        auto const busy = get(&inputs, "/v1/sheets/2026-W49/observations.csv", greedy);
        CHECK(busy.result() == bh::status::service_unavailable);
        CHECK(header(busy, bh::field::retry_after) == "10");
        CHECK(std::string(busy.body().view()).find("as one client may") != std::string::npos);
        CHECK(get(&inputs, "/v1/sheets/2026-W49/observations.csv", other).result() == bh::status::ok);
    }
    // Its stream let go, the client opens again, and nothing is held.
    CHECK(inputs.measure().streamed_bytes == 0);
    CHECK(opened(inputs, sheet, render::format::csv, greedy));
}

// Pages of the current week asked for by named readers, their answers kept in order of asking.
struct page_asker {
    archive::archive& inputs;
    std::vector<std::future<archive::result>> answers{};

    void ask(render::format f, locale::language l, std::string const& reader)
    {
        auto given = std::make_shared<std::promise<archive::result>>();
        answers.push_back(given->get_future());
        inputs.fetch(sheet_of(current_week), f, l, [given](archive::result r) { given->set_value(std::move(r)); },
                     reader);
    }
};

// Opens the gate when the test ends, whatever way: the archive's threads can then be joined.
struct opened_at_exit {
    std::promise<void>& gate;
    bool opened = false;
    void open()
    {
        if (!std::exchange(opened, true))
            gate.set_value();
    }
    ~opened_at_exit() { open(); }
};

TEST_CASE("one client's reads waiting are a share of those the archive lets wait: its next is refused at once, another's waits")
{
    archive::options o;
    o.threads = 1;
    o.max_waiting_per_reader = 2;
    gated_archive gate(0, false, o);  // every chunk read waits for the release
    opened_at_exit release{gate.release};
    page_asker pages{gate.inputs};
    auto& answers = pages.answers;
    auto const ask = [&](render::format f, locale::language l, std::string const& reader) { pages.ask(f, l, reader); };
    std::string const greedy = "198.51.100.7", other = "203.0.113.9";
    ask(render::format::markdown, locale::language::en, greedy);
    ask(render::format::markdown, locale::language::fr, greedy);
    ask(render::format::html, locale::language::en, greedy);  // its third: refused at once
    REQUIRE(answers[2].wait_for(std::chrono::seconds(0)) == std::future_status::ready);
    auto const refused = answers[2].get();
    REQUIRE_FALSE(refused);
    CHECK(refused.err().code == pricing::errc::unavailable);
    CHECK(refused.err().message.find("as many reads waiting as one client may (2)") != std::string::npos);
    ask(render::format::html, locale::language::en, other);  // another client's waits its turn
    CHECK(answers[3].wait_for(std::chrono::milliseconds(50)) == std::future_status::timeout);
    release.open();
    for (std::size_t i : {0u, 1u, 3u})
        CHECK(answers[i].get());
    // Its reads answered, the client may wait again.
    ask(render::format::html, locale::language::fr, greedy);
    CHECK(answers[4].get());
}

TEST_CASE("a client's reads that waited past their deadline count no more: it may wait again")
{
    archive::options o;
    o.threads = 1;
    o.max_waiting_per_reader = 2;
    o.timeout = std::chrono::milliseconds(100);
    gated_archive gate(0, false, o);
    opened_at_exit release{gate.release};
    page_asker pages{gate.inputs};
    std::string const greedy = "198.51.100.7";
    pages.ask(render::format::markdown, locale::language::en, greedy);
    pages.ask(render::format::markdown, locale::language::fr, greedy);
    for (std::size_t i : {0u, 1u}) {
        auto const late = pages.answers[i].get();  // the watchdog's, within 100 ms
        REQUIRE_FALSE(late);
        CHECK(late.err().message.find("did not answer in time") != std::string::npos);
    }
    pages.ask(render::format::html, locale::language::en, greedy);
    auto const third = pages.answers[2].get();  // waits and expires too: it is not refused at once
    REQUIRE_FALSE(third);
    CHECK(third.err().message.find("did not answer in time") != std::string::npos);
}

TEST_CASE("a source that fails in the middle of a week fails that part, and the HTTP body is never complete")
{
    archive::options o;
    o.retry_after_failure = std::chrono::milliseconds(0);  // the next week is tried at once
    gated_archive gate(2, true, o);
    auto& inputs = gate.inputs;
    gate.release.set_value();
    auto s = opened(inputs, sheet_of(current_week), render::format::json);
    REQUIRE(s);
    CHECK(next_part(**s));
    CHECK(next_part(**s));
    auto const third = next_part(**s);
    REQUIRE_FALSE(third);
    CHECK(third.err().code == pricing::errc::unavailable);
    CHECK(inputs.measure().failed_reads == 1);
    // Gathered by http::handle, such a body is an error, never a short 200.
    CHECK_THROWS(get(&inputs, "/v1/sheets/2026-W48/observations.csv"));
}

TEST_CASE("a week read once is served from the cache without a read, and read once for requests waiting together")
{
    counting count;
    archive::archive inputs({}, count.sources());
    auto const& sheet = sheet_of(current_week);
    CHECK(inputs.open_cached(sheet, render::format::csv) == nullptr);
    auto const first = get(&inputs, "/v1/sheets/2026-W49/observations.csv");
    REQUIRE(first.result() == bh::status::ok);
    auto const parts = pricing::input_chunks(testing::fixture_inputs(current_week), small_chunks).size();
    CHECK(inputs.measure().reads == 1);
    CHECK(inputs.measure().chunk_reads == parts);
    int const source_calls = *count.calls;
    CHECK(source_calls == static_cast<int>(parts) + 1);  // the layout and each chunk
    REQUIRE(inputs.open_cached(sheet, render::format::csv) != nullptr);
    CHECK(get(&inputs, "/v1/sheets/2026-W49/observations.csv").body() == first.body());
    // The JSON is rendered from the cached chunks: no read; the page too.
    CHECK(get(&inputs, "/v1/sheets/2026-W49/observations.json").result() == bh::status::ok);
    CHECK(get(&inputs, "/v1/sheets/2026-W49/observations.md").result() == bh::status::ok);
    CHECK(*count.calls == source_calls);
    auto const figures = inputs.measure();
    CHECK(figures.reads == 1);
    CHECK(figures.hits >= 1);
    CHECK(figures.cached_items == 1 + 2 * parts + 1);  // the layout, the CSV and JSON parts, the page
    CHECK(figures.cached_bytes >= first.body().size());

    // Requests that wait on the same thing share one read.
    std::promise<void> release;
    auto released = release.get_future().share();
    auto slow_reads = std::make_shared<std::atomic<int>>(0);
    archive::archive slow({}, testing::text_sources(
                                  [slow_reads, released](pricing::price_sheet const& s) {
                                      ++*slow_reads;
                                      released.wait();
                                      return testing::fixture_inputs(s.week);
                                  },
                                  pricing::input_chunk_bytes));
    std::vector<std::future<std::string>> waiting;
    for (int i = 0; i < 5; ++i)
        waiting.push_back(std::async(std::launch::async, [&] { return read_whole(slow, sheet, render::format::csv); }));
    for (int i = 0; i < 10'000 && slow.measure().reads == 0; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    release.set_value();
    for (auto& w : waiting)
        CHECK(w.get() == testing::fixture_inputs(current_week));
    // Each open either joined the read in progress or found it cached: one layout, one chunk.
    CHECK(*slow_reads == 2);
}

TEST_CASE("the cache keeps within its byte budget, least recently used out first, and never holds an item over it")
{
    counting count;
    auto const csv_size = testing::fixture_inputs(current_week).size();
    archive::options o;
    // One week's chunks (and its layout) fit, not two.
    o.cache_bytes = std::max(csv_size, testing::fixture_inputs(past_week).size()) + 256;
    archive::archive inputs(o, count.sources());
    CHECK(read_whole(inputs, sheet_of(current_week), render::format::csv) == testing::fixture_inputs(current_week));
    CHECK(inputs.open_cached(sheet_of(current_week), render::format::csv) != nullptr);
    CHECK(read_whole(inputs, sheet_of(past_week), render::format::csv) == testing::fixture_inputs(past_week));
    CHECK(inputs.measure().cached_bytes <= o.cache_bytes);
    CHECK(inputs.open_cached(sheet_of(current_week), render::format::csv) == nullptr);  // pushed out
    int const calls = *count.calls;
    CHECK(read_whole(inputs, sheet_of(current_week), render::format::csv) == testing::fixture_inputs(current_week));
    CHECK(*count.calls > calls);  // read again

    archive::options none;
    none.cache_bytes = 0;
    archive::archive uncached(none, count.sources());
    auto const before = uncached.measure();
    REQUIRE(read_whole(uncached, sheet_of(current_week), render::format::csv) == testing::fixture_inputs(current_week));
    REQUIRE(read_whole(uncached, sheet_of(current_week), render::format::csv) == testing::fixture_inputs(current_week));
    CHECK(uncached.measure().reads == before.reads + 2);
    CHECK(uncached.measure().cached_bytes == 0);
}

TEST_CASE("a week larger than the whole budget is sent and let go: it pushes nothing else out")
{
    auto const& small = testing::fixture_inputs(past_week);
    std::string big = testing::fixture_inputs(current_week);
    std::string const rows = big.substr(big.find('\n') + 1);
    for (int i = 0; i < 10; ++i)
        big += rows;
    archive::options o;
    o.cache_bytes = small.size() + 4096;  // room for the layouts and a page, not for the big week
    REQUIRE(big.size() > o.cache_bytes);
    archive::archive inputs(o, testing::text_sources(
                                   [&](pricing::price_sheet const& s) { return s.week == past_week ? small : big; },
                                   small_chunks));
    CHECK(read_whole(inputs, sheet_of(past_week), render::format::csv) == small);
    REQUIRE(inputs.open_cached(sheet_of(past_week), render::format::csv) != nullptr);
    CHECK(read_whole(inputs, sheet_of(current_week), render::format::csv) == big);
    CHECK(read_whole(inputs, sheet_of(current_week), render::format::json).size() > big.size());
    CHECK(fetched_page(inputs, sheet_of(current_week)));
    CHECK(inputs.open_cached(sheet_of(past_week), render::format::csv) != nullptr);  // still there
    CHECK(inputs.open_cached(sheet_of(current_week), render::format::csv) == nullptr);
    CHECK(inputs.measure().cached_bytes <= o.cache_bytes);
}

TEST_CASE("a republished week is a new publication: its inputs are read again, and a stream never mixes two")
{
    counting count;
    archive::archive inputs({}, count.sources());
    auto sheet = sheet_of(current_week);
    REQUIRE(read_whole(inputs, sheet, render::format::csv).size() > 0);
    sheet.published_at += std::chrono::hours(1);
    CHECK(inputs.open_cached(sheet, render::format::csv) == nullptr);
    REQUIRE(read_whole(inputs, sheet, render::format::csv).size() > 0);
    CHECK(inputs.measure().reads == 2);

    // Republished between two chunks: the source has no chunk of the publication read (as the
    // database's query, keyed by inputs_sha256, finds none), and that part fails instead of sending
    // fewer bytes than announced or another publication's.
    auto const other = std::make_shared<std::atomic<bool>>(false);
    archive::archive changing({}, testing::text_sources(
                                      [other](pricing::price_sheet const& s) {
                                          return *other ? std::string() : testing::fixture_inputs(s.week);
                                      },
                                      small_chunks));
    auto s = opened(changing, sheet_of(current_week), render::format::csv);
    REQUIRE(s);
    REQUIRE(next_part(**s));
    *other = true;
    bool failed = false;
    for (int i = 0; i < 100 && !failed; ++i) {
        auto const part = next_part(**s);
        failed = !part;
        if (part && (*part)->empty())
            break;
    }
    CHECK(failed);
}

TEST_CASE("a source that fails or does not answer gives 503 with Retry-After, and a cached week still serves")
{
    auto failing = std::make_shared<std::atomic<bool>>(false);
    archive::archive inputs({}, testing::text_sources(
                                    [failing](pricing::price_sheet const& s) -> std::string {
                                        if (*failing)
                                            throw std::runtime_error("the database connection was lost");
                                        return testing::fixture_inputs(s.week);
                                    },
                                    small_chunks));
    REQUIRE(get(&inputs, "/v1/sheets/2026-W49/observations.csv").result() == bh::status::ok);
    *failing = true;
    auto const refused = get(&inputs, "/v1/sheets/2026-W48/observations.csv");
    CHECK(refused.result() == bh::status::service_unavailable);
    CHECK(header(refused, bh::field::retry_after) == "10");
    CHECK(header(refused, bh::field::content_type) == "application/problem+json");
    CHECK(refused.body().find("cannot be read now") != std::string::npos);
    CHECK(get(&inputs, "/v1/sheets/2026-W49/observations.csv").result() == bh::status::ok);  // cached

    // A source that hangs: the request is answered 503 at the archive's timeout all the same.
    std::promise<void> release;
    auto released = release.get_future().share();
    archive::options quick;
    quick.timeout = std::chrono::milliseconds(50);
    archive::archive hanging(quick, testing::text_sources(
                                        [released](pricing::price_sheet const& s) {
                                            released.wait();
                                            return testing::fixture_inputs(s.week);
                                        },
                                        small_chunks));
    auto const late = get(&hanging, "/v1/sheets/2026-W48/observations.csv");
    CHECK(late.result() == bh::status::service_unavailable);
    CHECK(header(late, bh::field::retry_after) == "10");
    release.set_value();

    // A server without an archive says so.
    auto const none = get(nullptr, "/v1/sheets/2026-W48/observations.csv");
    CHECK(none.result() == bh::status::service_unavailable);
    CHECK(header(none, bh::field::retry_after) == "10");
}

TEST_CASE("nothing stored for a publication is 404, and an unknown parameter is refused before any read")
{
    auto reads = std::make_shared<std::atomic<int>>(0);
    archive::archive empty({}, testing::text_sources(
                                   [reads](pricing::price_sheet const&) {
                                       ++*reads;
                                       return std::string();
                                   },
                                   small_chunks));
    auto const missing = get(&empty, "/v1/sheets/2026-W48/observations.csv");
    CHECK(missing.result() == bh::status::not_found);
    CHECK(get(&empty, "/v1/sheets/2026-W48/observations.md").result() == bh::status::not_found);
    CHECK(*reads == 2);
    auto const unknown = get(&empty, "/v1/sheets/2026-W48/observations.csv?nope=1");
    CHECK(unknown.result() == bh::status::bad_request);
    CHECK(*reads == 2);
}
