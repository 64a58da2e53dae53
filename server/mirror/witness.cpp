#include "server/mirror/witness.hpp"

#include "server/digest/digest.hpp"
#include "server/ops/state_file.hpp"
#include "server/tlog/entry.hpp"
#include "server/tlog/verify.hpp"
#include "server/trust/trust.hpp"
#include "render/resources.hpp"

#include "pricing/calendar.hpp"

#include <map>

namespace lcg::mirror {

namespace {

// A version's signature as the upstream serves it, read no longer than a signature file is (88
// characters of base64 and a line end) and checked over the version's bytes with the pinned keys:
// no signature the mirror has not checked is re-served, and a hostile upstream cannot make it hold
// megabytes per entry.
std::string verified_signature(client::base_url const& origin, client::limits const& limits, std::size_t index,
                               tlog::log_entry const& entry, std::string const& bytes, pricing::key_ring const& keys)
{
    std::string signature = client::get_body(origin, render::path_of(render::resource::log_signature, std::to_string(index)),
                                             "text/plain", client::at_most(limits, 128));
    if (!signature.empty() && signature.back() == '\n')
        signature.pop_back();
    auto const verified =
        trust::verify_bytes(bytes, signature, entry.key_id, {pricing::monday_of(entry.week), entry.published_at}, keys);
    if (!verified)
        throw std::runtime_error("the upstream's signature of version " + std::to_string(index) + ": " +
                                 verified.err().message);
    return signature;
}

// Every entry of a verified log read, and each kind checked against its place, before a version is
// downloaded: a log refused for its entries costs no more than its tiles.
std::vector<tlog::log_entry> checked_entries(tlog::verified_log const& log)
{
    auto parsed = tlog::parse_entries(log.entries);
    if (!parsed)
        throw std::runtime_error("the upstream's log " + parsed.err().message);
    if (auto const problem = tlog::kind_problem(*parsed))
        throw std::runtime_error("the upstream's log refused: " + *problem);
    return std::move(parsed).value();
}

}

log_witness::log_witness(witness_options options) : options_(std::move(options))
{
    if (options_.checkpoint_file && std::filesystem::exists(*options_.checkpoint_file)) {
        accepted_note_ = ops::read_state(*options_.checkpoint_file, "the witness checkpoint");
        auto c = tlog::parse_checkpoint(accepted_note_);
        if (!c)
            throw std::runtime_error("the witness checkpoint " + options_.checkpoint_file->string() + ": " + c.err().message);
        accepted_ = *c;
    }
}

std::shared_ptr<const snapshot::publication_log> log_witness::follow(client::base_url const& origin,
                                                                     client::limits const& limits,
                                                                     pricing::key_ring const& keys, pricing::instant now)
{
    auto const head = client::get(origin, render::path_of(render::resource::log_checkpoint), "text/plain", limits);
    if (head.status == 404 && !accepted_)
        return nullptr;  // an upstream from before the log
    if (head.status != 200)
        throw std::runtime_error("the upstream's log checkpoint answered " + std::to_string(head.status) +
                                 (accepted_ ? " after one was accepted: its log is withheld" : ""));
    if (served_ && head.body == accepted_note_)
        return served_;
    auto log = tlog::read_log([&](std::string const& path) { return client::get_body(origin, path, "*/*", limits); }, keys);
    if (!log)
        throw std::runtime_error("the upstream's log refused: " + log.err().message);
    if (accepted_)
        if (auto problem = tlog::extension_problem(*log, *accepted_))
            throw std::runtime_error("the upstream's log refused: " + *problem);
    auto const parsed = checked_entries(*log);
    std::vector<tlog::logged_version> versions;
    for (std::size_t i = 0; i < log->entries.size(); ++i) {
        auto const& entry = parsed[i];
        // An entry kept from the log served before needs no second download.
        if (served_ && i < served_->entries.size() && served_->entries[i].entry == log->entries[i]) {
            versions.push_back(served_->entries[i]);
            continue;
        }
        std::string const index = std::to_string(i);
        std::string bytes = client::get_body(origin, render::path_of(render::resource::log_signed_bytes, index), "text/plain",
                                             client::at_most(limits, pricing::rules::max_signed_document_bytes));
        if (digest::sha256_hex(bytes) != entry.signed_sha256)
            throw std::runtime_error("the upstream's version " + std::to_string(i) + " is not the one its log entry names");
        if (auto const problem = tlog::version_problem(entry, bytes))
            throw std::runtime_error("the upstream's version " + std::to_string(i) + " is not the one its log entry describes: " +
                                     *problem);
        // A version signed by a key the mirror does not pin (one retired before a pin that names only
        // the key after a rotation) is re-served without its signature: the signed checkpoint vouches
        // for its bytes, and a signature the mirror cannot check is not passed on.
        bool const checkable = !entry.key_id.empty() && keys.find(entry.key_id);
        std::string signature = checkable ? verified_signature(origin, limits, i, entry, bytes, keys) : std::string();
        versions.push_back({log->entries[i], std::move(bytes), checkable ? entry.key_id : std::string(), std::move(signature)});
    }
    std::string note = tlog::origin_signed_note(log->signed_checkpoint, keys);
    if (options_.cosigner)
        note += tlog::cosignature_line(log->signed_checkpoint.body, *options_.cosigner,
                                       static_cast<std::uint64_t>(now.time_since_epoch().count()));
    if (options_.checkpoint_file)
        ops::write_state(*options_.checkpoint_file, log->note, "the witness checkpoint");
    accepted_ = log->signed_checkpoint;
    accepted_note_ = log->note;
    served_ = snapshot::make_log(std::move(versions), std::move(note));
    return served_;
}

void log_witness::check_sheets(std::vector<pricing::price_sheet> const& sheets) const
{
    if (!served_)
        return;
    std::map<std::string, std::string> newest;
    for (auto const& e : served_->parsed)
        if (e)
            newest[pricing::to_string(e->week)] = e->signed_sha256;
    for (auto const& s : sheets) {
        auto const it = newest.find(pricing::to_string(s.week));
        if (it == newest.end() || it->second != digest::sha256_hex(pricing::signed_bytes(s)))
            throw std::runtime_error("sheet " + pricing::to_string(s.week) +
                                     " refused: it is not the version the upstream's log names last for that week");
    }
}

}
