#include "server/mirror/upstream.hpp"

#include "server/mirror/documents.hpp"
#include "server/mirror/sheet_check.hpp"
#include "server/mirror/spool.hpp"
#include "server/digest/digest.hpp"
#include "server/trust/trust.hpp"
#include "render/resources.hpp"

#include <algorithm>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <vector>

namespace lcg::mirror {

namespace {

// The documents whose change means the upstream published something: the sheet index, and the
// catalog's signature (the catalog is taken only as signed: /v1/gpus and the others are not read).
using render::resource;
constexpr resource watched[] = {resource::sheets, resource::catalog_signature};
// The feed of new sheets, where the upstream has one: while it is unchanged no sheet was published
// or replaced, and /v1/sheets need not be asked.
std::string feed() { return render::path_of(resource::sheets_feed); }

template <class T>
T accepted_or_throw(pricing::outcome<T> r)
{
    if (!r)
        throw std::runtime_error(r.err().message);
    return std::move(r).value();
}

std::string sheet_path(pricing::iso_week week) { return render::path_of(render::resource::sheet, pricing::to_string(week)); }

// A sheet's canonical inputs, given to `sink` as they arrive, no longer than `signed_bytes`, the
// length the signed index gives (client::streamed_limits).
void stream_inputs(upstream_options const& options, pricing::price_sheet const& sheet, std::uint64_t signed_bytes,
                   client::body_sink const& sink)
{
    client::get_stream(options.origin, render::path_of(render::resource::observations, pricing::to_string(sheet.week)) + ".csv", "text/csv",
                       client::streamed_limits(options.limits, signed_bytes), sink);
}

// The sheet index as served must be the signed one: a week it no longer lists is withheld, an older
// version of a week rolled back, and a sheet the signed index does not list is not taken.
void check_index(std::vector<listed_sheet> const& listed, pricing::catalog_signature const& signed_index)
{
    for (auto const& s : signed_index.sheets) {
        std::string const week = pricing::to_string(s.week);
        auto const it = std::find_if(listed.begin(), listed.end(), [&](auto const& l) { return l.week == s.week; });
        if (it == listed.end())
            throw std::runtime_error("the upstream's /v1/sheets does not list " + week +
                                     ", which its signed index does: refused as withheld");
        if (it->published_at < s.published_at)
            throw std::runtime_error("the upstream's /v1/sheets lists " + week + " as published at " +
                                     pricing::to_rfc3339(it->published_at) + ", before the version its signed index "
                                     "lists (" + pricing::to_rfc3339(s.published_at) + "): refused as rolled back");
        if (it->published_at != s.published_at || it->inputs_sha256 != s.inputs_sha256)
            throw std::runtime_error("the upstream's /v1/sheets lists " + week + " otherwise than its signed index: "
                                     "refused as unsigned");
    }
    for (auto const& l : listed)
        if (!signed_index.find(l.week))
            throw std::runtime_error("the upstream's /v1/sheets lists " + pricing::to_string(l.week) +
                                     ", which its signed index does not: refused as unsigned");
}

// The upstream's catalog, taken only as signed: the signature (a small document) is checked first,
// then the catalog it vouches for is fetched, no longer than its signed length, and must hash to
// the signed SHA-256. A catalog signed before the one this mirror holds is refused as rolled back.
pricing::signed_catalog fetch_signed_catalog(upstream_options const& options, std::string_view signature_body,
                                             pricing::signed_catalog const* held)
{
    auto sig = accepted_or_throw(trust::parse_catalog_signature(signature_body));
    if (auto const by = trust::verify_catalog(sig, options.pinned_keys); !by)
        throw std::runtime_error("the upstream's catalog refused: its signature: " + by.err().message);
    if (held && sig.signed_at < held->signature.signed_at)
        throw std::runtime_error("the upstream's catalog was signed at " + pricing::to_rfc3339(sig.signed_at) +
                                 ", before the one this mirror verified (" +
                                 pricing::to_rfc3339(held->signature.signed_at) + "): refused as rolled back");
    if (held && held->signature == sig)
        return *held;
    std::string document = client::get_body(options.origin, render::path_of(render::resource::catalog), "application/json",
                                            client::at_most(options.limits, sig.catalog_bytes));
    if (document.size() != sig.catalog_bytes || digest::sha256_hex(document) != sig.catalog_sha256)
        throw std::runtime_error("the upstream's /v1/catalog refused: it is not the document its signature "
                                 "vouches for (" + std::to_string(sig.catalog_bytes) + " bytes, SHA-256 " +
                                 sig.catalog_sha256 + ")");
    return {std::move(document), std::move(sig)};
}

// History only grows: a sheet this mirror verified is never dropped (withheld by its upstream),
// and a week is never answered by an older version than the one verified (rolled back). A
// correction is published later than what it corrects; a re-signing keeps its time. Either refusal
// keeps the last good snapshot serving, and /readyz says why.
void refuse_going_back(std::vector<pricing::price_sheet> const& verified, std::vector<pricing::price_sheet> const& next)
{
    for (auto const& held : verified) {
        auto const now = std::find_if(next.begin(), next.end(), [&](auto const& s) { return s.week == held.week; });
        std::string const week = pricing::to_string(held.week);
        if (now == next.end())
            throw std::runtime_error("the upstream no longer lists " + week +
                                     ", a sheet this mirror verified: refused as withheld");
        if (now->published_at < held.published_at)
            throw std::runtime_error("the upstream's " + week + " was published at " +
                                     pricing::to_rfc3339(now->published_at) + ", before the version this mirror "
                                     "verified (" + pricing::to_rfc3339(held.published_at) +
                                     "): refused as rolled back");
    }
}

}

// What the signed index accepted last says each week's inputs weigh, by their SHA-256: the archive's
// sources fetch no more than that, and nothing the mirror has not accepted.
struct signed_lengths {
    std::mutex mutex;
    std::map<std::string, std::uint64_t, std::less<>> by_sha256;

