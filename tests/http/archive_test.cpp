// The sheets' inputs come from the archive, not the snapshot: served as stored, rendered from the
// stored CSV, cached within a byte budget by publication, read once for every request waiting on
// the same document, and refused with 503 + Retry-After (never a hang) when the source fails.
#include "server/archive/archive.hpp"

#include "fixture.hpp"

#include "server/store/digest.hpp"

#include <boost/json/parse.hpp>
#include <doctest/doctest.h>

#include <atomic>
#include <future>
#include <thread>
#include <stdexcept>

using namespace lcg;
namespace bh = boost::beast::http;

namespace {

std::string header(http::response const& res, bh::field f) { return std::string(res[f]); }

pricing::price_sheet const& sheet_of(pricing::iso_week week) { return *testing::fixture_snapshot()->find_sheet(week); }

constexpr pricing::iso_week past_week{2026, 48};
constexpr pricing::iso_week current_week{2026, 49};

// GET `target` on the fixture snapshot with `inputs` as the archive.
http::response get(archive::archive* inputs, std::string const& target)
{
    http::request req{bh::verb::get, target, 11};
    req.set(bh::field::host, "127.0.0.1");
    http::request_context ctx{testing::fixture_snapshot(), testing::fixture_now()};
    ctx.archive = inputs;
    return http::handle(req, ctx);
}

// The result of archive::fetch, waited for.
archive::result fetched(archive::archive& a, pricing::price_sheet const& sheet, render::format f)
{
    std::promise<archive::result> given;
    auto result = given.get_future();
    a.fetch(sheet, f, [&given](archive::result r) { given.set_value(std::move(r)); });
    return result.get();
}

// A reader of the fixture's inputs that counts its reads.
archive::reader_factory counting_reader(std::shared_ptr<std::atomic<int>> reads)
{
    return [reads] {
        return [reads](pricing::price_sheet const& sheet) {
            ++*reads;
            return testing::fixture_inputs(sheet.week);
        };
    };
}

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
        auto const res = testing::fixture_request(target);
        REQUIRE(res.result() == bh::status::ok);
        CHECK(res.body() == testing::fixture_inputs(week));
        CHECK(store::sha256_hex(res.body().view()) == sheet_of(week).inputs_sha256);
        CHECK(header(res, bh::field::etag) == "\"" + sheet_of(week).inputs_sha256.substr(0, 32) + "\"");
        CHECK(header(res, bh::field::link).find("observations.md") != std::string::npos);
        bool const past = week == past_week;
        CHECK(header(res, bh::field::cache_control) ==
              (past ? "public, max-age=31536000, immutable" : "public, max-age=300, stale-while-revalidate=600, stale-if-error=86400"));
    }
    // Named by an alias, the week changes with the next publication.
    auto const latest = testing::fixture_request("/v1/sheets/latest/observations.csv");
    CHECK(latest.body() == testing::fixture_inputs(current_week));
    CHECK(header(latest, bh::field::cache_control).find("immutable") == std::string::npos);
}

