// What the archive's jobs read and render: a week's layout, the parts of its CSV and JSON, its
// Markdown and HTML pages tallied a chunk at a time, and its raw market files and their page.
#include "server/archive/impl.hpp"

#include "server/ops/metrics.hpp"
#include "server/digest/digest.hpp"

#include "render/json.hpp"
#include "render/views.hpp"
#include "render/resources.hpp"

#include <algorithm>

namespace lcg::archive {

namespace {

std::string observations_path(pricing::price_sheet const& sheet)
{
    return render::path_of(render::resource::observations, pricing::to_string(sheet.week));
}

pricing::error nothing_stored(pricing::price_sheet const& sheet)
{
    return {pricing::errc::not_found, "no inputs are stored for the sheet " + pricing::to_string(sheet.week) +
                                          " as published at " + pricing::to_rfc3339(sheet.published_at)};
}

// A page (Markdown, HTML) of a sheet's inputs: its summary per model, rendered.
std::shared_ptr<const snapshot::document> render_page_of(pricing::price_sheet const& sheet, render::format f,
                                                         locale::language l, render::observations_summary const& summary)
{
    render::page const where{observations_path(sheet), render::language_query("", l), render::table_formats, l};
    return snapshot::make_document(std::string(render::content_type(f)),
                                   render::write(f, render::observations_view, summary.json(sheet), where), false,
                                   sheet.published_at);
}

// The observations of chunk `seq`, read with the header line (which only chunk 0 has).
pricing::parsed_observations rows_of(pricing::input_layout const& layout, std::size_t seq, std::string const& chunk)
{
    auto const known = [](std::string_view) { return true; };
    if (seq == 0)
        return pricing::parse_observations_csv(chunk, known);
    return pricing::parse_observations_csv(layout.header + '\n' + chunk, known);
}

}

archive::impl::value_result archive::impl::produce(source& from, request const& what)
{
    try {
        switch (what.what) {
        case task::layout: return read_layout(from, what.sheet);
        case task::chunk_part: return render_part(from, what);
        case task::page: return render_page(from, what);
        case task::raw_list: return value(raw_list(from, what.sheet));
        case task::raw_page: return render_raw_page(from, what);
        case task::raw_file: return read_raw_file(from, what);
        }
        return unavailable(what.sheet, "nothing to read");
    } catch (std::exception const& e) {
        ops::report_caught_exception(options_.metrics, "archive", "reading the inputs of " + pricing::to_string(what.sheet.week) + ": " +
                                                    e.what());
        return unavailable(what.sheet, "the archive could not be read");
    }
}

archive::impl::value_result archive::impl::read_layout(source& from, pricing::price_sheet const& sheet)
{
    {
        std::lock_guard lock(mutex_);
        ++figures_.reads;
    }
    auto layout = from.layout(sheet);
    if (layout.chunk_sizes.empty())
        return nothing_stored(sheet);
    return value(std::make_shared<const pricing::input_layout>(std::move(layout)));
}

// Chunk `seq` of the CSV, from the cache or the source. A chunk not of the size its layout gives
// belongs to another publication (the week was republished while read): the read fails rather
// than mix two publications or send other than the length announced.
std::shared_ptr<const std::string> archive::impl::csv_chunk(source& from, request const& what, std::size_t seq)
{
    auto const key = part_key(what.sheet, render::format::csv, seq);
    {
        std::lock_guard lock(mutex_);
        if (auto const held = cache_.recall(key))
            return std::static_pointer_cast<const std::string>(held);
        ++figures_.chunk_reads;
    }
    auto chunk = std::make_shared<const std::string>(from.chunk(what.sheet, seq));
    if (chunk->size() != what.layout->chunk_sizes.at(seq))
        throw std::runtime_error("chunk " + std::to_string(seq) + " is not the size its layout gives (republished?)");
    if (what.format != render::format::csv && worth_keeping(what)) {  // a CSV part is the job's result
        std::lock_guard lock(mutex_);
        cache_.remember(key, chunk, chunk->size());
    }
    return chunk;
}

// A part of the CSV is its chunk as stored; a part of the JSON is rendered from that chunk's rows,
// the first opening the document and the last closing it.
archive::impl::value_result archive::impl::render_part(source& from, request const& what)
{
    auto chunk = csv_chunk(from, what, what.seq);
    if (what.format == render::format::csv)
        return value(chunk);
    auto const rows = rows_of(*what.layout, what.seq, *chunk);
    bool const last = what.seq + 1 == what.layout->chunk_sizes.size();
    return value(std::make_shared<const std::string>(render::observations_text(
        what.sheet, static_cast<std::size_t>(what.sheet.observations), rows.observations, {what.seq == 0, last})));
}

// A page needs every row, but holds one chunk at a time: each is read (or found cached), tallied
// and let go. Between chunks it looks whether anyone still waits for the page, and stops when no
// one does: a client that gave up leaves no work behind (a null page; work() drops the job).
archive::impl::value_result archive::impl::render_page(source& from, request const& what)
{
    std::shared_ptr<const pricing::input_layout> layout;
    {
        std::lock_guard lock(mutex_);
        layout = std::static_pointer_cast<const pricing::input_layout>(cache_.recall(layout_key(what.sheet)));
    }
    if (!layout) {
        auto read = read_layout(from, what.sheet);
        if (!read)
            return read;
        layout = std::static_pointer_cast<const pricing::input_layout>(*read);
        std::lock_guard lock(mutex_);
        cache_.remember(layout_key(what.sheet), layout, size_of(task::layout, layout));
    }
    request of_chunks = what;
    of_chunks.what = task::chunk_part;  // each chunk kept as a CSV part would be
    of_chunks.layout = layout;
    auto const key = page_key(what.sheet, what.format, what.lang);
    render::observations_summary summary;
    for (std::size_t seq = 0; seq < layout->chunk_sizes.size(); ++seq) {
        if (!awaited(key))
            return value();
        summary.add(rows_of(*layout, seq, *csv_chunk(from, of_chunks, seq)).observations);
    }
    return value(render_page_of(what.sheet, what.format, what.lang, summary));
}

// The sheet's raw files, from the cache or the source (then kept: a list is small).
std::shared_ptr<const std::vector<pricing::raw_input>> archive::impl::raw_list(source& from, pricing::price_sheet const& sheet)
{
    {
        std::lock_guard lock(mutex_);
        if (auto const held = cache_.recall(raw_list_key(sheet)))
            return std::static_pointer_cast<const std::vector<pricing::raw_input>>(held);
        ++figures_.reads;
    }
    auto list = std::make_shared<const std::vector<pricing::raw_input>>(from.raw_inputs(sheet));
    std::lock_guard lock(mutex_);
    cache_.remember(raw_list_key(sheet), list, size_of(task::raw_list, list));
    return list;
}

archive::impl::value_result archive::impl::render_raw_page(source& from, request const& what)
{
    auto const list = raw_list(from, what.sheet);
    std::string const path = render::path_of(render::resource::raw_inputs, pricing::to_string(what.sheet.week));
    render::page const where{path, render::language_query("", what.lang), render::kind_of(render::resource::raw_inputs).formats(), what.lang};
    return value(snapshot::make_document(
        std::string(render::content_type(what.format)),
        render::write(what.format, render::raw_inputs_view, render::raw_inputs_json(what.sheet, *list), where), false,
        what.sheet.published_at));
}

// A raw file is served only when the sheet names it, and only when its bytes hash to its name: an
// auditor is never sent a byte the published SHA-256 does not vouch for.
archive::impl::value_result archive::impl::read_raw_file(source& from, request const& what)
{
    auto const list = raw_list(from, what.sheet);
    auto const file = std::find_if(list->begin(), list->end(), [&](auto const& f) { return f.sha256 == what.sha256; });
    bool const mapping = std::any_of(list->begin(), list->end(),
                                     [&](auto const& f) { return f.mapping_sha256 == what.sha256; });
    pricing::error const none{pricing::errc::not_found, "the sheet " + pricing::to_string(what.sheet.week) +
                                                            " names no raw file or mapping " + what.sha256 +
                                                            "; its sources list names those it has"};
    if (file == list->end() && !mapping)
        return none;
    {
        std::lock_guard lock(mutex_);
        ++figures_.chunk_reads;
    }
    auto bytes = from.raw_bytes(what.sheet, what.sha256);
    if (!bytes)
        return none;
    if (digest::sha256_hex(*bytes) != what.sha256)
        throw std::runtime_error("the raw file " + what.sha256 + " does not hash to its name");
    bool const json = file != list->end() && file->format != "skypilot-vms";
    return value(snapshot::make_document(json ? "application/json" : "text/csv; charset=utf-8", std::move(*bytes),
                                         true, what.sheet.published_at));
}

}