    void accept(pricing::catalog_signature const& index)
    {
        std::map<std::string, std::uint64_t, std::less<>> lengths;
        for (auto const& s : index.sheets)
            lengths[s.inputs_sha256] = s.inputs_bytes;
        std::lock_guard lock(mutex);
        by_sha256 = std::move(lengths);
    }

    std::uint64_t of(pricing::price_sheet const& sheet)
    {
        std::lock_guard lock(mutex);
        auto const it = by_sha256.find(sheet.inputs_sha256);
        if (it == by_sha256.end())
            throw std::runtime_error("the inputs of " + pricing::to_string(sheet.week) +
                                     " are not those of a sheet this mirror accepted");
        return it->second;
    }
};

upstream::upstream(upstream_options options)
    : options_(std::move(options)), witness_(options_.witness), lengths_(std::make_shared<signed_lengths>())
{
}

std::map<std::string, upstream::document, std::less<>> upstream::poll(bool& changed) const
{
    std::map<std::string, document, std::less<>> out;
    auto const held_document = [&](std::string_view path) -> document const* {
        if (!accepted_)
            return nullptr;
        auto it = accepted_->documents.find(path);
        return it == accepted_->documents.end() ? nullptr : &it->second;
    };
    bool sheets_unchanged = false;
    {
        document const* held = held_document(feed());
        auto r = client::get(options_.origin, feed(), "application/atom+xml", client::at_most(options_.limits, pricing::rules::max_signed_document_bytes),
                             held ? held->etag : "");
        if (r.status == 304 && held) {
            out[feed()] = *held;
            sheets_unchanged = true;
        } else if (r.status == 200) {
            sheets_unchanged = held && held->body == r.body;
            out[feed()] = {std::move(r.etag), std::move(r.body)};
        }
        // Any other answer (404 from an origin without the feed): /v1/sheets alone tells.
    }
    for (auto const kind : watched) {
        std::string const path = render::path_of(kind);
        document const* held = held_document(path);
        if (kind == resource::sheets && sheets_unchanged && held) {
            out[path] = *held;
            continue;
        }
        auto r = client::get(options_.origin, path, "application/json", client::at_most(options_.limits, pricing::rules::max_signed_document_bytes), held ? held->etag : "");
        if (r.status == 304 && held) {
            out[path] = *held;
            continue;
        }
        if (r.status != 200)
            throw client::fetch_error("GET " + options_.origin.to_string() + path + " answered " +
                                      std::to_string(r.status));
        // An upstream that ignores If-None-Match still changes nothing when it sends the same body.
        changed = changed || !held || held->body != r.body;
        out[path] = {std::move(r.etag), std::move(r.body)};
    }
    return out;
}

upstream::accepted_state upstream::fetch_whole(std::map<std::string, document, std::less<>> documents) const
{
    accepted_state next;
    next.signed_catalog = fetch_signed_catalog(options_, documents.at(render::path_of(resource::catalog_signature)).body,
                                               accepted_ ? &accepted_->signed_catalog : nullptr);
    next.catalog = accepted_or_throw(parse_signed_catalog(next.signed_catalog.document));
    auto const listed = accepted_or_throw(parse_sheet_index(documents.at(render::path_of(resource::sheets)).body));
    check_index(listed, next.signed_catalog.signature);
    for (auto const& entry : listed) {
        std::string const body =
            client::get_body(options_.origin, sheet_path(entry.week), "application/json", client::at_most(options_.limits, pricing::rules::max_signed_document_bytes));
        std::string const sha256 = digest::sha256_hex(body);
        if (accepted_) {
            auto const before = accepted_->sheet_digests.find(entry.week);
            auto const held = std::find_if(accepted_->sheets.begin(), accepted_->sheets.end(),
                                           [&](auto const& s) { return s.week == entry.week; });
            if (before != accepted_->sheet_digests.end() && before->second == sha256 && held != accepted_->sheets.end() &&
                held->inputs_sha256 == entry.inputs_sha256 && held->published_at == entry.published_at) {
                next.sheets.push_back(*held);  // the very sheet checked before
                next.sheet_digests[entry.week] = sha256;
                continue;
            }
        }
        auto sheet = accepted_or_throw(parse_sheet(body));
        if (sheet.week != entry.week || sheet.inputs_sha256 != entry.inputs_sha256 ||
            sheet.published_at != entry.published_at)
            throw std::runtime_error("sheet " + pricing::to_string(entry.week) +
                                     " refused: it is not the sheet /v1/sheets lists for that week");
        // The signature before the inputs: an unsigned or forged sheet costs no download.
        accepted_or_throw(check_signature(sheet, options_.pinned_keys));
        inputs_check inputs(sheet);
        stream_inputs(options_, sheet, next.signed_catalog.signature.find(sheet.week)->inputs_bytes,
                      [&](std::string_view bytes) { inputs.read(bytes); });
        accepted_or_throw(inputs.finish());
        next.sheets.push_back(std::move(sheet));
        next.sheet_digests[entry.week] = sha256;
    }
    std::sort(next.sheets.begin(), next.sheets.end(), [](auto const& a, auto const& b) { return a.week < b.week; });
    for (std::size_t i = 1; i < next.sheets.size(); ++i)
        if (next.sheets[i].week == next.sheets[i - 1].week)
            throw std::runtime_error("/v1/sheets lists " + pricing::to_string(next.sheets[i].week) + " twice");
    if (accepted_)
        refuse_going_back(accepted_->sheets, next.sheets);
    next.documents = std::move(documents);
    return next;
}

refresh_result upstream::refresh(snapshot::snapshot const* previous, pricing::instant now)
{
    bool changed = false;
    auto documents = poll(changed);
    std::optional<accepted_state> next;
    if (changed || !accepted_)
        next = fetch_whole(std::move(documents));
    accepted_state const& state = next ? *next : *accepted_;
    auto log = witness_.follow(options_.origin, options_.limits, options_.pinned_keys, now);
    witness_.check_sheets(state.sheets);
    // The keys a mirror publishes are those it verifies with: an auditor of the mirror checks the same.
    auto snap = snapshot::build(state.catalog, state.sheets, previous, now, {options_.pinned_keys, options_.public_url},
                                state.signed_catalog, std::move(log));
    if (next) {
        lengths_->accept(next->signed_catalog.signature);  // before any request can see the new sheets
        accepted_ = std::move(next);
    }
    return {std::move(snap), changed};
}

namespace {

// A week fetched from the upstream and checked, spooled on disk, with where its chunks lie.
struct held_week {
    pricing::iso_week week{};
    std::string inputs_sha256;
    spool csv;
    pricing::input_layout layout;
    std::vector<std::uint64_t> offsets;  // of each chunk in csv
};

// The week the archive's threads are reading, shared: a week's parts are read on whichever thread
// is free, and each must not fetch and hash the week again.
struct held_slot {
    std::mutex mutex;
    std::shared_ptr<const held_week> week;
};

class upstream_source final : public archive::source {
public:
    upstream_source(upstream_options const& options, std::shared_ptr<signed_lengths> lengths,
                    std::shared_ptr<held_slot> held)
        : options_(options), lengths_(std::move(lengths)), held_(std::move(held))
    {
    }

