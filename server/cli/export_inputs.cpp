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

// The sources document of the week (as /v1/sheets/{week}/sources serves it), and the bytes of every
// file and mapping it names at the paths it gives, relative to `dir`.
void write_raw_inputs(store::database& db, pricing::price_sheet const& sheet, fs::path const& dir)
{
    auto const files = db.load_raw_inputs(sheet.week);
    auto const document = render::raw_inputs_json(sheet, files);
    for (char const* list : {"files", "mappings"})
        for (auto const& v : document.at(list).as_array()) {
            std::string const sha256(v.at("sha256").as_string());
            auto const bytes = db.load_raw_bytes(sha256);
            if (!bytes)
                throw std::runtime_error("the raw file or mapping " + sha256 + " is not stored");
            write_file(dir / std::string(v.at("path").as_string()), *bytes);
        }
    write_file(dir / "sources.json", boost::json::serialize(document) + "\n");
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
    fs::create_directories(dir / "sources");
    write_raw_inputs(db, *sheet, dir);
    write_file(dir / "observations.csv", stored_observations(db, *sheet));
    write_file(dir / "sheet.json",
               boost::json::serialize(render::sheet_json(*sheet, db.load_catalog(), locale::language::en)) + "\n");
    std::cout << "exported " << pricing::to_string(*week) << ": its raw files and mappings (sources.json), the "
              << "observations and the sheet, to " << dir.string() << "\n";
    return 0;
}

}
