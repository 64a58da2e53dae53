// A week's inputs: its observations and its raw market files, read from the archive, not the
// snapshot, and sent as they are read.
#include "server/http/handlers.hpp"

#include "server/ops/client_address.hpp"

#include "pricing/audit.hpp"

#include <variant>

namespace lcg::http {

namespace {

// The archive of inputs cannot answer now: a retry soon may find it (PostgreSQL back, a read done).
response archive_unavailable(request const& req, std::string const& detail)
{
    auto res = problem(req, beast_http::status::service_unavailable, detail);
    res.set(beast_http::field::retry_after, "10");
    return res;
}

// A week's CSV or JSON body, part after part as the archive reads it; a part that cannot be read
// closes the connection (the client sees a body shorter than announced).
class archive_parts final : public body_source {
public:
    explicit archive_parts(std::shared_ptr<archive::stream> stream) : stream_(std::move(stream)) {}

    void next(std::function<void(body_part)> done) override
    {
        stream_->next([done = std::move(done)](archive::part read) {
            if (!read)
                return done({nullptr, {}, true});
            auto const& bytes = *read;
            done({bytes, *bytes});
        });
    }

private:
    std::shared_ptr<archive::stream> stream_;
};

response with_parts(response res, std::shared_ptr<archive::stream> stream)
{
    auto const size = stream->size();
    send_parts(res, std::make_shared<archive_parts>(std::move(stream)), size);
    return res;
}

// What a HEAD of a week's CSV or JSON is framed by: the length the signed index gives the CSV (when
// it lists this version of the week), none for the JSON. Its body is never asked for (a HEAD sends
// no body); were it asked, it would end at once.
class head_only_parts final : public body_source {
public:
    void next(std::function<void(body_part)> done) override { done({}); }
};

// A HEAD answered without reading a part, so a mirror fetches nothing from its upstream for it;
// empty when the CSV's length is not signed (an unsigned publication): the stream is opened then.
std::optional<response> head_of_parts(route_input const& in, pricing::price_sheet const& sheet, response res)
{
    if (in.req.method() != beast_http::verb::head)
        return std::nullopt;
    std::optional<std::size_t> size;
    if (in.format == render::format::csv) {
        auto const& signed_catalog = in.snap().signed_catalog;
        auto const* indexed = signed_catalog ? signed_catalog->signature.find(sheet.week) : nullptr;
        if (!indexed || indexed->inputs_sha256 != sheet.inputs_sha256)
            return std::nullopt;
        size = static_cast<std::size_t>(indexed->inputs_bytes);
    }
    send_parts(res, std::make_shared<head_only_parts>(), size);
    return res;
}

// Known before anything is read: the CSV's validator is the sheet's inputs_sha256 (the SHA-256 of
// its bytes); the JSON is rendered from those bytes alone, so it is tagged by them too.
std::string inputs_etag(pricing::price_sheet const& sheet, render::format f)
{
    return "\"" + sheet.inputs_sha256.substr(0, 32) + (f == render::format::csv ? "" : "-json") + "\"";
}

response archive_failure(request const& req, pricing::error const& e)
{
    return e.code == pricing::errc::unavailable ? archive_unavailable(req, e.message) : from_error(req, e);
}

// Who reads, as the archive holds each client to its share of the streams in flight and of the
// reads waiting: one address asking for week after week leaves the others theirs.
std::string reader_of(route_input const& in)
{
    return in.ctx.client.empty() ? std::string() : ops::client_key(std::string(in.ctx.client));
}

// The CSV and the JSON are sent as they are read: a conditional request is answered before any read,
// the head once the first part is in (or 503 when it cannot be read within the archive's timeout).
response observations_parts(route_input& in, archive::archive* inputs, pricing::price_sheet const& sheet,
                            std::string_view cache_control)
{
    auto res = parts_response(in.req, {render::content_type(in.format), inputs_etag(sheet, in.format), sheet.published_at},
                              cache_control);
    if (res.result() != beast_http::status::ok)
        return res;
    if (auto head = head_of_parts(in, sheet, res))
        return std::move(*head);
    std::string reader = reader_of(in);
    if (auto stream = inputs->open_cached(sheet, in.format, reader))
        return with_parts(std::move(res), std::move(stream));
    in.later = [inputs, sheet, format = in.format, req = std::make_shared<const request>(in.req),
                head = std::make_shared<response>(std::move(res)), reader = std::move(reader)](responder send) {
        inputs->open(sheet, format, [req, head, send = std::move(send)](archive::opened stream) {
            if (!stream)
                return send(archive_failure(*req, stream.err()));
            send(with_parts(std::move(*head), *stream));
        }, reader);
    };
    return {};
}

// A document of the archive (a page of a week's inputs, its raw files): from its cache at once,
// else read off the event loop and sent when ready (or 503 with Retry-After when the archive
// cannot be read in time). `localised` pages say which language they speak.
response archive_document(route_input& in, std::string_view cache_control, bool localised,
                          std::shared_ptr<const snapshot::document> const& cached,
                          std::function<void(archive::completion)> fetch)
{
    auto const served = [lang = in.lang, localised](response res) {
        if (localised)
            res.set(beast_http::field::content_language, locale::to_string(lang));
        return res;
    };
    if (cached)
        return served(serve_document(in.req, cached, cache_control));
    in.later = [fetch = std::move(fetch), req = std::make_shared<const request>(in.req), cache_control,
                served](responder send) {
        fetch([req, send = std::move(send), cache_control, served](archive::result read) {
            if (read)
                return send(served(serve_document(*req, *read, cache_control)));
            send(archive_failure(*req, read.err()));
        });
    };
    return {};
}

// What a week's inputs are served with: for ever once the week is over and named by itself (not
// "current"), else briefly.
std::string_view inputs_cache_control(route_input const& in, pricing::price_sheet const& sheet)
{
    bool const immutable = !names_week_alias(in.captures[0]) && sheet.effective_until <= in.ctx.now;
    return immutable ? immutable_cache_control : shared_cache_control;
}

// A week's inputs: the sheet the path names and the archive that holds them, or the refusal.
struct archived_week {
    pricing::price_sheet const* sheet = nullptr;
    archive::archive* inputs = nullptr;
};
pricing::outcome<archived_week, response> week_in_archive(route_input& in)
{
    auto const found = published_week(in);
    if (!found)
        return found.err();
    if (!in.ctx.archive)
        return archive_unavailable(in.req, "this server keeps no archive of the sheets' inputs");
    return archived_week{found.value(), in.ctx.archive};
}

}

// A sheet's inputs come from the archive, not the snapshot: the CSV and the JSON streamed as read,
// the pages from its cache at once, else read off the event loop and sent when ready (or 503 with
// Retry-After when the archive cannot be read in time).
response handle_observations(route_input& in)
{
    auto const found = week_in_archive(in);
    if (!found)
        return found.err();
    auto* const inputs = found.value().inputs;
    pricing::price_sheet const& sheet = *found.value().sheet;
    std::string_view const cache_control = inputs_cache_control(in, sheet);
    if (in.format == render::format::csv || in.format == render::format::json)
        return observations_parts(in, inputs, sheet, cache_control);
    // The pages speak the reader's language; the CSV and the JSON are data, the same in both.
    return archive_document(in, cache_control, true, inputs->cached(sheet, in.format, in.lang),
                            [inputs, sheet, format = in.format, lang = in.lang, reader = reader_of(in)](archive::completion done) {
                                inputs->fetch(sheet, format, lang, std::move(done), reader);
                            });
}

// The raw market files of a week (issue 24, item 5), listed in every table format, each served
// byte for byte under its SHA-256, from the archive as the observations are.
response handle_raw_inputs(route_input& in)
{
    auto const found = week_in_archive(in);
    if (!found)
        return found.err();
    auto* const inputs = found.value().inputs;
    pricing::price_sheet const& sheet = *found.value().sheet;
    bool const page = in.format == render::format::markdown || in.format == render::format::html;
    return archive_document(in, inputs_cache_control(in, sheet), page,
                            inputs->cached_raw_inputs(sheet, in.format, in.lang),
                            [inputs, sheet, format = in.format, lang = in.lang, reader = reader_of(in)](archive::completion done) {
                                inputs->fetch_raw_inputs(sheet, format, lang, std::move(done), reader);
                            });
}

response handle_raw_file(route_input& in)
{
    auto const found = week_in_archive(in);
    if (!found)
        return found.err();
    auto* const inputs = found.value().inputs;
    pricing::price_sheet const& sheet = *found.value().sheet;
    std::string const sha256(in.captures[1]);
    if (!pricing::is_sha256_hex(sha256))
        return problem(in.req, beast_http::status::not_found,
                       "a raw file is named by its SHA-256 (64 lowercase hex digits), as /v1/sheets/" +
                           pricing::to_string(sheet.week) + "/sources lists them");
    // Named by its own hash, a file never changes, whatever the week's alias.
    return archive_document(in, immutable_cache_control, false, inputs->cached_raw_file(sheet, sha256),
                            [inputs, sheet, sha256, reader = reader_of(in)](archive::completion done) {
                                inputs->fetch_raw_file(sheet, sha256, std::move(done), reader);
                            });
}

}
