// lowcostgpu export-inputs: everything an auditor needs to recompute one published sheet from the
// market's own files, written to a folder (issue 24, item 5), for `lowcostgpu audit --raw-inputs`.
#include "server/cli/commands.hpp"
#include "server/store/database.hpp"

#include "render/json.hpp"

#include "pricing/calendar.hpp"

#include <boost/json.hpp>

#include <filesystem>
#include <fstream>
#include <iostream>

namespace lcg::cli {

namespace {

namespace fs = std::filesystem;

void write_file(fs::path const& path, std::string_view bytes)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out)
        throw std::runtime_error("cannot write " + path.string());
}

// The raw files in import order and their mappings, as audit_raw_inputs reads them.
boost::json::object manifest(pricing::iso_week week, store::sheet_raw_inputs const& raw, fs::path const& dir)
{
    boost::json::array files, mappings;
    std::size_t seq = 0;
    for (auto const& f : raw.files) {
        std::string const path = "raw/" + std::to_string(++seq) + "-" + f.source + "-" + f.sha256.substr(0, 12);
        write_file(dir / path, f.bytes);
        files.push_back({{"source", f.source},
                         {"format", f.format},
                         {"memory_convention", f.memory_convention},
                         {"observed_at", pricing::to_rfc3339(f.observed_at)},
                         {"sha256", f.sha256},
                         {"bytes", f.bytes.size()},
                         {"mapping_sha256", f.mapping_sha256},
                         {"path", path}});
    }
    for (auto const& [sha256, csv] : raw.mappings) {
        std::string const path = "mappings/" + sha256 + ".csv";
        write_file(dir / path, csv);
        mappings.push_back({{"sha256", sha256}, {"path", path}});
    }
    return {{"week", pricing::to_string(week)}, {"files", std::move(files)}, {"mappings", std::move(mappings)}};
}

std::string stored_observations(store::database& db, pricing::price_sheet const& sheet)
{
    auto const layout = db.load_input_layout(sheet.week, sheet.inputs_sha256);
    std::string csv;
    for (std::size_t seq = 0; seq < layout.chunk_sizes.size(); ++seq)
        csv += db.load_input_chunk(sheet.week, sheet.inputs_sha256, seq);
    return csv;
}

}

int run_export_inputs(arguments const& args)
{
    allow_only(args, {"database-url", "week", "out"}, 0);
    auto const week = pricing::parse_week(args.flag("week").value_or(""));
    if (!week)
        throw usage_error("export-inputs needs --week YYYY-Www: " + week.err().message);
    auto const out = args.flag("out");
    if (!out || out->empty())
        throw usage_error("export-inputs needs --out DIR (a new or empty folder)");
    fs::path const dir(*out);
    if (fs::exists(dir) && !fs::is_empty(dir))
        throw usage_error(*out + " is not empty");
    store::database db(database_url(args));
    auto const sheets = db.load_sheets();
    auto const sheet = std::find_if(sheets.begin(), sheets.end(), [&](auto const& s) { return s.week == *week; });
    if (sheet == sheets.end())
        throw usage_error("no sheet is published for " + pricing::to_string(*week));
    fs::create_directories(dir / "raw");
    fs::create_directories(dir / "mappings");
    auto const raw = db.load_raw_inputs(*week);
    write_file(dir / "sources.json", boost::json::serialize(manifest(*week, raw, dir)) + "\n");
    write_file(dir / "observations.csv", stored_observations(db, *sheet));
    write_file(dir / "sheet.json",
               boost::json::serialize(render::sheet_json(*sheet, db.load_catalog(), render::language::en)) + "\n");
    std::cout << "exported " << pricing::to_string(*week) << ": " << raw.files.size() << " raw files, "
              << raw.mappings.size() << " mapping(s), the observations and the sheet, to " << dir.string() << "\n";
    return 0;
}

}
