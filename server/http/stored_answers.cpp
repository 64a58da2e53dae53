#include "server/http/stored_answers.hpp"

#include "server/http/headers.hpp"

#include <sys/mman.h>
#include <unistd.h>

namespace lcg::http {

namespace {

// What a message's answer (POST /mcp) may depend on besides the negotiation fields and the body:
// the headers mcp_handler reads, each as it reads them (the first line of the field).
constexpr std::string_view message_fields[] = {"Host",       "Origin",   "Content-Type", "MCP-Protocol-Version",
                                               "Mcp-Method", "Mcp-Name"};

bool plain(request const& req)
{
    auto const method = req.method();
    bool const asks = method == beast_http::verb::post
                          ? req.body().size() <= stored_answers::max_message_bytes
                          : (method == beast_http::verb::get || method == beast_http::verb::head) && req.body().empty();
    return asks && req.version() == 11 && req.keep_alive() && req.find(beast_http::field::if_none_match) == req.end() &&
           req.find(beast_http::field::if_modified_since) == req.end() &&
           req.find(beast_http::field::if_match) == req.end() &&
           req.find(beast_http::field::if_unmodified_since) == req.end();
}

// A message's headers after `key`. Whether a field was sent counts as well as its value (an empty
// Origin is refused where none is not): '=' marks one sent.
void append_message_fields(std::string& key, request const& req)
{
    for (auto const name : message_fields) {
        key += '\n';
        auto const it = req.find(name);
        if (it == req.end())
            continue;
        key += '=';
        key.append(it->value().data(), it->value().size());
    }
}

}

std::shared_ptr<const memory_file> memory_file::holding(std::initializer_list<std::string_view> parts)
{
    int const fd = ::memfd_create("lowcostgpu-answer", MFD_CLOEXEC);
    if (fd < 0)
        return nullptr;
    auto file = std::make_shared<const memory_file>(fd);
    for (auto rest : parts)
        while (!rest.empty()) {
            auto const n = ::write(fd, rest.data(), rest.size());
            if (n <= 0)
                return nullptr;
            rest.remove_prefix(static_cast<std::size_t>(n));
        }
    return file;
}

memory_file::~memory_file() { ::close(fd_); }

bool stored_answers::key_of(request const& req)
{
    if (!plain(req))
        return false;
    bool const message = req.method() == beast_http::verb::post;
    key_.assign(message ? "POST " : "");
    key_.append(req.target().data(), req.target().size());
    // What an answer depends on besides the snapshot and the target: the negotiation fields, each
    // read as the router reads it, one line (join_negotiation_lines made it of all the field's).
    for (auto const field : negotiation_fields) {
        // A line feed cannot occur in a field value, so it separates the parts unambiguously.
        key_ += '\n';
        auto const value = req[field];
        key_.append(value.data(), value.size());
    }
    if (message)
        append_message_fields(key_, req);
    if (key_.size() > max_key_bytes)
        return false;
    if (message) {
        // The body comes last, so its line feeds cannot be taken for a separator.
        key_ += '\n';
        key_.append(req.body().data(), req.body().size());
    }
    key_hash_ = std::hash<std::string_view>{}(key_);
    ++key_serial_;
    return true;
}

bool stored_answers::same_snapshot(std::shared_ptr<const snapshot::snapshot> const& snapshot) const
{
    // Compares the owners: the weak reference keeps the old snapshot's control block, so a new
    // snapshot can never be taken for it.
    return !snapshot_.owner_before(snapshot) && !snapshot.owner_before(snapshot_);
}

stored_answers::lookup stored_answers::find(request const& req,
                                            std::shared_ptr<const snapshot::snapshot> const& snapshot,
                                            bool sends_files)
{
    lookup out{std::nullopt, 0, sends_files};
    if (answers_.empty() || !same_snapshot(snapshot) || !key_of(req))
        return out;
    out.key = key_serial_;
    auto const it = answers_.find(key());
    if (it == answers_.end() || (!sends_files && it->second.body.size() != it->second.body_size))
        return out;
    date_.now();
    auto owner = it->second.owner.lock();
    if (!owner || it->second.second != date_.second()) {
        // Its document is gone, or its head's Date names a second past. A message's reply was
        // asked before, so the new one is stored at once.
        if (owner && it->second.message)
            note_asked();
        forget(it->second);
        answers_.erase(it);
        return out;
    }
    out.hit = found{&it->second, std::move(owner)};
    return out;
}

void stored_answers::keep(request const& req, lookup const& asked,
                          std::shared_ptr<const snapshot::snapshot> const& snapshot, response const& res,
                          std::string_view route, std::string_view head)
{
    auto const& body = res.body();
    auto const replay = body.replayable();
    bool const message = replay == payload::replay::message;
    bool const computed = replay == payload::replay::computed || message;
    if (!snapshot || replay == payload::replay::never || res.result() != beast_http::status::ok ||
        !res.keep_alive() || (computed && body.size() > max_computed_bytes))
        return;
    if ((asked.key == 0 || asked.key != key_serial_) && !key_of(req))
        return;
    if (!same_snapshot(snapshot)) {
        clear();
        asked_once_.clear();
        snapshot_ = snapshot;
    }
    if (message && !asked_before())
        return;
    // Many distinct questions: start again rather than track which are asked most.
    if (answers_.size() >= max_answers)
        clear();
    stored answer;
    answer.head = head;
    answer.body_size = body.size();
    answer.route = route;
    answer.counted = body.counted_call();
    answer.second = date_.second();
    answer.message = message;
    std::size_t const bytes = head.size() + answer.body_size;
    if (asked.sends_files && bytes >= file_threshold) {
        count_released_files();
        if (files_ < max_files && file_bytes_ + bytes <= max_file_bytes)
            if ((answer.file = memory_file::holding({head, body.lead(), body.lasting_end()}))) {
                ++files_;
                file_bytes_ += bytes;
            }
    }
    hold_body(answer, body, message, computed);
    auto const it = answers_.find(key());
    if (it != answers_.end()) {
        forget(it->second);
        it->second = std::move(answer);
    } else {
        answers_.emplace(stored_key{key_, key_hash_}, std::move(answer));
    }
}

void stored_answers::hold_body(stored& answer, payload const& body, bool message, bool computed)
{
    if (computed && answer.file) {
        answer.owner = answer.file;
        return;
    }
    if (computed && computed_bytes_ + answer.body_size > max_computed_bytes)
        clear();
    auto owner = body.owner();
    if (message) {
        // Text this response owns, its end perhaps the MCP server's: copied whole.
        auto whole = std::make_shared<std::string>();
        whole->reserve(body.size());
        whole->append(body.lead()).append(body.lasting_end());
        answer.body = *whole;
        owner = std::move(whole);
    } else {
        answer.body = body.view();
    }
    answer.owner = owner;
    if (computed) {
        answer.held = std::move(owner);
        computed_bytes_ += answer.body_size;
    }
}

bool stored_answers::asked_before()
{
    if (asked_once_.erase(key_hash_) > 0)
        return true;
    note_asked();
    return false;
}

void stored_answers::note_asked()
{
    if (asked_once_.size() >= max_answers)
        asked_once_.clear();
    asked_once_.insert(key_hash_);
}

std::shared_ptr<const memory_file> stored_answers::lasting_file(std::shared_ptr<const void> const& owner,
                                                                std::string_view bytes)
{
    if (!owner || bytes.size() < file_threshold)
        return nullptr;
    // While its owner lives, an address holds the same bytes; a weak reference keeps the owner's
    // control block, so a later owner is never taken for a gone one.
    auto const it = lasting_files_.find(bytes.data());
    if (it != lasting_files_.end() && it->second.size == bytes.size() && !it->second.owner.expired() &&
        !it->second.owner.owner_before(owner) && !owner.owner_before(it->second.owner))
        return it->second.file;
    if (lasting_files_.size() >= max_lasting_files)
        lasting_files_.clear();  // the owners of most are gone: a snapshot lives for hours
    auto file = memory_file::holding({bytes});
    if (file)
        lasting_files_[bytes.data()] = {owner, bytes.size(), file};
    return file;
}

void stored_answers::forget(stored const& answer)
{
    if (answer.held)
        computed_bytes_ -= answer.body_size;
    if (answer.file)
        retired_.push_back({answer.file, answer.head.size() + answer.body_size});
}

void stored_answers::count_released_files()
{
    std::erase_if(retired_, [this](retired const& r) {
        if (!r.file.expired())
            return false;
        --files_;
        file_bytes_ -= r.bytes;
        return true;
    });
}

void stored_answers::clear()
{
    for (auto const& [key, answer] : answers_)
        forget(answer);
    answers_.clear();
    computed_bytes_ = 0;
    count_released_files();
}

}
