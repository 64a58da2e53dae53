// lowcostgpu audit: published sheets recomputed from their inputs and their signatures checked,
// offline from files or over --url with the publication log.
#include "server/cli/commands.hpp"
#include "server/cli/files.hpp"
#include "server/cli/keys.hpp"
#include "server/audit/audit.hpp"
#include "server/audit/raw_inputs.hpp"
#include "server/ops/state_file.hpp"

#include "pricing/calendar.hpp"
#include "pricing/rules.hpp"

#include <filesystem>
#include <iostream>
#include <optional>

namespace lcg::cli {

int run_audit(arguments const& args)
{
    allow_only(args, {"url", "week", "all", "observations", "sheet", "keys", "timeout", "raw-inputs", "log-checkpoint"}, 0);
    std::optional<pricing::key_ring> keys;
    if (auto const path = args.flag("keys"))
        keys = read_key_ring(*path);
    if (args.flag("observations") || args.flag("sheet")) {
        if (!args.flag("observations") || !args.flag("sheet") || args.flag("url"))
            throw usage_error("offline audit takes both --observations FILE.csv and --sheet FILE.json, and no --url");
        auto const verdict = audit::audit_sheet(
            read_whole_file(*args.flag("sheet")),
            [&](client::body_sink const& sink) { read_file_in_pieces(*args.flag("observations"), sink); }, std::cout,
            keys ? &*keys : nullptr);
        bool ok = verdict.ok;
        if (auto const manifest = args.flag("raw-inputs")) {
            auto const folder = std::filesystem::path(*manifest).parent_path();
            auto const read = [&](std::string const& path, std::uint64_t max_bytes) {
                auto const file = folder / path;
                if (std::filesystem::file_size(file) > max_bytes)
                    throw std::runtime_error(file.string() + " is longer than " + std::to_string(max_bytes) + " bytes");
                return read_whole_file(file.string());
            };
            ok = audit::audit_raw_inputs(read_whole_file(*manifest), read, verdict.inputs_sha256, verdict.observations,
                                         std::cout) &&
                 ok;
        }
        return ok ? 0 : 1;
    }
    auto const url = args.flag("url");
    if (!url)
        throw usage_error("audit needs --url http://HOST:PORT, or --observations and --sheet");
    if (args.flag("week") && args.flag("all"))
        throw usage_error("--week and --all exclude each other");
    if (auto w = args.flag("week"); w && !pricing::parse_week(*w))
        throw usage_error("--week: " + pricing::parse_week(*w).err().message);
    client::limits limits;
    limits.timeout = std::chrono::seconds(
        number_setting(args, "timeout", "AUDIT_TIMEOUT", pricing::rules::fetch_timeout_seconds, 1, 3600));
    // --log-checkpoint FILE: the log's checkpoint this auditor accepted last, which the log must
    // extend; the new one replaces it once the audit passes (an auditor as a witness).
    audit::log_memory log;
    auto const remembered = args.flag("log-checkpoint");
    if (remembered && std::filesystem::exists(*remembered))
        log.previous = ops::read_state(*remembered, "the log checkpoint");
    bool const ok = audit::audit_service(*url, args.flag("week").value_or(""), args.flag("all").has_value(), limits,
                                         std::cout, std::move(keys), &log);
    if (ok && remembered)
        ops::write_state(*remembered, log.accepted, "the log checkpoint");
    return ok ? 0 : 1;
}

}