    pricing::input_layout layout(pricing::price_sheet const& sheet) override { return fetched(sheet)->layout; }

    std::string chunk(pricing::price_sheet const& sheet, std::size_t seq) override
    {
        auto const week = fetched(sheet);
        auto const& sizes = week->layout.chunk_sizes;
        std::string out = seq < sizes.size() ? week->csv.read(week->offsets[seq], sizes[seq]) : std::string();
        if (seq + 1 >= sizes.size()) {  // the week's last chunk: its spool goes
            std::lock_guard lock(held_->mutex);
            if (held_->week == week)
                held_->week.reset();
        }
        return out;
    }

    std::vector<pricing::raw_input> raw_inputs(pricing::price_sheet const& sheet) override
    {
        return accepted_or_throw(parse_raw_inputs(
            client::get_body(options_.origin, render::path_of(render::resource::raw_inputs, pricing::to_string(sheet.week)), "application/json", options_.limits),
            sheet.week));
    }

    // The archive checks the bytes against their name before serving them.
    std::optional<std::string> raw_bytes(pricing::price_sheet const& sheet, std::string const& sha256) override
    {
        return client::get_body(options_.origin, render::path_of(render::resource::raw_file, pricing::to_string(sheet.week), sha256), "*/*",
                                options_.limits);
    }

private:
    std::shared_ptr<const held_week> fetched(pricing::price_sheet const& sheet)
    {
        {
            std::lock_guard lock(held_->mutex);
            auto const& held = held_->week;
            if (held && held->week == sheet.week && held->inputs_sha256 == sheet.inputs_sha256)
                return held;
        }
        auto week = std::make_shared<held_week>();
        week->week = sheet.week;
        week->inputs_sha256 = sheet.inputs_sha256;
        digest::sha256_hasher hasher;
        pricing::input_chunker chunker;
        stream_inputs(options_, sheet, lengths_->of(sheet), [&](std::string_view bytes) {
            hasher.update(bytes);
            chunker.read(bytes);
            week->csv.append(bytes);
        });
        if (hasher.finish() != sheet.inputs_sha256)
            throw std::runtime_error("the upstream's inputs of " + pricing::to_string(sheet.week) +
                                     " do not hash to the sheet's inputs_sha256");
        week->layout = chunker.finish();
        std::uint64_t at = 0;
        for (auto const size : week->layout.chunk_sizes) {
            week->offsets.push_back(at);
            at += size;
        }
        std::lock_guard lock(held_->mutex);
        held_->week = week;
        return week;
    }

    upstream_options options_;
    std::shared_ptr<signed_lengths> lengths_;
    std::shared_ptr<held_slot> held_;
};

}

archive::source_factory upstream::inputs_sources() const
{
    auto held = std::make_shared<held_slot>();
    return [options = options_, lengths = lengths_, held]() -> std::unique_ptr<archive::source> {
        return std::make_unique<upstream_source>(options, lengths, held);
    };
}

}