TEST_CASE("the JSON, Markdown and HTML of a week's inputs are rendered from its CSV")
{
    auto const json = boost::json::parse(testing::fixture_request("/v1/sheets/2026-W49/observations").body()).as_object();
    CHECK(json.at("week").as_string() == "2026-W49");
    CHECK(json.at("count").to_number<int>() == 19);
    CHECK(json.at("inputs_sha256").as_string() == sheet_of(current_week).inputs_sha256);
    auto const& list = json.at("observations").as_array();
    REQUIRE(list.size() == 19);
    auto const& first = list.front().as_object();
    CHECK(first.at("price_per_gpu_hour").as_string().size() > 0);
    CHECK(first.at("source").as_string() == "synthetic-sample");
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

TEST_CASE("a week's inputs pages speak French with lang=fr; the CSV and the JSON are the same in both")
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

TEST_CASE("a document read once is served from the cache, and read once for requests waiting together")
{
    auto reads = std::make_shared<std::atomic<int>>(0);
    archive::archive inputs({}, counting_reader(reads));
    auto const& sheet = sheet_of(current_week);
    CHECK(inputs.cached(sheet, render::format::csv) == nullptr);
    auto const first = get(&inputs, "/v1/sheets/2026-W49/observations.csv");
    REQUIRE(first.result() == bh::status::ok);
    CHECK(*reads == 1);
    REQUIRE(inputs.cached(sheet, render::format::csv) != nullptr);
    CHECK(get(&inputs, "/v1/sheets/2026-W49/observations.csv").body() == first.body());
    // The JSON is rendered from the cached CSV: no second read.
    CHECK(get(&inputs, "/v1/sheets/2026-W49/observations.json").result() == bh::status::ok);
    CHECK(*reads == 1);
    auto const figures = inputs.measure();
    CHECK(figures.cached_documents == 2);
    CHECK(figures.hits >= 1);
    CHECK(figures.cached_bytes >= first.body().size());

    // Requests that wait on the same document share one read.
    std::promise<void> release;
    auto released = release.get_future().share();
    auto slow_reads = std::make_shared<std::atomic<int>>(0);
    archive::archive slow({}, [slow_reads, released] {
        return [slow_reads, released](pricing::price_sheet const& s) {
            ++*slow_reads;
            released.wait();
            return testing::fixture_inputs(s.week);
        };
    });
    std::vector<std::future<archive::result>> waiting;
    for (int i = 0; i < 5; ++i)
        waiting.push_back(std::async(std::launch::async, [&] { return fetched(slow, sheet, render::format::csv); }));
    for (int i = 0; i < 10'000 && slow.measure().reads == 0; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    release.set_value();
    for (auto& w : waiting)
        CHECK(w.get());
    // Each fetch either joined the read in progress or found its document cached.
    CHECK(*slow_reads == 1);
}

TEST_CASE("the cache keeps within its byte budget, least recently used out first, and never holds a document over it")
{
    auto reads = std::make_shared<std::atomic<int>>(0);
    auto const csv_size = testing::fixture_inputs(current_week).size();
    archive::options o;
    o.cache_bytes = csv_size + testing::fixture_inputs(past_week).size() / 2;  // one week's CSV fits, not two
    archive::archive inputs(o, counting_reader(reads));
    REQUIRE(fetched(inputs, sheet_of(current_week), render::format::csv));
    REQUIRE(fetched(inputs, sheet_of(past_week), render::format::csv));
    CHECK(inputs.cached(sheet_of(current_week), render::format::csv) == nullptr);
    CHECK(inputs.cached(sheet_of(past_week), render::format::csv) != nullptr);
    CHECK(inputs.measure().cached_bytes <= o.cache_bytes);

    archive::options none;
    none.cache_bytes = 0;
    archive::archive uncached(none, counting_reader(reads));
    int const before = *reads;
    REQUIRE(fetched(uncached, sheet_of(current_week), render::format::csv));
    REQUIRE(fetched(uncached, sheet_of(current_week), render::format::csv));
    CHECK(*reads == before + 2);
    CHECK(uncached.measure().cached_bytes == 0);
}

TEST_CASE("a republished week is a new publication: its inputs are read again")
{
    auto reads = std::make_shared<std::atomic<int>>(0);
    archive::archive inputs({}, counting_reader(reads));
    auto sheet = sheet_of(current_week);
    REQUIRE(fetched(inputs, sheet, render::format::csv));
    sheet.published_at += std::chrono::hours(1);
    CHECK(inputs.cached(sheet, render::format::csv) == nullptr);
    REQUIRE(fetched(inputs, sheet, render::format::csv));
    CHECK(*reads == 2);
}

TEST_CASE("a source that fails or does not answer gives 503 with Retry-After, and a cached week still serves")
{
    auto failing = std::make_shared<std::atomic<bool>>(false);
    archive::archive inputs({}, [failing] {
        return [failing](pricing::price_sheet const& s) -> std::string {
            if (*failing)
                throw std::runtime_error("the database connection was lost");
            return testing::fixture_inputs(s.week);
        };
    });
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
    archive::archive hanging(quick, [released] {
        return [released](pricing::price_sheet const& s) {
            released.wait();
            return testing::fixture_inputs(s.week);
        };
    });
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
    archive::archive empty({}, [reads] {
        return [reads](pricing::price_sheet const&) {
            ++*reads;
            return std::string();
        };
    });
    auto const missing = get(&empty, "/v1/sheets/2026-W48/observations.csv");
    CHECK(missing.result() == bh::status::not_found);
    CHECK(*reads == 1);
    auto const unknown = get(&empty, "/v1/sheets/2026-W48/observations.csv?nope=1");
    CHECK(unknown.result() == bh::status::bad_request);
    CHECK(*reads == 1);
}
