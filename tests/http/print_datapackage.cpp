// Writes a week's datapackage.json, as an instance with a public URL serves it, and the files it
// describes (the bytes the server serves for each resource's URL) into a folder, for the
// Frictionless validator (tests/web/validate_datapackage.sh): DIR/datapackage.json, and each file
// under DIR at its URL's path.
#include "fixture.hpp"

#include <filesystem>
#include <fstream>
#include <iostream>

namespace {

constexpr std::string_view public_url = "https://api.lowcostgpu.example";

bool write(std::filesystem::path const& file, std::string const& body)
{
    std::filesystem::create_directories(file.parent_path());
    std::ofstream out(file, std::ios::binary);
    out << body;
    return static_cast<bool>(out);
}

}

int main(int argc, char** argv)
{
    if (argc != 2) {
        std::cerr << "usage: lcg_print_datapackage DIR\n";
        return 2;
    }
    std::filesystem::path const dir = argv[1];
    auto const snap = lcg::testing::fixture_snapshot_at(std::string(public_url));
    auto const package = snap->find_document("/v1/sheets/2026-W49/datapackage.json");
    if (!package || !write(dir / "datapackage.json", package->body))
        return 1;
    // The files as the server answers them (the sheet CSV pre-rendered, the observations streamed).
    for (std::string const path : {"/v1/sheets/2026-W49.csv", "/v1/sheets/2026-W49/observations.csv"}) {
        auto const res = lcg::testing::fixture_request(path);
        if (res.result_int() != 200 || !write(dir / path.substr(1), res.body().str()))
            return 1;
    }
    return 0;
}
