#include "server/audit/log.hpp"

#include "server/digest/digest.hpp"
#include "server/tlog/entry.hpp"
#include "server/tlog/verify.hpp"

#include <map>
#include <vector>

namespace lcg::audit {

namespace {

std::string duration_words(std::chrono::seconds s)
{
    auto const hours = s.count() / 3600;
    return std::to_string(hours / 24) + " days " + std::to_string(hours % 24) + " hours";
}

// Reports each entry; returns each week's newest entry, or nothing when one is malformed.
std::optional<std::map<std::string, tlog::log_entry>> report_entries(std::vector<std::string> const& entries,
                                                                    std::ostream& report)
{
    auto const parsed = tlog::parse_entries(entries);
    if (!parsed) {
        report << "  BAD  " << parsed.err().message << "\n";
        return std::nullopt;
    }
    std::map<std::string, tlog::log_entry> newest;
    for (std::size_t i = 0; i < parsed->size(); ++i) {
        auto const* e = &(*parsed)[i];
        std::string const week = pricing::to_string(e->week);
        auto const late = pricing::publication_delay(e->week, e->published_at);
        report << "  ok   entry " << i << ": " << week << " " << tlog::to_string(e->kind) << " published "
               << pricing::to_rfc3339(e->published_at)
               << (late.count() > 0 && e->kind == tlog::entry_kind::publication ? " LATE by " + duration_words(late) : "")
               << (e->reason.empty() ? "" : " (" + e->reason + ")") << "\n";
        newest[week] = *e;
    }
    if (auto const problem = tlog::kind_problem(*parsed)) {
        report << "  FAIL " << *problem << "\n";
        return std::nullopt;
    }
    return newest;
}

// Whether the log extends the checkpoint accepted before.
bool extends(tlog::verified_log const& log, std::string const& previous, pricing::key_ring const& keys,
             std::ostream& report)
{
    auto const before = tlog::verified_checkpoint(previous, keys);
    if (!before) {
        report << "  BAD  the previous checkpoint: " << before.err().message << "\n";
        return false;
    }
    if (auto const problem = tlog::extension_problem(log, *before)) {
        report << "  FAIL " << *problem << "\n";
        return false;
    }
    report << "  ok   extends the previous checkpoint of " << before->size << " entries\n";
    return true;
}

}

log_audit audit_log(fetcher const& fetch, pricing::key_ring const& keys, std::optional<std::string> const& previous,
                    std::ostream& report)
{
    report << "publication log\n";
    pricing::outcome<tlog::verified_log> log = pricing::invalid("not read");
    try {
        log = tlog::read_log([&](std::string const& path) { return fetch(path, "*/*"); }, keys);
    } catch (std::exception const& e) {
        log = pricing::invalid(std::string("unreadable: ") + e.what());
    }
    if (!log) {
        report << "  FAIL " << log.err().message << "\n";
        report << "publication log - FAIL\n";
        return {};
    }
    log_audit out;
    auto newest = report_entries(log->entries, report);
    out.read = newest.has_value();
    if (newest)
        out.newest = std::move(*newest);
    out.ok = out.read;
    for (auto const& [week, entry] : out.newest) {
        std::string const bytes = fetch("/v1/sheets/" + week + "/signed.txt", "text/plain");
        if (digest::sha256_hex(bytes) != entry.signed_sha256) {
            report << "  FAIL the sheet " << week << " served is not the version its newest entry logs\n";
            out.ok = false;
        } else if (auto const problem = tlog::version_problem(entry, bytes)) {
            report << "  FAIL the newest entry of " << week << " does not describe its version: " << *problem << "\n";
            out.ok = false;
        }
    }
    if (previous)
        out.ok = extends(*log, *previous, keys, report) && out.ok;
    auto const& c = log->signed_checkpoint;
    report << "publication log: " << c.origin << ", " << c.size << " entries" << (out.ok ? " - PASS" : " - FAIL") << "\n";
    if (out.ok)
        out.checkpoint = log->note;
    return out;
}

}
